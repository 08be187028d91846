//! The event envelope of seed 000 §6 and its validating JSON codec.
//!
//! ```json
//! {"id": "01J…", "type": "workspace.message.posted", "source": "agent:alice",
//!  "target": "channel/general", "payload": {"content": "hello"},
//!  "metadata": {"in_reply_to": "01J…"}, "timestamp": 1709337600000, "network": "demo"}
//! ```
//!
//! [`Event::decode`] checks every field with its own validator and reports
//! which one failed with a stable code, so a bad frame gets a precise
//! `network.event.error` instead of a generic parse failure. Serialization
//! is deterministic: struct fields in envelope order, object keys sorted.

use crate::address::{Address, AddressError};
use crate::enrichment::{Enrichment, MergedMetadata};
use crate::envelope::{self, Loose, RawFields, empty_object};
use crate::error::{Coded, ErrorCode, Rejection};
use crate::event_text::{self, Delivery};
use crate::event_type::{EventType, EventTypeError};
use crate::network_id::{NetworkId, NetworkIdError};
use crate::ulid::{EventId, UlidError};
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
/// [`Enrichment`] is written inside `metadata` (see [`crate::enrichment`]).
#[derive(Debug, Clone, PartialEq, Deserialize)]
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
    /// Unix milliseconds at creation.
    pub timestamp: u64,
    /// The network the event belongs to; filled in by the network when absent.
    #[serde(default)]
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

/// Why bytes are not a valid event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The frame exceeds the frame limit.
    #[error("frame of {size} bytes exceeds the limit of {max}")]
    FrameTooLarge {
        /// Frame size.
        size: usize,
        /// Limit.
        max: usize,
    },
    /// Not JSON, or not an object with the envelope's fields.
    #[error("not an event envelope: {0}")]
    Malformed(String),
    /// A required field is missing.
    #[error("missing field {0:?}")]
    Missing(&'static str),
    /// A field has the wrong JSON type.
    #[error("field {field:?} must be {expected}")]
    WrongType {
        /// The field.
        field: &'static str,
        /// The expected JSON type.
        expected: &'static str,
    },
    /// `id` is not a ULID.
    #[error("id: {0}")]
    Id(#[from] UlidError),
    /// `type` is invalid.
    #[error("type: {0}")]
    Type(#[from] EventTypeError),
    /// `type` exceeds the network's limit.
    #[error("type is longer than {0} characters")]
    TypeTooLong(usize),
    /// `source` or `target` is invalid.
    #[error("{field}: {error}")]
    Address {
        /// `source` or `target`.
        field: &'static str,
        /// What was wrong.
        error: AddressError,
    },
    /// `network` is invalid.
    #[error("network: {0}")]
    Network(#[from] NetworkIdError),
    /// `payload` or `metadata` exceeds its limit.
    #[error("{field} is {size} bytes, the limit is {max}")]
    FieldTooLarge {
        /// `payload` or `metadata`.
        field: &'static str,
        /// Encoded size.
        size: usize,
        /// Limit.
        max: usize,
    },
}

impl Coded for DecodeError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::FrameTooLarge { .. } | Self::FieldTooLarge { .. } | Self::TypeTooLong(_) => {
                ErrorCode::TooLarge
            }
            Self::Malformed(_) | Self::Missing(_) | Self::WrongType { .. } => {
                ErrorCode::MalformedEvent
            }
            Self::Id(e) => e.code(),
            Self::Type(e) => e.code(),
            Self::Address { error, .. } => error.code(),
            Self::Network(e) => e.code(),
        }
    }
}

impl From<DecodeError> for Rejection {
    fn from(err: DecodeError) -> Self {
        Rejection::from(&err)
    }
}

fn not_an_object() -> DecodeError {
    DecodeError::Malformed("expected a JSON object".into())
}

fn required_str<'a>(field: &'a Loose<'_>, name: &'static str) -> Result<&'a str, DecodeError> {
    match field {
        Loose::Absent => Err(DecodeError::Missing(name)),
        Loose::Str(s) => Ok(s),
        Loose::U64(_) | Loose::Other => Err(DecodeError::WrongType {
            field: name,
            expected: "a string",
        }),
    }
}

fn address(field: &Loose<'_>, name: &'static str) -> Result<Address, DecodeError> {
    required_str(field, name)?
        .parse()
        .map_err(|error| DecodeError::Address { field: name, error })
}

/// The length of `value`'s JSON encoding, counted as it is written (nothing is kept).
fn encoded_len(value: &impl Serialize) -> usize {
    /// A writer that only counts bytes.
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        Err(_) => usize::MAX,
    }
}

impl Event {
    /// Decodes and validates one JSON frame against `limits`.
    pub fn decode(frame: &str, limits: &Limits) -> Result<Self, DecodeError> {
        if frame.len() > limits.max_frame_bytes {
            return Err(DecodeError::FrameTooLarge {
                size: frame.len(),
                max: limits.max_frame_bytes,
            });
        }
        let fields = envelope::parse(frame)
            .map_err(|e| DecodeError::Malformed(e.to_string()))?
            .ok_or_else(not_an_object)?;
        Self::from_fields(fields, limits)
    }

