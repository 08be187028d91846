//! Messages as Markdown (CommonMark, with ~~strikethrough~~), rendered
//! safely by `pulldown-cmark`: raw HTML is never passed through (it shows
//! as the text it is), links keep only `http`, `https` and `mailto`
//! addresses and open apart (`rel="noopener noreferrer"`, a new tab),
//! images become links (no request leaves the page for a message), headings
//! are strong paragraphs (a message has no place in the page's outline),
//! a line break is a line break as in every chat, and valid `@address`
//! mentions are marked. A document's preview ([`document_to_html`]) is the
//! same safe rendering with a document's conventions: tables, headings
//! stay headings (from `<h3>` down, under the page's own) and a line break in a
//! paragraph is a space.

use super::messages::mentions_in;
use pulldown_cmark::{CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd, html};

/// The HTML of a message written in Markdown: safe to set as inner HTML.
pub fn to_html(text: &str) -> String {
    render(text, false)
}

/// The HTML of a Markdown document's preview: safe to set as inner HTML.
pub fn document_to_html(text: &str) -> String {
    render(text, true)
}

/// The safe HTML of `text`, with a document's conventions or a message's.
fn render(text: &str, document: bool) -> String {
    let mut links: Vec<bool> = Vec::new();
    let options = if document {
        Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES
    } else {
        Options::ENABLE_STRIKETHROUGH
    };
    let events =
        Parser::new_ext(text, options).flat_map(move |event| safe(event, &mut links, document));
    let mut out = String::with_capacity(text.len() + 32);
    html::push_html(&mut out, events);
    // Every `<a` is the renderer's own: raw HTML came through escaped.
    out.replace(
        "<a href=",
        "<a rel=\"noopener noreferrer\" target=\"_blank\" href=",
    )
}

/// True for a link address a message may carry.
fn allowed(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    ["https://", "http://", "mailto:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
}

/// One parser event as the safe events it becomes; `links` remembers, for
/// each open link or image, whether it was kept (its end goes with it).
fn safe<'a>(event: Event<'a>, links: &mut Vec<bool>, document: bool) -> Vec<Event<'a>> {
    let link = |dest_url: CowStr<'a>, title: CowStr<'a>| {
        Event::Start(Tag::Link {
            link_type: LinkType::Inline,
            dest_url,
            title,
            id: CowStr::Borrowed(""),
        })
    };
    match event {
        Event::Html(raw) | Event::InlineHtml(raw) => vec![Event::Text(raw)],
        Event::Start(Tag::Link {
            dest_url, title, ..
        })
        | Event::Start(Tag::Image {
            dest_url, title, ..
        }) => {
            let keep = allowed(&dest_url);
            links.push(keep);
            if keep {
                vec![link(dest_url, title)]
            } else {
                Vec::new()
            }
        }
        Event::End(TagEnd::Link | TagEnd::Image) => {
            if links.pop().unwrap_or(false) {
                vec![Event::End(TagEnd::Link)]
            } else {
                Vec::new()
            }
        }
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) if document => vec![Event::Start(Tag::Heading {
            level: below_page(level),
            id,
            classes,
            attrs,
        })],
        Event::End(TagEnd::Heading(level)) if document => {
            vec![Event::End(TagEnd::Heading(below_page(level)))]
        }
        Event::SoftBreak if document => vec![Event::SoftBreak],
        Event::Start(Tag::Heading { .. }) => {
            vec![Event::Start(Tag::Paragraph), Event::Start(Tag::Strong)]
        }
        Event::End(TagEnd::Heading(_)) => {
            vec![Event::End(TagEnd::Strong), Event::End(TagEnd::Paragraph)]
        }
        Event::SoftBreak => vec![Event::HardBreak],
        Event::Text(text) => marked(text),
        other => vec![other],
    }
}

