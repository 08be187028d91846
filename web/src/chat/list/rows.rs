//! What the message list shows, as rows: the messages of the open
//! conversation or thread (the newest [`window`] of them), a separator
//! before each new day, each message marked when it continues its author's
//! group, with the message it answers and its replies, and a "new" line
//! above the first message others posted after the read marker. Pure, so it is
//! tested without a browser; [`crate::chat::list::view`] renders it.

use crate::chat::list::line::Replies;
use crate::chat::list::time::{local_day, same_group};
use crate::chat::messages::{Line, excerpt_of};
use agentnet_core::EventId;
use std::collections::{HashMap, HashSet};

/// Messages shown at first, and added by each "load earlier".
pub const WINDOW: usize = 50;

/// One row of the list.
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    /// The day of the messages below (local day number, and a time in it).
    Day {
        /// Days since the epoch, local.
        day: i64,
        /// A message time on that day (to name it).
        at: u64,
        /// The message below it: a day can come twice when messages are out
        /// of time order, so its key names the message it heads.
        first: EventId,
    },
    /// The read marker: the messages below came after the person left off.
    New,
    /// A message.
    Message {
        /// The message.
        line: Box<Line>,
        /// An excerpt of the message it answers.
        parent: Option<String>,
        /// It continues the previous message's group.
        grouped: bool,
        /// Its replies.
        replies: Replies,
    },
}

impl Row {
    /// A key that changes when the row must be drawn again.
    pub fn key(&self) -> String {
        match self {
            Row::Day { day, first, .. } => format!("day {day} {first}"),
            Row::New => "new".to_owned(),
            Row::Message {
                line,
                parent,
                grouped,
                replies,
            } => format!(
                "{} {:?} {} {grouped} {} {} {} {}",
                line.id,
                line.state,
                parent.is_some(),
                replies.count,
                replies.last_at,
                line.deleted,
                // An edit draws the message again.
                if line.edited {
                    content_hash(&line.content)
                } else {
                    0
                },
            ),
        }
    }
}

fn content_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// Where the read marker goes in a view: after `at`, above the first
/// message someone other than `me` posted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marker<'a> {
    /// The newest message the person had seen.
    pub at: u64,
    /// The person.
    pub me: &'a str,
}

/// The lines of the thread that starts at `root`: it and every reply to a line in it.
pub fn thread_of(lines: &[Line], root: EventId) -> Vec<&Line> {
    let mut ids = vec![root];
    let mut thread = Vec::new();
    for line in lines {
        if line.id == root || line.in_reply_to.is_some_and(|p| ids.contains(&p)) {
            ids.push(line.id);
            thread.push(line);
        }
    }
    thread
}

/// The messages `conversation` shows, oldest first: its own, but thread
/// replies whose parent is in it too (those stay in their thread). A reply
/// to a message of another conversation — an agent answering a channel post
/// in a direct message — has no thread here, so it shows in the conversation.
pub fn conversation_lines<'a>(
    all: &'a [Line],
    conversation: &'a str,
) -> impl DoubleEndedIterator<Item = &'a Line> + 'a {
    let here: HashSet<EventId> = all
        .iter()
        .filter(|l| l.conversation == conversation)
        .map(|l| l.id)
        .collect();
    all.iter().filter(move |l| {
        l.conversation == conversation
            && !(l.thread_only && l.in_reply_to.is_some_and(|p| here.contains(&p)))
    })
}