    /// Validates an already-parsed JSON value against `limits`.
    pub fn from_value(value: Value, limits: &Limits) -> Result<Self, DecodeError> {
        let fields = RawFields::of_object(value).ok_or_else(not_an_object)?;
        Self::from_fields(fields, limits)
    }

    /// Validates the envelope's fields, in the order their errors are reported.
    fn from_fields(fields: RawFields<'_>, limits: &Limits) -> Result<Self, DecodeError> {
        let id: EventId = required_str(&fields.id, "id")?.parse()?;
        let type_str = required_str(&fields.event_type, "type")?;
        let event_type: EventType = type_str.parse()?;
        if type_str.len() > limits.max_type_len {
            return Err(DecodeError::TypeTooLong(limits.max_type_len));
        }
        let source = address(&fields.source, "source")?;
        let target = address(&fields.target, "target")?;
        let timestamp = match fields.timestamp {
            Loose::Absent => return Err(DecodeError::Missing("timestamp")),
            Loose::U64(ms) => ms,
            Loose::Str(_) | Loose::Other => {
                return Err(DecodeError::WrongType {
                    field: "timestamp",
                    expected: "a non-negative integer of milliseconds",
                });
            }
        };
        let network = match &fields.network {
            Loose::Absent => None,
            Loose::Str(s) => Some(s.parse()?),
            Loose::U64(_) | Loose::Other => {
                return Err(DecodeError::WrongType {
                    field: "network",
                    expected: "a string",
                });
            }
        };
        let payload = match fields.payload {
            None | Some(Value::Null) => empty_object(),
            Some(payload) => payload,
        };
        let payload_size = encoded_len(&payload);
        if payload_size > limits.max_payload_bytes {
            return Err(DecodeError::FieldTooLarge {
                field: "payload",
                size: payload_size,
                max: limits.max_payload_bytes,
            });
        }
        let metadata = match fields.metadata {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m,
            Some(_) => {
                return Err(DecodeError::WrongType {
                    field: "metadata",
                    expected: "an object",
                });
            }
        };
        let metadata_size = encoded_len(&metadata);
        if metadata_size > limits.max_metadata_bytes {
            return Err(DecodeError::FieldTooLarge {
                field: "metadata",
                size: metadata_size,
                max: limits.max_metadata_bytes,
            });
        }
        Ok(Self {
            id,
            event_type,
            source,
            target,
            payload,
            metadata,
            enrichment: None,
            timestamp,
            network,
        })
    }

    /// The deterministic JSON encoding of this event (what serializing it with serde gives).
    pub fn encode(&self) -> String {
        event_text::encode(self, None)
    }

    /// The text a recipient gets for a logged event: the encoding with
    /// `metadata.delivery = {prev, seq}`, without copying the event.
    pub fn encode_delivered(&self, seq: u64, prev: u64) -> String {
        event_text::encode(self, Some(Delivery { seq, prev }))
    }

