//! Editing and deleting one's own messages, as events in the log:
//! `workspace.message.edited` `{message, content}` and
//! `workspace.message.deleted` `{message}`, sent where the message went.
//! `mod/workspace` decides who may (the author edits; the author or a master
//! deletes) and refuses anyone else; the inspector keeps both events.
//!
//! A change is shown once the network accepted it (the person's own, told
//! to the other tabs like a post) or when it arrives (others', live or from
//! history). Changes are kept by message id, so a change read before its
//! message (history pages arrive in any order) applies when the message comes.

use super::messages::Line;
use super::state::Chat;
use super::tabs::TabNews;
use crate::event_types::{MESSAGE_DELETED, MESSAGE_EDITED};
use agentnet_core::{Address, Event, EventId, EventType};
use leptos::prelude::*;
use serde_json::{Value, json};
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

/// The message `event` changes and how, when it is an edit or a deletion.
pub fn change_of(event: &Event) -> Option<(EventId, Change)> {
    let message = event
        .payload
        .get("message")
        .and_then(Value::as_str)?
        .parse()
        .ok()?;
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

impl Chat {
    /// Records the change `event` makes, if it makes one, and shows it. True when it was one.
    pub(super) fn take_change(&self, event: &Event) -> bool {
        let Some((message, change)) = change_of(event) else {
            return false;
        };
        let _ = self
            .changes
            .try_update_value(|c| record(c, message, event.timestamp, change));
        let changes = self.changes.with_value(Clone::clone);
        self.lines.update(|lines| {
            if let Some(line) = lines.iter_mut().find(|l| l.id == message) {
                patch(line, &changes);
            }
        });
        true
    }

    /// `line` with the changes known for it.
    pub(super) fn patched(&self, mut line: Line) -> Line {
        self.changes.with_value(|c| patch(&mut line, c));
        line
    }

    /// Changes the person's message `line` (an edit, or its deletion).
    fn change(&self, line: &Line, kind: &str, payload: Value) {
        let (Ok(target), Ok(kind)) = (
            line.conversation.parse::<Address>(),
            kind.parse::<EventType>(),
        ) else {
            return;
        };
        let posted = self.session.with_connection(|c| {
            let id = c.post_with(kind, target, payload, serde_json::Map::new());
            c.outgoing(id)
        });
        match posted.flatten() {
            Some(event) => self.tell(TabNews::Posted {
                event: Box::new(event),
            }),
            None => self
                .session
                .report("The workspace is still opening: try again in a moment."),
        }
    }

    /// The person's message `line` now says `content`.
    pub fn edit(&self, line: &Line, content: &str) {
        let content = content.trim();
        if content.is_empty() || content == line.content {
            return;
        }
        self.change(
            line,
            MESSAGE_EDITED,
            json!({"message": line.id, "content": content}),
        );
    }

    /// The person takes their message `line` back.
    pub fn delete(&self, line: &Line) {
        self.change(line, MESSAGE_DELETED, json!({"message": line.id}));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::messages::{LineState, line_from};
    use agentnet_core::Limits;

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
