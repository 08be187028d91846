//! Messages and what happens to them: posted, edited, deleted, delegated,
//! reacted to. Fields are declared in the order `serde_json` writes an
//! object's keys (sorted), so a payload serialized directly gives the same
//! text as its `serde_json::Value`.

use super::event_types::{REACTION_ADDED, REACTION_REMOVED};
use crate::ids::ulid::EventId;
use crate::model::attachment::Attachment;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `workspace.message.posted`: a chat message.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MessagePosted {
    /// The message an agent's answer is for, so the workspace replaces the
    /// agent's activity with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<EventId>,
    /// The files it carries (checked by the network: [`crate::model::attachment`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
    /// The text (Markdown).
    pub content: String,
    /// The text says why an agent could not answer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
    /// The tools an agent called on the way, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
}

/// `workspace.message.edited`: a message's new text, from its author.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageEdited {
    /// The new text.
    pub content: String,
    /// The message edited.
    pub message: EventId,
}

/// `workspace.message.deleted`: a message taken back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageDeleted {
    /// The message deleted.
    pub message: EventId,
}

/// `workspace.message.delegated`: a message handed to the event's target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageDelegated {
    /// The message's text, for the delegate (the SDKs copy it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The message delegated.
    pub message: EventId,
    /// A word for the delegate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `workspace.reaction.added` and `.removed`: a reaction to a message, or
/// its take-back (the event type says which).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reaction {
    /// One emoji, a ZWJ sequence or a `:shortcode:` (checked by
    /// [`crate::mods::workspace::reactions`]).
    pub emoji: String,
    /// The message reacted to.
    pub message: EventId,
}

impl Reaction {
    /// The event type of this reaction added (`true`) or taken back.
    pub const fn event_type(added: bool) -> &'static str {
        if added {
            REACTION_ADDED
        } else {
            REACTION_REMOVED
        }
    }
}

/// The most characters of a tool's result kept in a [`Step`].
pub const MAX_STEP_RESULT: usize = 500;

/// One tool call made while answering, shown under the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The tool.
    pub tool: String,
    /// Its arguments.
    pub arguments: Value,
    /// It answered (rather than failed).
    pub ok: bool,
    /// Its result or why it failed, at most [`MAX_STEP_RESULT`] characters.
    pub result: String,
}

impl Step {
    /// The step of calling `tool` with `arguments`, which gave `result`.
    pub fn new(tool: &str, arguments: &Value, result: &Result<Value, String>) -> Self {
        let (ok, text) = match result {
            Ok(Value::String(text)) => (true, text.clone()),
            Ok(value) => (true, value.to_string()),
            Err(why) => (false, why.clone()),
        };
        let mut result: String = text.chars().take(MAX_STEP_RESULT).collect();
        if result.len() < text.len() {
            result.push('…');
        }
        Self {
            tool: tool.to_owned(),
            arguments: arguments.clone(),
            ok,
            result,
        }
    }
}
