//! The edits and deletions the workspace knows, by message id: what a
//! `workspace.message.edited` or `.deleted` event says ([`change_of`]), the
//! newest change of each message ([`record`]) and a message as its changes
//! leave it ([`patch`]). Kept by message id, so a change read before its
//! message (history pages arrive in any order) applies when the message comes.

use super::messages::Line;
use crate::event_types::{MESSAGE_DELETED, MESSAGE_EDITED};
use agentnet_core::{Event, EventId};
use serde_json::Value;
use std::collections::BTreeMap;

/// A change to a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Its new text.
    Edited(String),
    /// It is gone.
    Deleted,
}

/// The changes known, by the id of the message changed: the newest edit, or
/// its deletion (which no edit undoes), with when it was made.
pub type Changes = BTreeMap<EventId, (u64, Change)>;

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

/// Records `change` made at `at`: a deletion stays; a newer edit replaces an older one.
pub fn record(changes: &mut Changes, message: EventId, at: u64, change: Change) {
    let keep = match changes.get(&message) {
        Some((_, Change::Deleted)) => false,
        Some((known, Change::Edited(_))) => change == Change::Deleted || at >= *known,
        None => true,
    };
    if keep {
        changes.insert(message, (at, change));
    }
}

/// `line` as its known change leaves it.
pub fn patch(line: &mut Line, changes: &Changes) {
    match changes.get(&line.id) {
        Some((_, Change::Edited(content))) => {
            line.content.clone_from(content);
            line.edited = true;
        }
        Some((_, Change::Deleted)) => {
            line.content.clear();
            line.deleted = true;
            line.ioa = None;
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::messages::{LineState, line_from};
    use agentnet_core::Limits;
    use serde_json::json;

    fn event(kind: &str, payload: Value, at: u64) -> Event {
        Event::from_value(
            json!({
                "id": EventId::from_parts(at, 9).to_string(), "type": kind,
                "source": "human:ann", "target": "agent:broadcast", "payload": payload,
                "timestamp": at,
            }),
            &Limits::default(),
        )
        .unwrap()
    }

    #[test]
    fn the_newest_edit_shows_and_a_deletion_stays() {
        let posted = event(
            crate::event_types::MESSAGE_POSTED,
            json!({"content": "helo"}),
            1,
        );
        let id = posted.id;
        let mut changes = Changes::new();
        for (text, at) in [("hello", 20), ("hullo", 10)] {
            let (message, change) = change_of(&event(
                MESSAGE_EDITED,
                json!({"message": id, "content": text}),
                at,
            ))
            .unwrap();
            record(&mut changes, message, at, change);
        }
        let mut line = line_from(&posted, LineState::Received, "human:bob");
        patch(&mut line, &changes);
        assert_eq!(
            (line.content.as_str(), line.edited),
            ("hello", true),
            "the newest edit wins"
        );
        let (message, change) =
            change_of(&event(MESSAGE_DELETED, json!({"message": id}), 30)).unwrap();
        record(&mut changes, message, 30, change);
        record(&mut changes, id, 40, Change::Edited("back".into()));
        let mut line = line_from(&posted, LineState::Received, "human:bob");
        patch(&mut line, &changes);
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
}
