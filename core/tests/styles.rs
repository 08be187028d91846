//! The workspace's style sheets (`www/styles/`) keep to their design tokens:
//! every colour, font size, space and radius comes from `tokens.css`, and
//! every sheet is in `index.css`, the order `scripts/lib.sh` joins them in.
//! A raw value outside the tokens is how a scheme drifts (a colour that is
//! right in light and wrong in dark, a size no other screen uses); a sheet
//! left out of the index silently never loads.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn styles_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("www")
        .join("styles")
}

/// The sheets beside `index.css`, by file name.
fn sheets() -> Vec<(String, String)> {
    // A missing folder reads as no sheets, which the assertion below refuses.
    let entries = fs::read_dir(styles_dir()).into_iter().flatten();
    let mut out: Vec<(String, String)> = entries
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?.to_owned();
            (name.ends_with(".css") && name != "index.css")
                .then(|| (name, fs::read_to_string(&path).unwrap_or_default()))
        })
        .collect();
    out.sort();
    assert!(out.len() > 2, "www/styles holds the sheets: {out:?}");
    assert!(
        out.iter().all(|(_, css)| !css.is_empty()),
        "an empty or unreadable sheet"
    );
    out
}

/// The text without its comments, so a comment may name any value.
fn without_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    out.push_str(rest);
    out
}

/// Each `property: value` declaration of a sheet (custom properties too).
fn declarations(css: &str) -> Vec<(String, String)> {
    without_comments(css)
        .split(['{', '}', ';'])
        .filter_map(|piece| {
            let (property, value) = piece.split_once(':')?;
            let property = property.trim();
            let is_property = !property.is_empty()
                && property
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit());
            is_property.then(|| (property.to_owned(), value.trim().to_owned()))
        })
        .collect()
}

/// Whether a value holds a number in `rem` (`0.5rem`, `-1.25rem`), which the scales name.
fn has_rem(value: &str) -> bool {
    value.match_indices("rem").any(|(at, _)| {
        let before = &value[..at];
        let after = value[at + 3..].chars().next();
        before.ends_with(|c: char| c.is_ascii_digit())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

/// Whether a value spells a colour itself (`#abc`, `rgb(…)`, `hsl(…)`) instead of naming a token.
fn has_colour_literal(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let hex = lower.match_indices('#').any(|(at, _)| {
        let digits = lower[at + 1..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .count();
        [3, 4, 6, 8].contains(&digits)
    });
    hex || ["rgb(", "rgba(", "hsl(", "hsla(", "oklch(", "lab("]
        .iter()
        .any(|f| lower.contains(f))
}

fn is_spacing(property: &str) -> bool {
    ["padding", "margin", "gap", "row-gap", "column-gap"]
        .iter()
        .any(|p| property == *p || property.starts_with(&format!("{p}-")))
}

/// What a sheet other than `tokens.css` spells raw where a token belongs.
fn raw_values(css: &str) -> Vec<String> {
    declarations(css)
        .into_iter()
        .filter_map(|(property, value)| {
            let why = if property.starts_with("--") {
                Some("declares a token outside tokens.css")
            } else if has_colour_literal(&value) {
                Some("a colour outside the tokens")
            } else if property == "font-size" && !value.starts_with("var(--text-") {
                Some("a font size outside the type scale (--text-*)")
            } else if is_spacing(&property) && has_rem(&value) {
                Some("a space outside the space scale (--space-*)")
            } else if property == "border-radius" && has_rem(&value) {
                Some("a radius outside the radius scale (--radius*)")
            } else {
                None
            };
            why.map(|why| format!("{property}: {value} ({why})"))
        })
        .collect()
}

#[test]
fn every_sheet_uses_the_tokens() {
    let mut found = Vec::new();
    for (name, css) in sheets() {
        if name == "tokens.css" {
            continue;
        }
        found.extend(
            raw_values(&css)
                .into_iter()
                .map(|raw| format!("www/styles/{name}: {raw}")),
        );
    }
    assert!(
        found.is_empty(),
        "raw values where a token belongs:\n{}",
        found.join("\n")
    );
}

/// Where a sheet's braces fail to pair up: an unclosed block swallows every rule after it,
/// in this sheet and in the ones joined after it.
fn unbalanced(css: &str) -> Option<String> {
    let mut depth = 0usize;
    for (number, line) in without_comments(css).lines().enumerate() {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    return Some(format!("line {}: a }} closes nothing", number + 1));
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
    }
    (depth > 0).then(|| format!("{depth} block(s) never closed"))
}

#[test]
fn every_sheet_closes_what_it_opens() {
    let found: Vec<String> = sheets()
        .into_iter()
        .filter_map(|(name, css)| unbalanced(&css).map(|why| format!("www/styles/{name}: {why}")))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    assert_eq!(
        unbalanced("@media (x) {\n@media (x) {\n.a { b: c; }\n}"),
        Some("1 block(s) never closed".into())
    );
    assert_eq!(
        unbalanced(".a { b: c; } }"),
        Some("line 1: a } closes nothing".into())
    );
    assert_eq!(unbalanced("/* { */ .a { b: c; }"), None);
}

#[test]
fn the_index_lists_every_sheet_once() {
    let index = fs::read_to_string(styles_dir().join("index.css")).unwrap_or_default();
    let listed: Vec<&str> = index
        .lines()
        .filter_map(|line| line.strip_prefix("@import url(\"")?.strip_suffix("\");"))
        .collect();
    let unique: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(
        unique.len(),
        listed.len(),
        "a sheet is listed twice in index.css: {listed:?}"
    );
    let present: BTreeSet<String> = sheets().into_iter().map(|(name, _)| name).collect();
    let listed: BTreeSet<String> = unique.into_iter().map(str::to_owned).collect();
    assert_eq!(
        listed, present,
        "index.css must list exactly the sheets in www/styles"
    );
    assert_eq!(
        index.lines().find(|l| l.starts_with("@import")),
        Some("@import url(\"tokens.css\");")
    );
}

#[test]
fn the_check_finds_raw_values() {
    let css = "/* #fff in a comment is fine */\n.a { color: #1d232b; padding: 0.5rem var(--space-2); }\n\
               .b { font-size: 0.8rem; border-radius: 1rem; background: rgb(0 0 0 / 0.4); }\n\
               :root { --mine: 1px; }\n.c { margin: var(--space-1); font-size: var(--text-sm); gap: 0.2em; }";
    let found = raw_values(css);
    assert_eq!(found.len(), 6, "{found:#?}");
    assert!(found[0].starts_with("color: #1d232b"));
    assert!(found[1].starts_with("padding: 0.5rem"));
    assert!(found[2].starts_with("font-size: 0.8rem"));
    assert!(found[3].starts_with("border-radius: 1rem"));
    assert!(found[4].starts_with("background: rgb("));
    assert!(found[5].starts_with("--mine"));
}
