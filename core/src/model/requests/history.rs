//! The payloads of requests about the log: history queries
//! (`network.events.query`), delivery acknowledgements (`network.event.ack`)
//! and resuming (`network.agent.resume`).

use super::field::request_types;
use serde_json::Value;

request_types! {
    /// `network.events.query`: `{types?, source?, target?, text?, after?, limit?}`.
    pub struct EventsQuery {
        /// An event type pattern (`workspace.message.*`).
        types: String,
        /// Only events from this address.
        source: String,
        /// Only events to this address.
        target: String,
        /// Only messages with every word of it (a search text, checked by
        /// `crate::model::search::SearchText`).
        text: Value,
        /// Only events after this sequence number.
        after: u64,
        /// Most events to return.
        limit: u64,
    }

    /// `network.event.ack`: `{seq}`, the last event delivered.
    pub struct Acknowledge {
        /// The sequence number acknowledged (with all before it).
        seq: u64,
    }

    /// `network.agent.resume`: `{after?}` (default: the member's cursor).
    pub struct Resume {
        /// Catch up from after this sequence number.
        after: u64,
    }
}
