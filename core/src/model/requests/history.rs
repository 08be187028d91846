//! The payloads of requests about the log: history queries
//! (`network.events.query`), delivery acknowledgements (`network.event.ack`)
//! and resuming (`network.agent.resume`).

use super::field::AsSent;
use serde::Deserialize;
use serde_json::Value;

/// `network.events.query`: `{types?, source?, target?, text?, after?, limit?}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct EventsQuery {
    /// An event type pattern (`workspace.message.*`).
    pub types: AsSent<String>,
    /// Only events from this address.
    pub source: AsSent<String>,
    /// Only events to this address.
    pub target: AsSent<String>,
    /// Only messages with every word of it (a search text, checked by
    /// `crate::model::search::SearchText`).
    pub text: AsSent<Value>,
    /// Only events after this sequence number.
    pub after: AsSent<u64>,
    /// Most events to return.
    pub limit: AsSent<u64>,
}

/// `network.event.ack`: `{seq}`, the last event delivered.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Acknowledge {
    /// The sequence number acknowledged (with all before it).
    pub seq: AsSent<u64>,
}

/// `network.agent.resume`: `{after?}` (default: the member's cursor).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Resume {
    /// Catch up from after this sequence number.
    pub after: AsSent<u64>,
}
