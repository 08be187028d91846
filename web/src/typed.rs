//! What is being typed before the caret: the word after a trigger
//! character (`@` for a mention, `:` for an emoji's shortcode), which the
//! composer's completion offers to finish ([`crate::chat::composer::complete`],
//! [`crate::emoji::shortcode`]). Pure: positions are byte indices.

/// The word typed before `caret` after `trigger`: the trigger's byte index
/// and the word (possibly empty). The word is the characters `in_word`
/// accepts; the trigger opens it at the start of the text or after a
/// character `opens_after` accepts (so `a@b` and `10:30` are no trigger).
pub fn word_before(
    text: &str,
    caret: usize,
    trigger: char,
    in_word: impl Fn(char) -> bool,
    opens_after: impl Fn(char) -> bool,
) -> Option<(usize, &str)> {
    let before = text.get(..caret)?;
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| in_word(*c))
        .last()
        .map_or(caret, |(i, _)| i);
    let at = start.checked_sub(trigger.len_utf8())?;
    if !before.get(at..start)?.starts_with(trigger) {
        return None;
    }
    let preceded = before[..at].chars().next_back();
    preceded
        .is_none_or(opens_after)
        .then(|| (at, &before[start..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_after_its_trigger_at_the_start_or_after_an_opener() {
        let word = |c: char| c.is_alphanumeric();
        let space = char::is_whitespace;
        assert_eq!(word_before("@ab", 3, '@', word, space), Some((0, "ab")));
        assert_eq!(word_before("hi @", 4, '@', word, space), Some((3, "")));
        assert_eq!(word_before("a@b", 3, '@', word, space), None);
        assert_eq!(word_before("hi @ab x", 8, '@', word, space), None);
        assert_eq!(
            word_before("(:ok", 4, ':', word, |c| c == '('),
            Some((1, "ok"))
        );
        assert_eq!(word_before("x", 9, '@', word, space), None);
    }
}
