//! Isolating what people wrote from the page's own words: a name,
//! title, excerpt or reason put into a sentence goes through [`isolate`], so
//! a right-to-left override (U+202E) or right-to-left letters in it reorder
//! only itself, never the words around it ("No messages in # … yet").
//!
//! One mechanism everywhere (text, attributes, the tab's title,
//! notifications): Unicode's first-strong isolate (U+2068) … pop directional
//! isolate (U+2069) around the inserted text, which works where an element
//! (`<bdi>`) cannot go.

/// First strong isolate: the text after it takes the direction of its first strong letter.
const FSI: char = '\u{2068}';
/// Pop directional isolate: ends the isolate and anything opened inside it.
const PDI: char = '\u{2069}';

/// True for a character that can move text around it: a directional
/// control, or a letter or digit of a right-to-left script.
fn moves_text(c: char) -> bool {
    matches!(c,
        '\u{200E}' | '\u{200F}' | '\u{061C}' // marks
        | '\u{202A}'..='\u{202E}' // embeddings and overrides
        | '\u{2066}'..='\u{2069}' // isolates
        | '\u{0590}'..='\u{08FF}' // Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic
        | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}' // presentation forms
        | '\u{10800}'..='\u{10FFF}' | '\u{1E800}'..='\u{1EFFF}')
}

/// True when nothing in `text` can move the words around it: every
/// character that moves text lies inside an isolate that `text` closes
/// (a title isolated once is not isolated again in a sentence).
fn contained(text: &str) -> bool {
    let mut open = 0usize;
    for c in text.chars() {
        match c {
            '\u{2066}'..='\u{2068}' => open += 1,
            PDI if open > 0 => open -= 1,
            c if open == 0 && moves_text(c) => return false,
            _ => {}
        }
    }
    open == 0
}

/// `text` isolated from the sentence it goes into. Text of left-to-right and
/// neutral characters only shows the same isolated or not in the page's
/// left-to-right sentences, so it is left as it is (what is copied and what
/// assistive technology reads stay plain), as is text already isolated.
pub fn isolate(text: &str) -> String {
    if contained(text) {
        text.to_owned()
    } else {
        format!("{FSI}{text}{PDI}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_override_stays_inside_what_was_written() {
        let title = "# evil\u{202E} yet";
        let sentence = format!("No messages in {} yet", isolate(title));
        assert_eq!(
            sentence,
            "No messages in \u{2068}# evil\u{202E} yet\u{2069} yet"
        );
        assert!(isolate("שלום").starts_with(FSI));
        assert!(isolate("مرحبا").ends_with(PDI));
        assert_eq!(isolate("# plan · closed"), "# plan · closed");
        assert_eq!(isolate("Zoë 😀 42"), "Zoë 😀 42");
        // Isolated once, it is not isolated again; an unclosed isolate is.
        let title = format!("# {} · closed", isolate("\u{202E}evil"));
        assert_eq!(isolate(&title), title);
        assert!(isolate("\u{2068}open").starts_with(FSI));
        assert!(isolate("\u{2069}\u{202E}x").starts_with(FSI));
    }
}
