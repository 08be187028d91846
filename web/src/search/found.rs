//! What a search found, as the results list shows it: each message once (by
//! event id; what this browser holds wins over the same message from the
//! network's history), newest first, with an excerpt around the first match
//! and the places its terms appear, to mark.

use crate::chat::messages::{Line, LineState, is_conversation_event, line_from};
use agentnet_core::model::search::SearchText;
use agentnet_core::sorting::sort_by_key;
use agentnet_core::{Event, EventId};
use std::collections::BTreeMap;

/// The most results kept for one search.
pub const MAX_RESULTS: usize = 200;

/// Characters an excerpt shows at most.
const EXCERPT_CHARS: usize = 180;

/// Characters of context an excerpt keeps before the first match.
const LEAD_CHARS: usize = 40;

/// Where a result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// This browser's replica held it.
    Replica,
    /// Only the network's history (`network.events.query`) had it.
    Network,
}

impl Origin {
    /// Its name in the page's markup (`data-origin`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Replica => "replica",
            Self::Network => "network",
        }
    }
}

/// One message a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The message as the conversation shows it.
    pub line: Line,
    /// Where it came from.
    pub origin: Origin,
    /// Its place in the network's log, when known (a jump reads history down to it).
    pub seq: Option<u64>,
}

/// The results of one search, each message once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    by_id: BTreeMap<EventId, Found>,
}

impl Results {
    /// Adds the messages among `events` (each with its place in the log,
    /// when known) that match `search`, seen by `me`; a message already
    /// there stays as it was. True when any was added.
    pub fn add<'a>(
        &mut self,
        search: &SearchText,
        events: impl IntoIterator<Item = (Option<u64>, &'a Event)>,
        origin: Origin,
        me: &str,
    ) -> bool {
        let mut added = false;
        for (seq, event) in events {
            if self.by_id.len() >= MAX_RESULTS {
                break;
            }
            if self.by_id.contains_key(&event.id)
                || !is_conversation_event(event)
                || !search.matches(event)
            {
                continue;
            }
            let state = if event.source.to_string() == me {
                LineState::Sent
            } else {
                LineState::Received
            };
            let line = line_from(event, state, me);
            self.by_id.insert(event.id, Found { line, origin, seq });
            added = true;
        }
        added
    }

    /// The results, newest first.
    pub fn newest_first(&self) -> Vec<Found> {
        let mut all: Vec<Found> = self.by_id.values().cloned().collect();
        sort_by_key(&mut all, |f| std::cmp::Reverse((f.line.at, f.line.id)));
        all
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}

/// A piece of an excerpt: plain text, or text a term matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text as it is.
    Plain(String),
    /// Text a term matched (shown marked).
    Match(String),
}

