//! Editing and deleting a message, as events in the log (issue 44):
//!
//! * `workspace.message.edited` `{message, content}`: the message's new
//!   text. Only its author may edit it.
//! * `workspace.message.deleted` `{message}`: the message is gone from the
//!   conversation (the log keeps both events, so the inspector shows the
//!   history). Its author or a master of the network may delete it.
//!
//! Either goes to where the message went (its target), so everyone who saw it
//! sees the change. The network remembers the author and place of its last
//! [`REMEMBERED`] messages (in memory: after a restart, older messages can
//! no longer be changed, and a change to them is refused as not found); a
//! deleted message can no longer be edited.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::standing::Role;
use crate::ids::ulid::EventId;
use crate::mods::api::Context;
use serde_json::Value;
use std::collections::BTreeMap;

/// A message's new text.
pub const EDITED: &str = "workspace.message.edited";
/// A message taken back.
pub const DELETED: &str = "workspace.message.deleted";
/// Messages whose author the network remembers, for changes to them.
pub const REMEMBERED: usize = 4096;

/// What the network remembers of one message.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Authored {
    author: Address,
    place: Address,
    deleted: bool,
}

/// The authors and places of the last messages, by id (ULIDs sort by time,
/// so the oldest is the first key).
#[derive(Debug, Default)]
pub struct Edits {
    messages: BTreeMap<EventId, Authored>,
}

fn invalid(message: &str) -> Rejection {
    Rejection::new(ErrorCode::InvalidRequest, message)
}

/// The message an edit, deletion or reaction is about: `payload.message`,
/// an event id (`invalid_request` naming what the message is, `what`, otherwise).
pub fn message_of(event: &Event, what: &str) -> Result<EventId, Rejection> {
    event
        .payload
        .get("message")
        .and_then(Value::as_str)
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| invalid(&format!("message is the id of the message {what}")))
}

impl Edits {
    /// Remembers an accepted message's author and where it went.
    pub fn remember(&mut self, event: &Event) {
        self.messages.insert(
            event.id,
            Authored {
                author: event.source.clone(),
                place: event.target.clone(),
                deleted: false,
            },
        );
        while self.messages.len() > REMEMBERED {
            self.messages.pop_first();
        }
    }

    /// Checks an edit or a deletion: a message the network remembers, not
    /// deleted, changed by one who may, sent where the message went.
    /// Answers the id of the message changed.
    pub fn check(&self, cx: &Context<'_>, event: &Event) -> Result<EventId, Rejection> {
        let message = message_of(event, "changed")?;
        let editing = event.event_type.as_str() == EDITED;
        let new_text = event.payload.get("content").and_then(Value::as_str);
        if editing && new_text.is_none_or(|c| c.trim().is_empty()) {
            return Err(invalid("content is the message's new text"));
        }
        let (author, place) = self.author_and_place(&message)?;
        let who = &event.source;
        let may = author == who || (!editing && cx.state.role_of(who) == Some(Role::Master));
        if !may {
            let rule = if editing {
                "only its author may edit it"
            } else {
                "only its author or a master may delete it"
            };
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!("{who} may not change {message}: {rule}"),
            ));
        }
        if event.target != *place {
            return Err(invalid(&format!(
                "a change goes where the message went: {place}"
            )));
        }
        Ok(message)
    }

    /// The author and place of a message the network remembers and that was
    /// not deleted (reactions answer to it).
    pub fn author_and_place(&self, message: &EventId) -> Result<(&Address, &Address), Rejection> {
        match self.messages.get(message) {
            Some(known) if !known.deleted => Ok((&known.author, &known.place)),
            Some(_) => Err(Rejection::new(
                ErrorCode::NotFound,
                format!("{message} was deleted"),
            )),
            None => Err(Rejection::new(
                ErrorCode::NotFound,
                format!("{message} is not among the last {REMEMBERED} messages of this network"),
            )),
        }
    }

    /// Records an accepted deletion: the message can no longer be changed.
    pub fn deleted(&mut self, message: EventId) {
        if let Some(known) = self.messages.get_mut(&message) {
            known.deleted = true;
        }
    }
}