    /// `metadata.in_reply_to`, when it is a valid event id.
    pub fn in_reply_to(&self) -> Option<EventId> {
        self.metadata
            .get("in_reply_to")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    const ID: &str = "01HQV2WA000000000000000000";

    fn valid() -> Value {
        json!({
            "id": ID, "type": "workspace.message.posted", "source": "openagents:claude",
            "target": "channel/session-1", "payload": {"content": "hello"},
            "metadata": {"in_reply_to": ID}, "timestamp": 1709337600000u64, "network": "a1b2c3d4"
        })
    }

    fn decode(v: &Value) -> Result<Event, DecodeError> {
        Event::decode(&v.to_string(), &Limits::default())
    }

    #[test]
    fn decodes_the_seed_example_and_round_trips() {
        let event = decode(&valid()).unwrap();
        assert_eq!(event.source.to_string(), "openagents:claude");
        assert_eq!(
            event.in_reply_to().map(|i| i.to_string()).as_deref(),
            Some(ID)
        );
        let again = Event::decode(&event.encode(), &Limits::default()).unwrap();
        assert_eq!(again, event);
    }

    #[test]
    fn encoding_is_deterministic_and_in_envelope_order() {
        let event = decode(&valid()).unwrap();
        let text = event.encode();
        let positions: Vec<usize> = [
            "\"id\"",
            "\"type\"",
            "\"source\"",
            "\"target\"",
            "\"payload\"",
            "\"metadata\"",
            "\"timestamp\"",
            "\"network\"",
        ]
        .iter()
        .map(|k| text.find(k).unwrap())
        .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    }

    #[test]
    fn each_bad_field_gets_its_own_code() {
        let cases: Vec<(&str, Value, ErrorCode)> = vec![
            ("id", json!("nope"), ErrorCode::InvalidEventId),
            ("type", json!("Bad"), ErrorCode::InvalidEventType),
            ("source", json!("channel/"), ErrorCode::InvalidAddress),
            ("target", json!(null), ErrorCode::MalformedEvent),
            ("timestamp", json!(-1), ErrorCode::MalformedEvent),
            ("network", json!("UPPER"), ErrorCode::InvalidNetworkId),
            ("metadata", json!([1]), ErrorCode::MalformedEvent),
        ];
        for (field, value, code) in cases {
            let mut v = valid();
            v[field] = value;
            assert_eq!(decode(&v).unwrap_err().code(), code, "{field}");
        }
        assert_eq!(
            Event::decode("{not json", &Limits::default())
                .unwrap_err()
                .code(),
            ErrorCode::MalformedEvent
        );
        assert_eq!(
            Event::decode("[]", &Limits::default()).unwrap_err().code(),
            ErrorCode::MalformedEvent
        );
    }

    #[test]
    fn limits_are_enforced() {
        let limits = Limits {
            max_payload_bytes: 10,
            max_metadata_bytes: 10,
            max_type_len: 8,
            max_frame_bytes: 400,
        };
        let mut v = valid();
        v["metadata"] = json!({});
        v["type"] = json!("a.b");
        v["payload"] = json!({"content": "more than ten bytes"});
        assert!(matches!(
            Event::decode(&v.to_string(), &limits),
            Err(DecodeError::FieldTooLarge {
                field: "payload",
                ..
            })
        ));
        v["payload"] = json!({});
        v["metadata"] = json!({"k": "more than ten bytes"});
        assert!(matches!(
            Event::decode(&v.to_string(), &limits),
            Err(DecodeError::FieldTooLarge {
                field: "metadata",
                ..
            })
        ));
        v["metadata"] = json!({});
        v["type"] = json!("abcd.efghij");
        assert_eq!(
            Event::decode(&v.to_string(), &limits),
            Err(DecodeError::TypeTooLong(8))
        );
        let huge = "x".repeat(500);
        assert!(matches!(
            Event::decode(&huge, &limits),
            Err(DecodeError::FrameTooLarge { .. })
        ));
    }

    #[test]
    fn optional_fields_default() {
        let mut v = valid();
        let o = v.as_object_mut().unwrap();
        o.remove("payload");
        o.remove("metadata");
        o.remove("network");
        let event = decode(&v).unwrap();
        assert_eq!(event.payload, json!({}));
        assert!(event.metadata.is_empty());
        assert_eq!(event.network, None);
    }

    use crate::enrichment::Sender;
    use crate::membership::{Role, Verification};
    use crate::network::delivery_frame;

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            "\\PC{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn valid_events_round_trip(
            id in any::<u128>(),
            kind in "[a-z][a-z0-9_-]{0,8}(\\.[a-z0-9_-]{1,8}){1,3}",
            source in "(agent|human|openagents):[A-Za-z0-9_-]{1,12}",
            target in prop_oneof![Just("core".to_owned()), Just("agent:broadcast".to_owned()), "channel/[a-z0-9-]{1,10}", "net-[a-z]{1,4}::agent:[a-z]{1,6}"],
            payload in json_value(),
            meta in proptest::collection::btree_map("(delivery|received_at|sender|[a-z_]{1,8})", json_value(), 0..4),
            timestamp in any::<u64>(),
            enrichment in proptest::option::of((any::<u64>(), proptest::option::of((0usize..3, 0u8..4)))),
            (seq, prev) in (any::<u64>(), any::<u64>()),
        ) {
            let roles = [Role::Master, Role::Member, Role::Observer];
            let event = Event {
                id: EventId::from_parts(0, id),
                event_type: kind.parse().unwrap(),
                source: source.parse().unwrap(),
                target: target.parse().unwrap(),
                payload: if payload.is_null() { json!({}) } else { payload },
                metadata: meta.into_iter().collect(),
                enrichment: enrichment.map(|(received_at, sender)| Enrichment {
                    sender: sender.map(|(role, level)| Sender {
                        role: roles[role],
                        verification: Verification::try_from(level).unwrap(),
                    }),
                    received_at,
                }),
                timestamp,
                network: Some("n1".parse().unwrap()),
            };
            // The direct writer and serde agree, with and without a delivery.
            let text = event.encode();
            prop_assert_eq!(&text, &serde_json::to_string(&event).unwrap());
            let framed = delivery_frame(&event, seq, prev);
            prop_assert_eq!(event.encode_delivered(seq, prev), serde_json::to_string(&framed).unwrap());
            prop_assert_eq!(event.encode_delivered(seq, prev), framed.encode());
            let decoded = Event::decode(&text, &Limits::default()).unwrap();
            if event.enrichment.is_none() {
                prop_assert_eq!(&decoded, &event);
            }
            prop_assert_eq!(decoded.encode(), text);
        }

        #[test]
        fn decode_never_panics(s in "\\PC{0,200}") {
            let _ = Event::decode(&s, &Limits::default());
        }

        #[test]
        fn decode_never_panics_on_envelope_like_json(
            id in "\\PC{0,30}", ty in "\\PC{0,30}", src in "\\PC{0,30}", ts in any::<i64>()
        ) {
            let v = json!({"id": id, "type": ty, "source": src, "target": "core", "timestamp": ts});
            let _ = decode(&v);
        }
    }
}
