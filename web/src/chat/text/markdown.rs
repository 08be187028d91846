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

use pulldown_cmark::{CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd, html};

/// How much of a text is rendered as Markdown: bounded, so one hostile
/// message cannot hold the page (`"- "` × 75,000 nests 75,000 lists).
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Bytes parsed as Markdown (up to a line's end); the rest shows as plain text.
    bytes: usize,
    /// Parser events rendered; past them, the rest shows as plain text.
    events: usize,
    /// Lists, items and quotes nested in each other; deeper ones are
    /// flattened (their words stay, in the deepest one drawn).
    depth: usize,
}

/// A message's budget: far beyond any message written by hand.
const MESSAGE: Budget = Budget {
    bytes: 32 * 1024,
    events: 4_000,
    depth: 12,
};

/// A document preview's budget: a long document renders whole.
const DOCUMENT: Budget = Budget {
    bytes: 256 * 1024,
    events: 40_000,
    depth: 16,
};

/// The HTML of a message written in Markdown: safe to set as inner HTML.
pub fn to_html(text: &str) -> String {
    render(text, false, MESSAGE).0
}

/// [`to_html`], with each `@address` mention shown as `@Name` when `names`
/// gives the address one (the address stays in the mark's title).
pub fn to_html_named(text: &str, names: &std::collections::HashMap<String, String>) -> String {
    crate::chat::text::inline::with_names(names, || to_html(text))
}

/// The HTML of a Markdown document's preview: safe to set as inner HTML.
pub fn document_to_html(text: &str) -> String {
    render(text, true, DOCUMENT).0
}

/// Where the Markdown part of `text` ends: all of it within `limit` bytes,
/// else after the last line that ends within them (a char boundary when none does).
fn markdown_end(text: &str, limit: usize) -> usize {
    if text.len() <= limit {
        return text.len();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].rfind('\n').map_or(end, |n| n + 1)
}

