//! The history reads of one workspace, a leaf both the chat's state and
//! [`crate::chat::history`] (which sends and answers them) use: one read's filter
//! and position, the reads in flight, and a message a jump looks for
//! ([`crate::chat::list::jump`]).

use agentnet_core::EventId;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Events one history page asks for (the network's most).
pub const PAGE: u64 = 200;

/// One read of a conversation's history: its filter and where it goes on from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    /// The conversation it fills.
    pub conversation: String,
    /// Only events from this source (a direct conversation's one direction).
    pub source: Option<String>,
    /// Only events to this target.
    pub target: String,
    /// The log position it reads on from.
    pub after: u64,
    /// Where the range ends (an earlier read began there); `None`: the log's end.
    pub until: Option<u64>,
}

impl Read {
    /// The query's payload.
    pub fn payload(&self) -> Value {
        let mut payload = json!({"target": self.target, "after": self.after, "limit": PAGE});
        if let Some(source) = &self.source {
            payload["source"] = json!(source);
        }
        payload
    }
}

/// The history reads of one workspace: those in flight, and the conversations
/// that are loading or loaded.
#[derive(Default)]
pub struct Reads {
    /// Reads in flight, by request id.
    pub(super) pending: BTreeMap<EventId, Read>,
}

/// A message a jump looks for ([`crate::chat::list::jump`]), in a conversation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// The message.
    pub message: EventId,
    /// The conversation whose history holds it.
    pub conversation: String,
    /// Ranges of history read for it so far.
    pub steps: u32,
}
