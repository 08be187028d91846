//! A message's Markdown as the plain text a reader sees (`**bold**` is
//! "bold", a link its text), on one line: what a quote of it shows (a
//! thread's first message above its replies, an excerpt in a label).

use pulldown_cmark::{Event, Parser, TagEnd};

/// The text `markdown` renders to, its blocks and line breaks joined by
/// single spaces.
pub fn plain_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    for event in Parser::new(markdown) {
        match event {
            Event::Text(text) | Event::Code(text) | Event::InlineMath(text) => out.push_str(&text),
            Event::SoftBreak | Event::HardBreak | Event::Rule => out.push(' '),
            Event::End(
                TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::Item | TagEnd::CodeBlock,
            ) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::plain_text;

    #[test]
    fn markdown_reads_as_its_text() {
        for (markdown, text) in [
            ("**ship** it _today_", "ship it today"),
            (
                "see [the plan](https://example.com) and `cargo test`",
                "see the plan and cargo test",
            ),
            ("# Title\n\n- one\n- two", "Title one two"),
            ("a <b>tag</b>", "a tag"),
            ("plain words", "plain words"),
        ] {
            assert_eq!(plain_text(markdown), text, "{markdown}");
        }
    }
}
