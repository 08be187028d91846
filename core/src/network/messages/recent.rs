//! What a change to a message needs to know of it ([`MessageFacts`]), and
//! the last messages a network without a log remembers for that
//! ([`RecentMessages`]); [`crate::network::messages::changes`] checks the changes.

use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
use crate::vocabulary::event_types::MESSAGE_EDITED;
use serde_json::Value;
use std::collections::BTreeMap;

/// Messages a network without a log remembers, for changes to them.
pub const RECENT: usize = 4096;

/// The link key under which the deletion of the message at `seq` is stored.
pub fn deleted_key(seq: u64) -> String {
    format!("changes/deleted:{seq}")
}

/// What a change needs to know about one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MessageFacts {
    /// Who sent it.
    pub(crate) author: Address,
    /// Where it went (its target).
    pub(crate) place: Address,
    /// Whether it was deleted.
    pub(crate) deleted: bool,
}

/// The last messages of a network without a log, by id (ULIDs sort by time,
/// so the oldest is the first key).
#[derive(Debug, Default)]
pub(crate) struct RecentMessages {
    by_id: BTreeMap<EventId, MessageFacts>,
}

/// True for an event people read as a message: its payload has text
/// content, and it is not itself an edit of another message.
pub(crate) fn is_message(event: &Event) -> bool {
    // Free-form: any app's event may be a message; only a text `content` makes it one.
    event.event_type.as_str() != MESSAGE_EDITED
        && event.payload.get("content").is_some_and(Value::is_string)
}

impl RecentMessages {
    pub(crate) fn remember(&mut self, event: &Event) {
        self.by_id.insert(
            event.id,
            MessageFacts {
                author: event.source.clone(),
                place: event.target.clone(),
                deleted: false,
            },
        );
        while self.by_id.len() > RECENT {
            self.by_id.pop_first();
        }
    }
}

impl RecentMessages {
    /// What is remembered of message `id`.
    pub(crate) fn get(&self, id: &EventId) -> Option<MessageFacts> {
        self.by_id.get(id).cloned()
    }

    /// Marks message `id` deleted, when it is remembered.
    pub(crate) fn deleted(&mut self, id: &EventId) {
        if let Some(known) = self.by_id.get_mut(id) {
            known.deleted = true;
        }
    }
}