/// The safe HTML of `text`, with a document's conventions or a message's,
/// within `budget`; and how many parser events it read.
fn render(text: &str, document: bool, budget: Budget) -> (String, usize) {
    let mut links: Vec<bool> = Vec::new();
    let options = if document {
        Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES
    } else {
        Options::ENABLE_STRIKETHROUGH
    };
    let end = markdown_end(text, budget.bytes);
    // Which lists, items and quotes open are drawn, and how many are.
    let mut containers: Vec<bool> = Vec::new();
    let mut depth = 0;
    // The tags open in the output, closed when the budget runs out.
    let mut open: Vec<TagEnd> = Vec::new();
    let mut events: Vec<Event<'_>> = Vec::new();
    // How far the source has been rendered, and how many events that took.
    let mut covered = 0;
    let mut read = 0;
    let mut spent = false;
    for (event, range) in Parser::new_ext(&text[..end], options).into_offset_iter() {
        if read == budget.events {
            spent = true;
            break;
        }
        read += 1;
        covered = covered.max(match event {
            Event::Start(_) => range.start,
            _ => range.end,
        });
        let event = match event {
            Event::Start(tag @ (Tag::List(_) | Tag::Item | Tag::BlockQuote(_))) => {
                let draw = depth < budget.depth;
                containers.push(draw);
                if !draw {
                    // A flattened item's words stay apart from the one before.
                    if matches!(tag, Tag::Item) {
                        events.push(Event::Text(" ".into()));
                    }
                    continue;
                }
                depth += 1;
                Event::Start(tag)
            }
            Event::End(tag @ (TagEnd::List(_) | TagEnd::Item | TagEnd::BlockQuote(_))) => {
                if !containers.pop().unwrap_or(false) {
                    continue;
                }
                depth -= 1;
                Event::End(tag)
            }
            other => other,
        };
        for safe_event in safe(event, &mut links, document) {
            match &safe_event {
                Event::Start(tag) => open.push(tag.to_end()),
                Event::End(_) => {
                    open.pop();
                }
                _ => {}
            }
            events.push(safe_event);
        }
    }
    events.extend(open.into_iter().rev().map(Event::End));
    let rest = if spent { covered } else { end };
    if rest < text.len() {
        // What the budget left out, as the text it is (escaped by the writer).
        events.push(Event::Html("<p class=\"plain-rest\">".into()));
        events.push(Event::Text(text[rest..].into()));
        events.push(Event::Html("</p>\n".into()));
    }
    let mut out = String::with_capacity(text.len() + 32);
    html::push_html(&mut out, events.into_iter());
    // Every `<a` and `style="…">` is the renderer's own: raw HTML came
    // through escaped. Table alignment goes by class (the page's CSP allows no
    // inline styles).
    let out = out
        .replace(
            "<a href=",
            "<a rel=\"noopener noreferrer\" target=\"_blank\" href=",
        )
        .replace(" style=\"text-align: left\">", " class=\"align-left\">")
        .replace(" style=\"text-align: center\">", " class=\"align-center\">")
        .replace(" style=\"text-align: right\">", " class=\"align-right\">");
    (out, read)
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
        // Outside a link, a bare `https://…` is one.
        Event::Text(text) => crate::chat::text::inline::marked(text, links.is_empty()),
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
            html.contains("<mark class=\"mention\" title=\"agent:helper\">@agent:helper</mark>,"),
            "{html}"
        );
        assert!(html.contains(" and @ alone"), "{html}");
        let html = to_html("`@agent:helper` in code");
        assert!(!html.contains("<mark"), "{html}");
    }

    /// The most elements open inside each other in `html`, and how many there are.
    fn shape(html: &str) -> (usize, usize) {
        let (mut depth, mut deepest, mut elements) = (0usize, 0, 0);
        for tag in html.split('<').skip(1) {
            if tag.starts_with('/') {
                depth = depth.saturating_sub(1);
            } else if !tag.starts_with("br") {
                depth += 1;
                elements += 1;
                deepest = deepest.max(depth);
            }
        }
        (deepest, elements)
    }

    #[test]
    fn a_hostile_message_costs_a_bounded_rendering() {
        let nested = format!("{}x", "- ".repeat(75_000));
        let (html, read) = render(&nested, false, MESSAGE);
        assert!(read <= MESSAGE.events, "{read} events read");
        let (deepest, elements) = shape(&html);
        assert!(deepest <= 2 * MESSAGE.depth + 2, "{deepest} elements deep");
        assert!(elements <= MESSAGE.events + 2, "{elements} elements");
        assert!(
            html.ends_with("- - x</p>\n"),
            "the rest shows as text: …{}",
            &html[html.len() - 40..]
        );
        let quotes = format!("{}x", "> ".repeat(50_000));
        let (html, read) = render(&quotes, false, MESSAGE);
        assert!(read <= MESSAGE.events);
        assert!(shape(&html).0 <= MESSAGE.depth + 2, "{}", shape(&html).0);
        // Many small blocks: the first ones render, the rest is text, every word kept.
        let lines: String = (0..20_000).map(|n| format!("*w{n}*\n\n")).collect();
        let (html, read) = render(&lines, false, MESSAGE);
        assert!(read <= MESSAGE.events);
        assert!(shape(&html).1 <= MESSAGE.events + 2);
        assert!(html.contains("<em>w0</em>") && html.contains("*w19999*"));
        // A long text past the byte budget: its rest, plain.
        let long = format!("**start**\n{}", "word ".repeat(20_000));
        let html = to_html(&long);
        assert!(
            html.starts_with("<p><strong>start</strong>"),
            "{}",
            &html[..40]
        );
        assert_eq!(html.matches("word").count(), 20_000);
    }

    #[test]
    fn deep_lists_flatten_below_the_budget_and_keep_their_words() {
        let html = to_html("- a\n  - b\n    - c");
        assert_eq!(html.matches("<ul>").count(), 3, "{html}");
        let deep: String = (0..20)
            .map(|n| format!("{}- level{n}\n", "  ".repeat(n)))
            .collect();
        let html = to_html(&deep);
        assert_eq!(html.matches("<ul>").count(), MESSAGE.depth / 2, "{html}");
        assert!(html.contains("level19"), "{html}");
        assert_eq!(html.matches("<ul>").count(), html.matches("</ul>").count());
    }

    #[test]
    fn table_alignment_goes_by_class() {
        let html = document_to_html("| a | b |\n|:--|--:|\n| 1 | 2 |");
        assert!(html.contains("<td class=\"align-left\">1</td>"), "{html}");
        assert!(!html.contains("style="), "{html}");
    }
}
