//! Editing and deleting a message, as events in the log:
//!
//! * `workspace.message.edited` `{message, content}`: the message's new
//!   text. Only its author may edit it.
//! * `workspace.message.deleted` `{message}`: the message is gone from the
//!   conversation (the log keeps both events, so the inspector shows the
//!   history). Its author or a master of the network may delete it.
//!
//! Either goes to where the message went (its target), so everyone who saw it
//! sees the change. The network checks these rules itself, whatever mods are
//! loaded, from its log ([`crate::network::messages::changes`]); a deleted
//! message can no longer be changed.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::ulid::EventId;
use serde_json::Value;

/// The message an edit, deletion, reaction or delegation is about: `payload.message`,
/// an event id (`invalid_request` naming what the message is, `what`, otherwise).
pub fn message_of(event: &Event, what: &str) -> Result<EventId, Rejection> {
    event
        .payload
        .get("message")
        .and_then(Value::as_str)
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| {
            Rejection::new(
                ErrorCode::InvalidRequest,
                format!("message is the id of the message {what}"),
            )
        })
}
