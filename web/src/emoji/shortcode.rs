//! `:shortcodes:` in what is typed: the code being typed before the caret
//! (for the composer's completion, [`crate::chat::composer::complete`]), and whole
//! codes turned into their emoji — the one just closed before the caret
//! ([`expand_before`]) and all of them when the message is sent
//! ([`expand_all`]), except inside code (between backticks). A code
//! opens with a `:` at the start or after a space or an opening bracket.
//! Pure: positions are byte indices.

use super::find::by_code;

/// The fewest characters after `:` before emoji are offered (as in Slack).
pub const MIN_TYPED: usize = 2;

/// Characters a shortcode may have.
fn in_code(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-')
}

/// True when a code may open after `c`.
fn opens(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | '[' | '"' | '\'')
}

/// True when a code may open after `before` (the text before its `:`).
fn opens_after(before: &str) -> bool {
    before.chars().next_back().is_none_or(opens)
}

/// The code being typed before the caret: where its `:` is and what
/// follows it (at least [`MIN_TYPED`] characters).
pub fn typed_code(text: &str, caret: usize) -> Option<(usize, String)> {
    crate::typed::word_before(text, caret, ':', in_code, opens)
        .filter(|(_, typed)| typed.len() >= MIN_TYPED)
        .map(|(colon, typed)| (colon, typed.to_owned()))
}

/// When a whole known code (`:tada:`) ends at the caret: the text with its
/// emoji in its place, the caret after the emoji, and the emoji.
pub fn expand_before(text: &str, caret: usize) -> Option<(String, usize, &'static str)> {
    let before = text.get(..caret)?.strip_suffix(':')?;
    let (colon, code) = typed_code(before, before.len())?;
    if in_backticks(&text[..colon]) {
        return None;
    }
    let glyph = by_code(&code)?.glyph;
    let head = &text[..colon];
    Some((
        format!("{head}{glyph}{}", &text[caret..]),
        colon + glyph.len(),
        glyph,
    ))
}

/// True when an odd number of backticks precede: the place is inside code.
fn in_backticks(before: &str) -> bool {
    before.matches('`').count() % 2 == 1
}

/// `text` with every whole known code turned into its emoji (not inside code).
pub fn expand_all(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(':') {
        let (head, tail) = rest.split_at(open);
        out.push_str(head);
        let code_len = tail[1..]
            .find(|c: char| !in_code(c))
            .unwrap_or(tail.len() - 1);
        let code = &tail[1..1 + code_len];
        let closed = tail[1 + code_len..].starts_with(':');
        let known = (closed && opens_after(&out) && !in_backticks(&out))
            .then(|| by_code(code))
            .flatten();
        match known {
            Some(emoji) => {
                out.push_str(emoji.glyph);
                rest = &tail[2 + code_len..];
            }
            None => {
                out.push(':');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_typed_after_a_space_or_at_the_start_with_two_characters() {
        assert_eq!(typed_code(":sm", 3), Some((0, "sm".into())));
        assert_eq!(typed_code("nice :thumbs", 12), Some((5, "thumbs".into())));
        assert_eq!(typed_code("(:+1", 4), Some((1, "+1".into())));
        assert_eq!(typed_code(":s", 2), None, "one character is not enough");
        assert_eq!(typed_code("at 10:30", 8), None, "not inside a word");
        assert_eq!(typed_code("https://x", 9), None);
        assert_eq!(typed_code(":smile: ", 8), None, "the caret has moved on");
        assert_eq!(typed_code("é :ta", "é :ta".len()), Some((3, "ta".into())));
    }

    #[test]
    fn a_whole_code_before_the_caret_becomes_its_emoji() {
        let text = "well done :tada: and more";
        let caret = "well done :tada:".len();
        let (out, at, glyph) = expand_before(text, caret).unwrap();
        assert_eq!(glyph, "🎉");
        assert_eq!(out, "well done 🎉 and more");
        assert_eq!(&out[..at], "well done 🎉");
        assert_eq!(expand_before(":nosuchcode:", 12), None);
        assert_eq!(expand_before(":tada", 5), None, "not closed yet");
        assert_eq!(expand_before("`x :tada:", 9), None, "inside code");
    }

    #[test]
    fn sending_turns_every_known_code_into_its_emoji_outside_code() {
        for (typed, sent) in [
            (":thumbsup: ok :+1:", "👍 ok 👍"),
            ("at 10:30:45 :nope: a:tada:", "at 10:30:45 :nope: a:tada:"),
            ("`:tada:` :tada:", "`:tada:` 🎉"),
            ("::tada:: :", "::tada:: :"),
            ("(:heart:)", "(❤️)"),
            ("no codes", "no codes"),
        ] {
            assert_eq!(expand_all(typed), sent, "{typed}");
        }
    }
}
