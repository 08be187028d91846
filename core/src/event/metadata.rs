//! Typed views of the protocol-level fields in `metadata`.
//!
//! * `in_reply_to` — the event this one answers (request/response, ONM §6);
//! * `visibility` — who may see the event: `public`, `channel`, `direct`, `mod_only`;
//! * `refs` — IOA's message-graph links: `messages` (parent event ids) and
//!   `nodes` (recipient addresses);
//! * `traceparent`, `tracestate` — W3C trace context ([`super::trace`]).
//!
//! Every other key is free-form. [`ProtocolMetadata::read`] validates the
//! known keys so a malformed value is rejected when the event arrives.

use super::trace::{TraceContext, TraceError};
use crate::error::{Coded, ErrorCode};
use crate::ids::address::{Address, AddressError};
use crate::ids::ulid::{EventId, UlidError};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Most parents or recipients one `refs` may list.
pub const MAX_REFS: usize = 64;

/// Who may see an event (ONM §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Any member of the network.
    Public,
    /// Members of the target channel only.
    Channel,
    /// The source and the target only.
    Direct,
    /// Only mods in the pipeline; never delivered to members.
    ModOnly,
}

/// IOA-style references: parents in the message graph and recipient nodes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refs {
    /// Parent event ids.
    #[serde(default)]
    pub messages: Vec<EventId>,
    /// Recipient addresses.
    #[serde(default)]
    pub nodes: Vec<Address>,
}

/// Why a known metadata key has an invalid value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetadataError {
    /// `in_reply_to` is not a ULID string.
    #[error("metadata.in_reply_to: {0}")]
    InReplyTo(UlidError),
    /// `in_reply_to` is not a string.
    #[error("metadata.in_reply_to must be an event id string")]
    InReplyToType,
    /// `visibility` is not one of the four levels.
    #[error("metadata.visibility must be public, channel, direct or mod_only")]
    Visibility,
    /// `refs` is not `{messages: [...], nodes: [...]}`.
    #[error("metadata.refs must be {{messages: [event ids], nodes: [addresses]}}")]
    RefsShape,
    /// A `refs.messages` entry is not an event id.
    #[error("metadata.refs.messages: {0}")]
    RefMessage(UlidError),
    /// A `refs.nodes` entry is not an address.
    #[error("metadata.refs.nodes: {0}")]
    RefNode(AddressError),
    /// Too many refs.
    #[error("metadata.refs lists more than {MAX_REFS} entries")]
    TooManyRefs,
    /// `traceparent` or `tracestate` is malformed.
    #[error(transparent)]
    Trace(#[from] TraceError),
}

impl Coded for MetadataError {
    fn code(&self) -> ErrorCode {
        ErrorCode::MalformedEvent
    }
}

/// The validated protocol keys of one event's metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtocolMetadata {
    /// `in_reply_to`.
    pub in_reply_to: Option<EventId>,
    /// `visibility`, when given explicitly.
    pub visibility: Option<Visibility>,
    /// `refs`.
    pub refs: Refs,
    /// `traceparent` and `tracestate`.
    pub trace: Option<TraceContext>,
}

impl ProtocolMetadata {
    /// Reads and validates the protocol keys of `metadata`.
    pub fn read(metadata: &Map<String, Value>) -> Result<Self, MetadataError> {
        let in_reply_to = match metadata.get("in_reply_to") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.parse().map_err(MetadataError::InReplyTo)?),
            Some(_) => return Err(MetadataError::InReplyToType),
        };
        let visibility = match metadata.get("visibility") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                serde_json::from_value::<Visibility>(v.clone())
                    .map_err(|_| MetadataError::Visibility)?,
            ),
        };
        let refs = match metadata.get("refs") {
            None | Some(Value::Null) => Refs::default(),
            Some(Value::Object(o)) => read_refs(o)?,
            Some(_) => return Err(MetadataError::RefsShape),
        };
        Ok(Self {
            in_reply_to,
            visibility,
            refs,
            trace: TraceContext::from_metadata(metadata)?,
        })
    }
}

fn string_list<'a>(o: &'a Map<String, Value>, key: &str) -> Result<Vec<&'a str>, MetadataError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => {
            if items.len() > MAX_REFS {
                return Err(MetadataError::TooManyRefs);
            }
            items
                .iter()
                .map(|v| v.as_str().ok_or(MetadataError::RefsShape))
                .collect()
        }
        Some(_) => Err(MetadataError::RefsShape),
    }
}

fn read_refs(o: &Map<String, Value>) -> Result<Refs, MetadataError> {
    if o.keys().any(|k| k != "messages" && k != "nodes") {
        return Err(MetadataError::RefsShape);
    }
    let messages = string_list(o, "messages")?
        .into_iter()
        .map(|s| s.parse().map_err(MetadataError::RefMessage))
        .collect::<Result<_, _>>()?;
    let nodes = string_list(o, "nodes")?
        .into_iter()
        .map(|s| s.parse().map_err(MetadataError::RefNode))
        .collect::<Result<_, _>>()?;
    Ok(Refs { messages, nodes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<ProtocolMetadata, MetadataError> {
        ProtocolMetadata::read(v.as_object().unwrap())
    }

    #[test]
    fn reads_all_protocol_keys() {
        let m = read(json!({
            "in_reply_to": "01HQY7BR000000000000000000",
            "visibility": "mod_only",
            "refs": {"messages": ["01HQY7BR000000000000000001", "01HQY7BR000000000000000002"], "nodes": ["agent:a", "human:b"]},
            "custom": 1
        }))
        .unwrap();
        assert_eq!(m.visibility, Some(Visibility::ModOnly));
        assert_eq!(m.refs.messages.len(), 2);
        assert_eq!(m.refs.nodes[1].to_string(), "human:b");
        assert!(m.in_reply_to.is_some());
    }

    #[test]
    fn empty_metadata_is_fine() {
        assert_eq!(read(json!({})).unwrap(), ProtocolMetadata::default());
    }

    #[test]
    fn rejects_each_bad_key() {
        assert_eq!(
            read(json!({"in_reply_to": 5})),
            Err(MetadataError::InReplyToType)
        );
        assert!(matches!(
            read(json!({"in_reply_to": "x"})),
            Err(MetadataError::InReplyTo(_))
        ));
        assert_eq!(
            read(json!({"visibility": "secret"})),
            Err(MetadataError::Visibility)
        );
        assert_eq!(read(json!({"refs": []})), Err(MetadataError::RefsShape));
        assert_eq!(
            read(json!({"refs": {"parents": []}})),
            Err(MetadataError::RefsShape)
        );
        assert!(matches!(
            read(json!({"refs": {"messages": ["bad"]}})),
            Err(MetadataError::RefMessage(_))
        ));
        assert!(matches!(
            read(json!({"refs": {"nodes": ["channel/"]}})),
            Err(MetadataError::RefNode(_))
        ));
        let many: Vec<String> = (0..65).map(|i| format!("agent:a{i}")).collect();
        assert_eq!(
            read(json!({"refs": {"nodes": many}})),
            Err(MetadataError::TooManyRefs)
        );
    }
}
