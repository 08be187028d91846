//! A message's running text as the renderer draws it ([`crate::chat::text::markdown`]):
//! valid `@address` mentions marked (shown as `@Name` while
//! [`with_names`] gives names), and bare `https://…` addresses as links.

use crate::chat::messages::mentions_in;
use pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};
use std::cell::RefCell;
use std::collections::HashMap;

thread_local! {
    /// The names mentions are shown by, while [`with_names`] renders.
    static NAMES: RefCell<HashMap<String, String>> = RefCell::default();
}

/// Runs `render` with mentions shown by `names` (address → display name).
pub(crate) fn with_names(
    names: &HashMap<String, String>,
    render: impl FnOnce() -> String,
) -> String {
    NAMES.with(|n| n.replace(names.clone()));
    let html = render();
    NAMES.with(|n| n.borrow_mut().clear());
    html
}

/// Punctuation that ends a sentence or clause after a mention or a link, not part of it
/// (what `mentions_in` trims too).
const AFTER_A_WORD: [char; 7] = ['.', ',', ')', '!', '?', ';', ':'];

/// A text with its valid `@address` mentions marked (the mark is ours; the
/// words go through as text, escaped).
pub(crate) fn marked(text: CowStr<'_>, autolink: bool) -> Vec<Event<'_>> {
    if !(text.contains('@') || (autolink && text.contains("://"))) {
        return vec![Event::Text(text)];
    }
    let mut events = Vec::new();
    let mut plain = String::new();
    for piece in text.split_inclusive(char::is_whitespace) {
        let word = piece.trim_end();
        let url = word.trim_end_matches(AFTER_A_WORD);
        if autolink && (url.starts_with("https://") || url.starts_with("http://")) && url.len() > 8
        {
            if !plain.is_empty() {
                events.push(Event::Text(std::mem::take(&mut plain).into()));
            }
            events.push(Event::Start(Tag::Link {
                link_type: LinkType::Autolink,
                dest_url: url.to_owned().into(),
                title: "".into(),
                id: "".into(),
            }));
            events.push(Event::Text(url.to_owned().into()));
            events.push(Event::End(TagEnd::Link));
            plain.push_str(&piece[url.len()..]);
            continue;
        }
        let mentioned = if word.starts_with('@') {
            mentions_in(word).pop()
        } else {
            None
        };
        if let Some(address) = mentioned {
            if !plain.is_empty() {
                events.push(Event::Text(std::mem::take(&mut plain).into()));
            }
            let name = NAMES.with(|n| n.borrow().get(&address).cloned());
            // The mark holds the mention alone: punctuation after it stays text, as in Slack.
            let (mention, punctuation) = word.split_at(word.trim_end_matches(AFTER_A_WORD).len());
            let shown = match name {
                Some(name) => format!("@{name}"),
                None => mention.to_owned(),
            };
            let title: String = address
                .chars()
                .filter(|c| !matches!(c, '"' | '<' | '>' | '&'))
                .collect();
            events.push(Event::InlineHtml(
                format!("<mark class=\"mention\" title=\"{title}\">").into(),
            ));
            events.push(Event::Text(shown.into()));
            events.push(Event::InlineHtml("</mark>".into()));
            plain.push_str(punctuation);
            plain.push_str(&piece[word.len()..]);
        } else {
            plain.push_str(piece);
        }
    }
    if !plain.is_empty() {
        events.push(Event::Text(plain.into()));
    }
    events
}

#[cfg(test)]
mod tests {
    use crate::chat::text::markdown::{to_html, to_html_named};

    #[test]
    fn a_mention_shows_the_name_with_the_address_in_its_title() {
        let names =
            std::collections::HashMap::from([("human:guest-1".to_owned(), "Ada <b>".to_owned())]);
        let html = to_html_named("hi @human:guest-1, and @agent:x", &names);
        assert!(
            html.contains(
                "<mark class=\"mention\" title=\"human:guest-1\">@Ada &lt;b&gt;</mark>, and"
            ),
            "{html}"
        );
        assert!(html.contains("title=\"agent:x\">@agent:x</mark>"), "{html}");
        // Unnamed, the punctuation after the address stays outside the mark as well.
        assert!(to_html("ask @agent:x.").contains(">@agent:x</mark>."));
        // Outside a named rendering, names are not used.
        assert!(to_html("@human:guest-1").contains(">@human:guest-1</mark>"));
    }

    #[test]
    fn bare_urls_are_links_but_not_inside_links_or_code() {
        let html = to_html("see https://example.com/a?b=1, then `https://no.example`");
        assert!(
            html.contains("<a rel=\"noopener noreferrer\" target=\"_blank\" href=\"https://example.com/a?b=1\">https://example.com/a?b=1</a>,"),
            "{html}"
        );
        assert!(!html.contains("href=\"https://no.example"), "{html}");
        let linked = to_html("[https://x.example](https://y.example)");
        assert_eq!(linked.matches("<a ").count(), 1, "{linked}");
        assert!(!to_html("javascript://x").contains("<a"));
    }
}
