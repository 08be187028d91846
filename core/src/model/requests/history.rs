//! The payloads of requests about the log: history queries
//! (`network.events.query`), delivery acknowledgements (`network.event.ack`)
//! and resuming (`network.agent.resume`).

use super::field::AsSent;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `network.events.query`: `{types?, source?, target?, text?, after?, limit?}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct EventsQuery {
    /// An event type pattern (`workspace.message.*`).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub types: AsSent<String>,
    /// Only events from this address.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub source: AsSent<String>,
    /// Only events to this address.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub target: AsSent<String>,
    /// Only messages with every word of it (a search text, checked by
    /// `crate::model::search::SearchText`).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub text: AsSent<Value>,
    /// Only events after this sequence number.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub after: AsSent<u64>,
    /// Most events to return.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub limit: AsSent<u64>,
}

/// `network.event.ack`: `{seq}`, the last event delivered.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Acknowledge {
    /// The sequence number acknowledged (with all before it).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub seq: AsSent<u64>,
}

/// `network.agent.resume`: `{after?}` (default: the member's cursor).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Resume {
    /// Catch up from after this sequence number.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub after: AsSent<u64>,
}
