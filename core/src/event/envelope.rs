//! The event envelope of ONM §6: the [`Event`] every interaction is,
//! its size [`Limits`], and its serde form.
//!
//! Serialization is deterministic: struct fields in envelope order, object
//! keys sorted; a network-side [`Enrichment`] is merged into `metadata`.

use crate::event::enrichment::{Enrichment, MergedMetadata};
use crate::event::raw::empty_object;
use crate::ids::address::Address;
use crate::ids::event_type::EventType;
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Size limits applied to incoming events. Networks may configure their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Largest encoded frame accepted, in bytes.
    pub max_frame_bytes: usize,
    /// Largest encoded `payload`, in bytes.
    pub max_payload_bytes: usize,
    /// Largest encoded `metadata`, in bytes.
    pub max_metadata_bytes: usize,
    /// Longest `type`, in characters.
    pub max_type_len: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_frame_bytes: 1024 * 1024,
            max_payload_bytes: 512 * 1024,
            max_metadata_bytes: 16 * 1024,
            max_type_len: 128,
        }
    }
}

/// One event: the only unit of communication in a network.
///
/// Serialized in envelope order with `metadata`'s keys sorted; a network-side
/// [`Enrichment`] is written inside `metadata` (see [`crate::event::enrichment`]).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "EventEnvelope"))]
pub struct Event {
    /// ULID, unique within the network.
    pub id: EventId,
    /// Hierarchical type.
    #[serde(rename = "type")]
    pub event_type: EventType,
    /// Sender's address.
    pub source: Address,
    /// Recipient; never null (`agent:broadcast` for everyone, `core` for the network).
    pub target: Address,
    /// Event data.
    #[serde(default = "empty_object")]
    pub payload: Value,
    /// Protocol-level metadata (`in_reply_to`, `visibility`, `refs`, …).
    #[serde(default)]
    pub metadata: Map<String, Value>,
    /// What the accepting network's `mod/enrichment` added; encoded as
    /// `metadata.sender` and `metadata.received_at`. Decoded events carry
    /// those in `metadata` instead.
    #[serde(skip)]
    pub enrichment: Option<Enrichment>,
    /// When it was created.
    pub timestamp: Timestamp,
    /// The network the event belongs to; filled in by the network when absent.
    #[serde(default)]
    // Written only when present (`Serialize` above), so optional in TypeScript.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub network: Option<NetworkId>,
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = if self.network.is_some() { 8 } else { 7 };
        let mut out = serializer.serialize_struct("Event", fields)?;
        out.serialize_field("id", &self.id)?;
        out.serialize_field("type", &self.event_type)?;
        out.serialize_field("source", &self.source)?;
        out.serialize_field("target", &self.target)?;
        out.serialize_field("payload", &self.payload)?;
        out.serialize_field(
            "metadata",
            &MergedMetadata {
                map: &self.metadata,
                enrichment: self.enrichment.as_ref(),
                delivery: None,
            },
        )?;
        out.serialize_field("timestamp", &self.timestamp)?;
        if let Some(network) = &self.network {
            out.serialize_field("network", network)?;
        }
        out.end()
    }
}

impl Event {
    /// `metadata.in_reply_to`, when it is a valid event id.
    pub fn in_reply_to(&self) -> Option<EventId> {
        self.metadata
            .get("in_reply_to")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
    }
}