/// A document's heading level under the page's own `<h2>`: `#` is `<h3>`,
/// and so on down to `<h6>`.
fn below_page(level: HeadingLevel) -> HeadingLevel {
    match level {
        HeadingLevel::H1 => HeadingLevel::H3,
        HeadingLevel::H2 => HeadingLevel::H4,
        HeadingLevel::H3 => HeadingLevel::H5,
        _ => HeadingLevel::H6,
    }
}

/// A text with its valid `@address` mentions marked (the mark is ours; the
/// words go through as text, escaped).
fn marked(text: CowStr<'_>) -> Vec<Event<'_>> {
    if !text.contains('@') {
        return vec![Event::Text(text)];
    }
    let mut events = Vec::new();
    let mut plain = String::new();
    for piece in text.split_inclusive(char::is_whitespace) {
        let word = piece.trim_end();
        if word.starts_with('@') && !mentions_in(word).is_empty() {
            if !plain.is_empty() {
                events.push(Event::Text(std::mem::take(&mut plain).into()));
            }
            events.push(Event::InlineHtml("<mark class=\"mention\">".into()));
            events.push(Event::Text(word.to_owned().into()));
            events.push(Event::InlineHtml("</mark>".into()));
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
    use super::*;

    #[test]
    fn common_mark_renders() {
        assert_eq!(
            to_html("**bold** and *em* and `code`"),
            "<p><strong>bold</strong> and <em>em</em> and <code>code</code></p>\n"
        );
        let list = to_html("- one\n- two");
        assert!(
            list.contains("<ul>") && list.contains("<li>one</li>"),
            "{list}"
        );
        assert!(to_html("> quoted").contains("<blockquote>"));
        let block = to_html("```\nlet x = 1 < 2;\n```");
        assert!(block.contains("<pre><code>let x = 1 &lt; 2;"), "{block}");
        assert!(to_html("~~gone~~").contains("<del>gone</del>"));
    }

    #[test]
    fn raw_html_never_passes() {
        let html = to_html("<script>alert(1)</script>\n\nhi <b onclick=x>there</b>");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<b "), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn links_open_apart_and_only_safe_ones_stay() {
        let html = to_html("[site](https://example.com) and <https://a.example/x>");
        assert_eq!(
            html.matches("rel=\"noopener noreferrer\"").count(),
            2,
            "{html}"
        );
        let html = to_html("[bad](javascript:alert(1)) and [data](data:text/html,x)");
        assert!(
            !html.contains("javascript:") && !html.contains("<a"),
            "{html}"
        );
        assert!(html.contains("bad"), "the words stay: {html}");
        let html = to_html("![pixel](https://tracker.example/p.png)");
        assert!(!html.contains("<img"), "{html}");
        assert!(
            html.contains("href=\"https://tracker.example/p.png\""),
            "{html}"
        );
    }

    #[test]
    fn documents_keep_their_headings_under_the_page_and_stay_safe() {
        let html =
            document_to_html("# Title\n\nline one\nline two\n\n## Part\n\n<script>x</script>");
        assert!(html.contains("<h3>Title</h3>"), "{html}");
        assert!(html.contains("<h4>Part</h4>"), "{html}");
        assert!(html.contains("<p>line one\nline two</p>"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        let table = document_to_html("| a | b |\n|---|---|\n| 1 | 2 |");
        assert!(
            table.contains("<table>") && table.contains("<td>1</td>"),
            "{table}"
        );
        assert!(!document_to_html("[x](javascript:y)").contains("<a"));
    }

    #[test]
    fn chat_conventions_hold() {
        assert_eq!(
            to_html("line one\nline two"),
            "<p>line one<br />\nline two</p>\n"
        );
        assert_eq!(to_html("# Big"), "<p><strong>Big</strong></p>\n");
        let html = to_html("hi @agent:helper, and @ alone");
        assert!(
            html.contains("<mark class=\"mention\">@agent:helper,</mark>"),
            "{html}"
        );
        assert!(html.contains(" and @ alone"), "{html}");
        let html = to_html("`@agent:helper` in code");
        assert!(!html.contains("<mark"), "{html}");
    }
}