/// What a Markdown message reads as, without its marks (`**ready**` is
/// "ready", a link its text): what a result shows. Raw HTML stays text.
pub fn plain_text(markdown: &str) -> String {
    use pulldown_cmark::{Event as Md, Parser, TagEnd};
    let mut out = String::new();
    for event in Parser::new(markdown) {
        match event {
            Md::Text(text) | Md::Code(text) | Md::Html(text) | Md::InlineHtml(text) => {
                out.push_str(&text);
            }
            Md::SoftBreak | Md::HardBreak => out.push(' '),
            // The end of a block (a paragraph, an item) parts words; inline marks do not.
            Md::End(end)
                if !matches!(
                    end,
                    TagEnd::Emphasis
                        | TagEnd::Strong
                        | TagEnd::Strikethrough
                        | TagEnd::Link
                        | TagEnd::Image
                ) =>
            {
                out.push(' ');
            }
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The part of `text` to show (around the first match, at most
/// [`EXCERPT_CHARS`] characters, "…" where cut), split into pieces with
/// the matches marked. Lines are joined by spaces.
pub fn excerpt(text: &str, search: &SearchText) -> Vec<Piece> {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let first = search.highlights(&flat).first().map_or(0, |r| r.0);
    let chars_before = flat[..first].chars().count();
    let skip = chars_before.saturating_sub(LEAD_CHARS);
    let mut shown: String = flat.chars().skip(skip).take(EXCERPT_CHARS).collect();
    let cut_end = flat.chars().count() > skip + EXCERPT_CHARS;
    if skip > 0 {
        shown.insert(0, '…');
    }
    if cut_end {
        shown.push('…');
    }
    let mut pieces = Vec::new();
    let mut at = 0;
    for (start, end) in search.highlights(&shown) {
        if start > at {
            pieces.push(Piece::Plain(shown[at..start].to_owned()));
        }
        pieces.push(Piece::Match(shown[start..end].to_owned()));
        at = end;
    }
    if at < shown.len() {
        pieces.push(Piece::Plain(shown[at..].to_owned()));
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentnet_core::Limits;
    use serde_json::json;

    fn search(text: &str) -> SearchText {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    fn message(n: u64, at: u64, content: &str) -> Event {
        Event::from_value(
            json!({
                "id": EventId::from_parts(at, n.into()).to_string(),
                "type": "workspace.message.posted", "source": "agent:a",
                "target": "channel/general", "payload": {"content": content}, "timestamp": at,
            }),
            &Limits::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn results_are_each_message_once_newest_first_and_the_replica_wins() {
        let query = search("deploy");
        let (old, new, other) = (
            message(1, 10, "Deploy today"),
            message(2, 20, "deploy again"),
            message(3, 30, "lunch"),
        );
        let mut results = Results::default();
        assert!(results.add(
            &query,
            [(Some(1), &old), (Some(3), &other)],
            Origin::Replica,
            "human:me"
        ));
        assert!(results.add(
            &query,
            [(Some(1), &old), (Some(7), &new)],
            Origin::Network,
            "human:me"
        ));
        assert!(!results.add(&query, [(None, &new)], Origin::Replica, "human:me"));
        let found = results.newest_first();
        let ids: Vec<EventId> = found.iter().map(|f| f.line.id).collect();
        assert_eq!(ids, [new.id, old.id]);
        assert_eq!(
            found[1].origin,
            Origin::Replica,
            "held here: not counted twice"
        );
        assert_eq!(found[0].origin, Origin::Network);
        assert_eq!(found[0].seq, Some(7), "where the log has it, for the jump");
        assert_eq!(found[1].line.conversation, "channel/general");
    }

    #[test]
    fn a_result_reads_markdown_as_its_text() {
        assert_eq!(
            plain_text("the **dep**loy [list](https://x.test) is `ready`\n\n* one\n* two"),
            "the deploy list is ready one two"
        );
        assert_eq!(plain_text("<b>bold</b>"), "<b>bold</b>", "HTML stays text");
    }

    #[test]
    fn an_excerpt_marks_every_match_and_is_cut_around_the_first() {
        assert_eq!(
            excerpt("Deploy on\nFRIDAY", &search("friday dep")),
            [
                Piece::Match("Dep".into()),
                Piece::Plain("loy on ".into()),
                Piece::Match("FRIDAY".into()),
            ]
        );
        let long = format!("{} needle {}", "a ".repeat(200), "b ".repeat(200));
        let pieces = excerpt(&long, &search("needle"));
        let shown: String = pieces
            .iter()
            .map(|p| match p {
                Piece::Plain(t) | Piece::Match(t) => t.as_str(),
            })
            .collect();
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert!(shown.chars().count() <= EXCERPT_CHARS + 2);
        assert!(pieces.contains(&Piece::Match("needle".into())));
        assert_eq!(
            excerpt("<b>x</b>", &search("x")),
            [
                Piece::Plain("<b>".into()),
                Piece::Match("x".into()),
                Piece::Plain("</b>".into())
            ],
            "markup stays text"
        );
    }
}
