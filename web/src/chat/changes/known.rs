//! The edits and deletions the workspace knows, by message id: what a
//! `workspace.message.edited` or `.deleted` event says ([`change_of`]), the
//! newest change of each message by each member ([`record`]) and a message as
//! the changes of those who may make them leave it ([`patch`]: its author
//! edits; its author or a master deletes — a forged change, even one the
//! network let through, is ignored). Kept by message id, so a change read before its
//! message (history pages arrive in any order) applies when the message comes.

use crate::chat::messages::Line;
use agentnet_core::vocabulary::event_types::{MESSAGE_DELETED, MESSAGE_EDITED};
use agentnet_core::{Event, EventId};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// A change to a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Its new text.
    Edited(String),
    /// It is gone.
    Deleted,
}

/// A change as it was said: when, by whom (the event's source) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// When it was made.
    pub at: u64,
    /// Who made it.
    pub by: String,
    /// The change.
    pub change: Change,
}

/// Most members whose changes to one message are kept: the author's and a
/// master's count among them unless more than this many others spoke first.
pub const CHANGERS_KEPT: usize = 32;

/// The changes known, by the id of the message changed: per member who
/// changed it, their newest edit or their deletion (which no edit undoes).
/// Who may change it is decided when the message is known ([`patch`]): a
/// change can be read before its message.
pub type Changes = BTreeMap<EventId, Vec<Said>>;

/// The message an edit, a deletion or a reaction is about (`payload.message`).
pub fn message_of(event: &Event) -> Option<EventId> {
    event.payload.get("message")?.as_str()?.parse().ok()
}

/// The message `event` changes and how, when it is an edit or a deletion.
pub fn change_of(event: &Event) -> Option<(EventId, Change)> {
    let message = message_of(event)?;
    match event.event_type.as_str() {
        MESSAGE_EDITED => {
            let content = event.payload.get("content").and_then(Value::as_str)?;
            Some((message, Change::Edited(content.to_owned())))
        }
        MESSAGE_DELETED => Some((message, Change::Deleted)),
        _ => None,
    }
}

/// Records `said` of `message`: a member's deletion stays; their newer edit
/// replaces their older one.
pub fn record(changes: &mut Changes, message: EventId, said: Said) {
    let known = changes.entry(message).or_default();
    match known.iter().position(|k| k.by == said.by) {
        Some(at) => {
            let keep = match known[at].change {
                Change::Deleted => false,
                Change::Edited(_) => said.change == Change::Deleted || said.at >= known[at].at,
            };
            if keep {
                known[at] = said;
            }
        }
        None if known.len() < CHANGERS_KEPT => known.push(said),
        None => {}
    }
}