/// The newest `window` of `shown`, as rows: day separators, groups, the
/// message each answers (but the thread's `root`, in a thread view) and its
/// replies (counted over `all`), and the read `marker`'s "new" line.
pub fn rows(
    all: &[Line],
    shown: &[&Line],
    window: usize,
    root: Option<EventId>,
    offset_ms: i64,
    marker: Option<Marker<'_>>,
) -> Vec<Row> {
    let mut replies: HashMap<EventId, Replies> = HashMap::new();
    for line in all {
        if let Some(parent) = line.in_reply_to {
            let r = replies.entry(parent).or_default();
            r.count += 1;
            r.last_at = r.last_at.max(line.at);
        }
    }
    let start = shown.len().saturating_sub(window);
    let mut out = Vec::with_capacity(window + 4);
    let mut previous: Option<&Line> = None;
    let mut marked = false;
    // Each message once (a keyed list draws nothing after a repeated key).
    let mut drawn: HashSet<EventId> = HashSet::with_capacity(window);
    for line in &shown[start..] {
        if !drawn.insert(line.id) {
            continue;
        }
        let day = local_day(line.at, offset_ms);
        if previous.is_none_or(|p| local_day(p.at, offset_ms) != day) {
            out.push(Row::Day {
                day,
                at: line.at,
                first: line.id,
            });
        }
        let new = !marked
            && marker.is_some_and(|m| line.at > m.at && line.source != m.me && !line.status);
        if new {
            out.push(Row::New);
            marked = true;
        }
        let parent = line.in_reply_to.filter(|p| Some(*p) != root).and_then(|p| {
            all.iter()
                .find(|x| x.id == p)
                .map(|x| excerpt_of(&x.content))
        });
        let grouped = !new
            && previous.is_some_and(|p| {
                p.source == line.source
                    && !p.status
                    && !line.status
                    && parent.is_none()
                    && same_group(p.at, line.at, offset_ms)
            });
        out.push(Row::Message {
            line: Box::new((*line).clone()),
            parent,
            grouped,
            replies: replies.get(&line.id).copied().unwrap_or_default(),
        });
        previous = Some(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::messages::{LineState, line_from};
    use agentnet_core::{Event, Limits};
    use serde_json::json;

    const DAY: u64 = 86_400_000;
    const T0: u64 = 1_800_000_000_000 - 1_800_000_000_000 % DAY + 9 * 3_600_000;

    fn line(n: u64, source: &str, at: u64, parent: Option<u64>) -> Line {
        let mut value = json!({
            "id": EventId::from_parts(at, n.into()).to_string(), "type": agentnet_core::vocabulary::event_types::MESSAGE_POSTED,
            "source": source, "target": "agent:broadcast", "payload": {"content": format!("m{n}")},
            "timestamp": at,
        });
        if let Some(p) = parent {
            value["metadata"] =
                json!({"in_reply_to": EventId::from_parts(T0, p.into()).to_string()});
        }
        line_from(
            &Event::from_value(value, &Limits::default()).unwrap(),
            LineState::Received,
            "human:ann",
        )
    }

    #[test]
    fn a_reply_to_another_conversation_shows_in_its_own() {
        let mut all = vec![
            line(1, "agent:a", T0, None),
            line(2, "agent:b", T0 + 1, Some(1)),
        ];
        let mut direct = line(3, "agent:echo", T0 + 2, Some(1));
        direct.conversation = "agent:echo".into();
        all.push(direct);
        let channel: Vec<u64> = conversation_lines(&all, "agent:broadcast")
            .map(|l| l.at)
            .collect();
        assert_eq!(
            channel,
            vec![T0],
            "the channel's thread reply stays in its thread"
        );
        let dm: Vec<u64> = conversation_lines(&all, "agent:echo")
            .map(|l| l.at)
            .collect();
        assert_eq!(
            dm,
            vec![T0 + 2],
            "the answer in a direct conversation shows there"
        );
    }

    fn messages(rows: &[Row]) -> Vec<(String, bool)> {
        rows.iter()
            .filter_map(|r| match r {
                Row::Message { line, grouped, .. } => Some((line.content.clone(), *grouped)),
                Row::Day { .. } | Row::New => None,
            })
            .collect()
    }

    #[test]
    fn days_are_separated_and_an_author_s_run_is_grouped() {
        let all = vec![
            line(1, "agent:a", T0, None),
            line(2, "agent:a", T0 + 60_000, None),
            line(3, "agent:b", T0 + 120_000, None),
            line(4, "agent:b", T0 + 30 * 60_000, None),
            line(5, "agent:b", T0 + DAY, None),
        ];
        let shown: Vec<&Line> = all.iter().collect();
        let rows = rows(&all, &shown, WINDOW, None, 0, None);
        let days = rows.iter().filter(|r| matches!(r, Row::Day { .. })).count();
        assert_eq!(days, 2, "one separator per day");
        assert!(matches!(rows[0], Row::Day { .. }));
        assert_eq!(
            messages(&rows),
            [
                ("m1".to_owned(), false),
                ("m2".to_owned(), true),
                ("m3".to_owned(), false),
                ("m4".to_owned(), false),
                ("m5".to_owned(), false)
            ]
        );
    }

    #[test]
    fn the_newest_window_shows_and_parents_count_their_replies() {
        let mut all = vec![line(1, "agent:a", T0, None)];
        for n in 2..=60 {
            all.push(line(n, "agent:b", T0 + n * 1_000, Some(1)));
        }
        let shown: Vec<&Line> = all.iter().collect();
        let rows = rows(&all, &shown, 10, None, 0, None);
        assert_eq!(messages(&rows).len(), 10);
        assert_eq!(messages(&rows)[9].0, "m60", "the newest is last");
        let parent_rows = super::rows(&all, &shown[..1], 10, None, 0, None);
        let Some(Row::Message { replies, .. }) = parent_rows.get(1) else {
            panic!("{parent_rows:?}");
        };
        assert_eq!(replies.count, 59);
        assert_eq!(replies.last_at, T0 + 60_000);
        // A reply shows what it answers, and starts a group of its own.
        let Some(Row::Message {
            parent, grouped, ..
        }) = rows.last()
        else {
            panic!();
        };
        assert_eq!(parent.as_deref(), Some("m1"));
        assert!(!grouped);
        assert_eq!(thread_of(&all, all[0].id).len(), 60);
        // In the thread's own view, its replies need not say what they answer.
        let in_thread = super::rows(&all, &shown, 10, Some(all[0].id), 0, None);
        assert!(matches!(
            in_thread.last(),
            Some(Row::Message {
                parent: None,
                grouped: true,
                ..
            })
        ));
    }

    #[test]
    fn the_new_line_sits_above_the_first_message_others_posted_after_the_marker() {
        let all = vec![
            line(1, "agent:a", T0, None),
            line(2, "agent:a", T0 + 1_000, None),
            line(3, "human:ann", T0 + 2_000, None),
            line(4, "agent:a", T0 + 3_000, None),
            line(5, "agent:a", T0 + 4_000, None),
        ];
        let shown: Vec<&Line> = all.iter().collect();
        let marker = Marker {
            at: T0 + 1_000,
            me: "human:ann",
        };
        let rows = rows(&all, &shown, WINDOW, None, 0, Some(marker));
        let at = rows
            .iter()
            .position(|r| *r == Row::New)
            .expect("a new line");
        assert!(
            matches!(&rows[at + 1], Row::Message { line, grouped: false, .. } if line.content == "m4"),
            "above the first of others' after the marker, not the person's own: {rows:?}"
        );
        assert_eq!(rows.iter().filter(|r| **r == Row::New).count(), 1);
        let read_all = Marker {
            at: T0 + 4_000,
            ..marker
        };
        assert!(!super::rows(&all, &shown, WINDOW, None, 0, Some(read_all)).contains(&Row::New));
        assert!(!super::rows(&all, &shown, WINDOW, None, 0, None).contains(&Row::New));
    }

    #[test]
    fn out_of_order_times_keep_every_row_with_its_own_key() {
        // The sender chose the times: yesterday's message between today's.
        let all = vec![
            line(1, "agent:a", T0 + DAY, None),
            line(2, "agent:b", T0, None),
            line(3, "agent:a", T0 + DAY + 1_000, None),
            line(4, "agent:b", T0 + DAY + 2_000, None),
            line(4, "agent:b", T0 + DAY + 2_000, None),
        ];
        let shown: Vec<&Line> = all.iter().collect();
        let rows = rows(&all, &shown, WINDOW, None, 0, None);
        let keys: Vec<String> = rows.iter().map(Row::key).collect();
        let unique: HashSet<&String> = keys.iter().collect();
        assert_eq!(unique.len(), keys.len(), "keys repeat: {keys:?}");
        assert_eq!(
            messages(&rows).len(),
            4,
            "every message once, the repeated one once"
        );
        let days = rows.iter().filter(|r| matches!(r, Row::Day { .. })).count();
        assert_eq!(days, 3, "today, yesterday, today again");
    }
}
