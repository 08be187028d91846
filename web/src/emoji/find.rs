//! The emoji table and finding in it: [`all`] reads `table.txt` (written by
//! `scripts/emoji-table.py` from gemoji's data: about 800 common emoji in
//! categories, each with a name, its `:shortcodes:` and a few keywords) once
//! it is here (in the page it is fetched: [`super::table`]);
//! [`search`] ranks the emoji a query names, [`by_code`] answers the emoji
//! of a whole shortcode.

use agentnet_core::sorting::sort_by_key;
use std::sync::OnceLock;

/// One emoji of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emoji {
    /// The emoji itself.
    pub glyph: &'static str,
    /// Its name ("thumbs up").
    pub name: &'static str,
    /// Its shortcodes without colons, space-separated ("+1 thumbsup").
    pub codes: &'static str,
    /// A few more words it is found by, space-separated.
    pub words: &'static str,
    /// The category it is shown under ("Smileys").
    pub category: &'static str,
}

impl Emoji {
    /// Its shortcodes, without colons.
    pub fn shortcodes(&self) -> impl Iterator<Item = &'static str> {
        self.codes.split(' ').filter(|c| !c.is_empty())
    }

    /// The shortcode it is named by (the first; its name when it has none).
    pub fn code(&self) -> &'static str {
        self.shortcodes().next().unwrap_or(self.name)
    }
}

/// Parses the table's text (lines that do not parse are left out).
fn parse(text: &'static str) -> Vec<Emoji> {
    let mut category = "";
    let mut all = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            category = name;
            continue;
        }
        let mut fields = line.split(';');
        if let (Some(glyph), Some(name), Some(codes), words) =
            (fields.next(), fields.next(), fields.next(), fields.next())
            && !glyph.is_empty()
        {
            all.push(Emoji {
                glyph,
                name,
                codes,
                words: words.unwrap_or(""),
                category,
            });
        }
    }
    all
}

/// Every emoji of the table, in its order (by category); none until the
/// table is here ([`super::table::load`]).
pub fn all() -> &'static [Emoji] {
    static ALL: OnceLock<Vec<Emoji>> = OnceLock::new();
    match super::table::text() {
        Some(table) => ALL.get_or_init(|| parse(table)),
        None => &[],
    }
}

/// The categories, in the table's order.
pub fn categories() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for emoji in all() {
        if names.last() != Some(&emoji.category) {
            names.push(emoji.category);
        }
    }
    names
}

/// The emoji `glyph` is, if the table has it.
pub fn by_glyph(glyph: &str) -> Option<&'static Emoji> {
    all().iter().find(|e| e.glyph == glyph)
}

/// The emoji whose shortcode is `code` (without colons; any case).
pub fn by_code(code: &str) -> Option<&'static Emoji> {
    let code = code.to_lowercase();
    all().iter().find(|e| e.shortcodes().any(|c| c == code))
}

/// How well `term` names `emoji`: lower is better; `None` when it does not.
fn rank(emoji: &Emoji, term: &str) -> Option<u8> {
    if emoji.shortcodes().any(|c| c == term) {
        return Some(0);
    }
    if emoji.shortcodes().any(|c| c.starts_with(term)) {
        return Some(1);
    }
    if emoji.name.split(' ').any(|w| w.starts_with(term)) {
        return Some(2);
    }
    if emoji.words.split(' ').any(|w| w.starts_with(term)) {
        return Some(3);
    }
    let inside = emoji.shortcodes().any(|c| c.contains(term)) || emoji.name.contains(term);
    inside.then_some(4)
}

/// The emoji `query` names (each of its words must name them: a shortcode,
/// a word of the name or a keyword starting with it), best first, at most
/// `limit`. An empty query names none.
pub fn search(query: &str, limit: usize) -> Vec<&'static Emoji> {
    let query = query.trim().trim_matches(':').to_lowercase();
    let terms: Vec<&str> = query.split_whitespace().collect();
    if terms.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<(u8, usize, &'static Emoji)> = all()
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let worst = terms
                .iter()
                .map(|t| rank(e, t))
                .try_fold(0, |worst, r| r.map(|r| worst.max(r)))?;
            Some((worst, i, e))
        })
        .collect();
    sort_by_key(&mut found, |(worst, i, _)| (*worst, *i));
    found.into_iter().take(limit).map(|(_, _, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyphs(found: &[&Emoji]) -> Vec<&'static str> {
        found.iter().map(|e| e.glyph).collect()
    }

    #[test]
    fn the_table_parses_whole_with_its_categories() {
        assert!(all().len() > 600, "{} emoji", all().len());
        assert_eq!(
            categories(),
            vec![
                "Smileys",
                "People",
                "Nature",
                "Food",
                "Activities",
                "Travel",
                "Objects",
                "Symbols",
                "Flags"
            ]
        );
        assert!(
            all()
                .iter()
                .all(|e| !e.name.is_empty() && e.shortcodes().next().is_some())
        );
        // The six quick reactions (chat::changes::reactions::OFFERED) are all in it.
        for glyph in ["👍", "❤️", "😄", "🎉", "👀", "✅"] {
            assert!(by_glyph(glyph).is_some(), "{glyph}");
        }
    }

    #[test]
    fn a_whole_shortcode_finds_its_emoji_in_any_case() {
        assert_eq!(by_code("thumbsup").map(|e| e.glyph), Some("👍"));
        assert_eq!(by_code("+1").map(|e| e.glyph), Some("👍"));
        assert_eq!(by_code("Tada").map(|e| e.glyph), Some("🎉"));
        assert_eq!(by_code("heart").map(|e| e.glyph), Some("❤️"));
        assert_eq!(by_code("thumbsu"), None, "only a whole code");
        assert_eq!(by_code(""), None);
    }

    #[test]
    fn search_ranks_shortcodes_then_names_then_keywords() {
        let smile = search("smile", 10);
        assert_eq!(smile[0].glyph, "😄", "the exact code first");
        assert!(glyphs(&smile).contains(&"😀"), "a keyword finds it too");
        assert_eq!(search(":tada:", 1)[0].glyph, "🎉", "colons are ignored");
        assert_eq!(search("THUMBS", 2)[0].glyph, "👍");
        // Every word must name it: "red heart" is the heart, not every red thing.
        assert_eq!(search("red heart", 3)[0].glyph, "❤️");
        assert!(search("zzzz", 10).is_empty());
        assert!(search("  ", 10).is_empty());
        assert_eq!(search("a", 5).len(), 5, "at most the limit");
    }
}
