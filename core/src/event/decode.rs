//! Decoding an event: every field checked by its own validator.
//!
//! [`Event::decode`] reports which field failed with a stable code, so a bad
//! frame gets a precise `network.event.error` instead of a generic parse
//! failure; sizes are checked against the network's [`Limits`].

use crate::error::{Coded, ErrorCode, Rejection};
use crate::event::envelope::{Event, Limits};
use crate::event::raw::{self, Loose, RawFields, empty_object};
use crate::ids::address::{Address, AddressError};
use crate::ids::event_type::EventType;
use crate::ids::event_type::EventTypeError;
use crate::ids::network_id::NetworkIdError;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::ids::ulid::UlidError;
use serde::Serialize;
use serde_json::Map;
use serde_json::Value;

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

/// `value`, the `field` of an event, encodes in at most `max` bytes.
fn within_limit(
    field: &'static str,
    value: &impl Serialize,
    max: usize,
) -> Result<(), DecodeError> {
    let size = encoded_len(value);
    if size > max {
        return Err(DecodeError::FieldTooLarge { field, size, max });
    }
    Ok(())
}

/// The length of `value`'s JSON encoding, counted as it is written (nothing is kept).
pub(crate) fn encoded_len(value: &impl Serialize) -> usize {
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
        let fields = raw::parse(frame)
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
            Loose::U64(ms) => Timestamp::from_millis(ms),
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
        within_limit("payload", &payload, limits.max_payload_bytes)?;
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
        within_limit("metadata", &metadata, limits.max_metadata_bytes)?;
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
}