/// `line` as the changes of those who may change it leave it: its author's
/// newest edit, or a deletion by its author or one of `masters` (what
/// `mod/workspace` allows). Anyone else's is ignored, whatever the network let through.
pub fn patch(line: &mut Line, changes: &Changes, masters: &BTreeSet<String>) {
    let Some(known) = changes.get(&line.id) else {
        return;
    };
    let author = |by: &str| by == line.source;
    let deleted = known
        .iter()
        .any(|k| k.change == Change::Deleted && (author(k.by.as_str()) || masters.contains(&k.by)));
    if deleted {
        line.content.clear();
        line.deleted = true;
        line.ioa = None;
        return;
    }
    let edit = known.iter().find_map(|k| match &k.change {
        Change::Edited(content) if author(k.by.as_str()) => Some(content),
        _ => None,
    });
    if let Some(content) = edit {
        line.content.clone_from(content);
        line.edited = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::messages::{LineState, line_from};
    use agentnet_core::Limits;
    use serde_json::json;

    fn event_by(source: &str, kind: &str, payload: Value, at: u64) -> Event {
        Event::from_value(
            json!({
                "id": EventId::from_parts(at, 9).to_string(), "type": kind,
                "source": source, "target": "agent:broadcast", "payload": payload,
                "timestamp": at,
            }),
            &Limits::default(),
        )
        .unwrap()
    }

    fn event(kind: &str, payload: Value, at: u64) -> Event {
        event_by("human:ann", kind, payload, at)
    }

    /// Records what `event` changes, as the page does.
    fn take(changes: &mut Changes, event: &Event) {
        let (message, change) = change_of(event).unwrap();
        let said = Said {
            at: event.timestamp.as_millis(),
            by: event.source.to_string(),
            change,
        };
        record(changes, message, said);
    }

    fn posted() -> Event {
        event(
            agentnet_core::vocabulary::event_types::MESSAGE_POSTED,
            json!({"content": "helo"}),
            1,
        )
    }

    /// Records `by`'s edit of the message `id` to `content`, sent at `at`.
    fn edit(changes: &mut Changes, by: &str, id: EventId, content: &str, at: u64) {
        let payload = json!({"message": id, "content": content});
        take(changes, &event_by(by, MESSAGE_EDITED, payload, at));
    }

    /// Records `by`'s deletion of the message `id`, sent at `at`.
    fn delete(changes: &mut Changes, by: &str, id: EventId, at: u64) {
        take(
            changes,
            &event_by(by, MESSAGE_DELETED, json!({"message": id}), at),
        );
    }

    /// `posted` as another member sees it with `changes`, `masters` being the network's masters.
    fn seen(posted: &Event, changes: &Changes, masters: &BTreeSet<String>) -> Line {
        let mut line = line_from(posted, LineState::Received, "human:bob");
        patch(&mut line, changes, masters);
        line
    }

    #[test]
    fn the_newest_edit_shows_and_a_deletion_stays() {
        let posted = posted();
        let id = posted.id;
        let none = BTreeSet::new();
        let mut changes = Changes::new();
        for (text, at) in [("hello", 20), ("hullo", 10)] {
            edit(&mut changes, "human:ann", id, text, at);
        }
        let line = seen(&posted, &changes, &none);
        assert_eq!(
            (line.content.as_str(), line.edited),
            ("hello", true),
            "the newest edit wins"
        );
        delete(&mut changes, "human:ann", id, 30);
        edit(&mut changes, "human:ann", id, "back", 40);
        let line = seen(&posted, &changes, &none);
        assert!(line.deleted && line.content.is_empty(), "{line:?}");
        assert_eq!(
            change_of(&event(MESSAGE_EDITED, json!({"message": id}), 1)),
            None
        );
        assert_eq!(
            change_of(&event(MESSAGE_DELETED, json!({"message": "x"}), 1)),
            None
        );
    }

    #[test]
    fn only_the_author_edits_and_only_the_author_or_a_master_deletes() {
        let posted = posted();
        let id = posted.id;
        let masters: BTreeSet<String> = ["human:boss".to_owned()].into();
        let mut changes = Changes::new();
        // Another member forges an edit and a deletion; a master edits (not theirs to edit).
        edit(&mut changes, "human:mallory", id, "FORGED", 50);
        delete(&mut changes, "human:mallory", id, 60);
        edit(&mut changes, "human:boss", id, "BOSS", 70);
        let line = seen(&posted, &changes, &masters);
        assert_eq!(
            (line.content.as_str(), line.edited, line.deleted),
            ("helo", false, false),
            "nobody but the author changed it"
        );
        // The author's own edit still shows, whoever spoke first.
        edit(&mut changes, "human:ann", id, "hello", 80);
        let line = seen(&posted, &changes, &masters);
        assert_eq!((line.content.as_str(), line.edited), ("hello", true));
        // A master's deletion counts.
        delete(&mut changes, "human:boss", id, 90);
        let line = seen(&posted, &changes, &masters);
        assert!(line.deleted && line.content.is_empty(), "{line:?}");
        // Without knowing boss is a master, it does not.
        let line = seen(&posted, &changes, &BTreeSet::new());
        assert_eq!((line.content.as_str(), line.deleted), ("hello", false));
    }

    #[test]
    fn many_forgers_are_bounded() {
        let posted = posted();
        let id = posted.id;
        let mut changes = Changes::new();
        for n in 0..1000 {
            edit(&mut changes, &format!("human:m{n}"), id, "x", n);
        }
        assert_eq!(changes[&id].len(), CHANGERS_KEPT);
    }
}
