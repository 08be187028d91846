//! An event envelope's fields as found in JSON, before validation.
//!
//! [`Event::decode`](crate::event::Event::decode) reads a frame's text
//! straight into [`RawFields`]: the envelope's strings are borrowed from the
//! frame where they have no escapes, and no map is built for the envelope
//! itself (only `payload` and `metadata` become JSON values). Decoding the
//! frame through a `serde_json::Value` first allocated every key and every
//! string once more, on every frame every host receives.
//! [`Event::from_value`](crate::event::Event::from_value) fills the same
//! fields from a parsed value, and both validate them with one function, so
//! the two paths give the same event or the same error (a property test
//! checks it). As with a parsed object, a repeated key keeps its last value
//! and unknown keys are ignored (but must be valid JSON).

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// One scalar field of the envelope as found.
#[derive(Debug, Default)]
pub(crate) enum Loose<'a> {
    /// Absent or `null`.
    #[default]
    Absent,
    /// A string.
    Str(Cow<'a, str>),
    /// A non-negative integer.
    U64(u64),
    /// Any other JSON value.
    Other,
}

impl<'a> Loose<'a> {
    /// The field of a parsed object.
    pub(crate) fn of_value(value: Option<Value>) -> Self {
        match value {
            None | Some(Value::Null) => Self::Absent,
            Some(Value::String(s)) => Self::Str(Cow::Owned(s)),
            Some(Value::Number(n)) => n.as_u64().map_or(Self::Other, Self::U64),
            Some(_) => Self::Other,
        }
    }
}

/// The envelope's fields as found; `payload` and `metadata` as JSON values.
#[derive(Debug, Default)]
pub(crate) struct RawFields<'a> {
    pub(crate) id: Loose<'a>,
    pub(crate) event_type: Loose<'a>,
    pub(crate) source: Loose<'a>,
    pub(crate) target: Loose<'a>,
    pub(crate) timestamp: Loose<'a>,
    pub(crate) network: Loose<'a>,
    pub(crate) payload: Option<Value>,
    pub(crate) metadata: Option<Value>,
}

impl RawFields<'static> {
    /// The fields of a parsed object (`None` when the value is not an object).
    pub(crate) fn of_object(value: Value) -> Option<Self> {
        let Value::Object(mut object) = value else {
            return None;
        };
        let mut take = |key: &str| Loose::of_value(object.remove(key));
        Some(Self {
            id: take("id"),
            event_type: take("type"),
            source: take("source"),
            target: take("target"),
            timestamp: take("timestamp"),
            network: take("network"),
            payload: object.remove("payload"),
            metadata: object.remove("metadata"),
        })
    }
}

/// Reads a frame's text into its fields; `Ok(None)` when the JSON is valid
/// but not an object.
pub(crate) fn parse(frame: &str) -> Result<Option<RawFields<'_>>, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(frame);
    let fields = deserializer.deserialize_any(EnvelopeVisitor)?;
    deserializer.end()?;
    Ok(fields)
}

/// The envelope: an object's fields, or `None` for any other JSON value.
struct EnvelopeVisitor;

impl<'de> Visitor<'de> for EnvelopeVisitor {
    type Value = Option<RawFields<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields = RawFields::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Id => fields.id = map.next_value_seed(LooseSeed)?,
                Key::Type => fields.event_type = map.next_value_seed(LooseSeed)?,
                Key::Source => fields.source = map.next_value_seed(LooseSeed)?,
                Key::Target => fields.target = map.next_value_seed(LooseSeed)?,
                Key::Timestamp => fields.timestamp = map.next_value_seed(LooseSeed)?,
                Key::Network => fields.network = map.next_value_seed(LooseSeed)?,
                Key::Payload => fields.payload = Some(map.next_value()?),
                Key::Metadata => fields.metadata = Some(map.next_value()?),
                // Parsed as a value, not skipped: it must be as valid as a parsed object's.
                Key::Other => drop(map.next_value::<Value>()?),
            }
        }
        Ok(Some(fields))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<Value>()?.is_some() {}
        Ok(None)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// An envelope key, matched without keeping its text.
enum Key {
    Id,
    Type,
    Source,
    Target,
    Timestamp,
    Network,
    Payload,
    Metadata,
    Other,
}

impl<'de> de::Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "id" => Key::Id,
                    "type" => Key::Type,
                    "source" => Key::Source,
                    "target" => Key::Target,
                    "timestamp" => Key::Timestamp,
                    "network" => Key::Network,
                    "payload" => Key::Payload,
                    "metadata" => Key::Metadata,
                    _ => Key::Other,
                })
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Reads one scalar field, borrowing its string from the frame when it can.
struct LooseSeed;

impl<'de> DeserializeSeed<'de> for LooseSeed {
    type Value = Loose<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Loose<'de>, D::Error> {
        deserializer.deserialize_any(LooseVisitor)
    }
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Loose<'de>, E> {
        Ok(Loose::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Loose<'de>, E> {
        Ok(Loose::Str(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Loose<'de>, E> {
        Ok(Loose::Str(Cow::Owned(s)))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Loose<'de>, E> {
        Ok(Loose::U64(n))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Loose<'de>, E> {
        // What a parsed value's `as_u64` accepts: a non-negative integer.
        Ok(u64::try_from(n).map_or(Loose::Other, Loose::U64))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Loose<'de>, E> {
        Ok(Loose::Other)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Loose<'de>, E> {
        Ok(Loose::Other)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Loose<'de>, E> {
        Ok(Loose::Absent)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose<'de>, A::Error> {
        while map.next_entry::<IgnoredKey, Value>()?.is_some() {}
        Ok(Loose::Other)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose<'de>, A::Error> {
        while seq.next_element::<Value>()?.is_some() {}
        Ok(Loose::Other)
    }
}

/// A key of a nested object in a scalar field (which is then `Loose::Other`).
struct IgnoredKey;

impl<'de> de::Deserialize<'de> for IgnoredKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(IgnoredAny).map(|_| IgnoredKey)
    }
}

/// An empty JSON object (a missing or `null` payload).
pub(crate) fn empty_object() -> Value {
    Value::Object(Map::new())
}

#[cfg(test)]
mod tests {
    use crate::event::{DecodeError, Event, Limits};
    use proptest::prelude::*;
    use serde_json::Value;

    /// What a field may hold: valid and invalid values of every JSON type.
    fn value() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            r#""01HQV2WA000000000000000000""#,
            r#""01HQV2WA00000000000000000""#,
            r#""agent:alice""#,
            r#""agent:\u0061lice""#,
            r#""channel/room""#,
            r#""bad address!""#,
            r#""workspace.message.posted""#,
            r#""network.pong""#,
            r#""a1b2c3d4""#,
            r#""""#,
            "1709337600000",
            "-5",
            "1.5",
            "1e400",
            "18446744073709551616",
            "null",
            "true",
            r#"{"content":"hello","n":[1,2,{"x":null}]}"#,
            r#"{"in_reply_to":"01HQV2WA000000000000000000"}"#,
            "[1,\"two\"]",
            "{}",
        ])
        .prop_map(str::to_owned)
    }

    fn key() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "id",
            "type",
            "source",
            "target",
            "timestamp",
            "network",
            "payload",
            "metadata",
            "other",
            "\\u0069d",
            "typ\\u0065",
        ])
        .prop_map(|k| format!("\"{k}\""))
    }

    /// An object of random fields (keys may repeat), sometimes cut short.
    fn frame() -> impl Strategy<Value = String> {
        let fields = prop::collection::vec((key(), value()), 0..12);
        (fields, any::<bool>(), any::<usize>(), any::<u8>()).prop_map(|(fields, cut, at, top)| {
            let body: Vec<String> = fields.iter().map(|(k, v)| format!("{k}:{v}")).collect();
            let mut text = match top % 8 {
                0 => "[1, 2]".to_owned(),
                1 => "\"text\"".to_owned(),
                _ => format!("{{{}}}", body.join(",")),
            };
            if cut && !text.is_empty() {
                let mut at = at % text.len();
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.truncate(at);
            }
            text
        })
    }

    /// A valid id, type, source and target, so the checks after them run too.
    fn valid_frame() -> impl Strategy<Value = String> {
        let rest = (value(), value(), value(), value());
        (rest, "[a-z]{1,8}", "[\\PC]{0,12}").prop_map(
            |((timestamp, network, payload, metadata), name, text)| {
                format!(
                    r#"{{"id":"01HQV2WA000000000000000000","type":"chat.{name}","source":"agent:{name}","target":"agent:b","timestamp":{timestamp},"network":{network},"payload":{payload},"metadata":{metadata},"text":{}}}"#,
                    Value::from(text)
                )
            },
        )
    }

    fn through_a_value(text: &str, limits: &Limits) -> Result<Event, DecodeError> {
        serde_json::from_str::<Value>(text)
            .map_err(|e| DecodeError::Malformed(e.to_string()))
            .and_then(|value| Event::from_value(value, limits))
    }

    proptest! {
        // Cheap cases, and each field's rarer values need many to meet the others.
        #![proptest_config(ProptestConfig::with_cases(4096))]
        #[test]
        fn decoding_a_frame_matches_decoding_its_parsed_value(
            text in prop_oneof![frame(), valid_frame()],
            tight in any::<bool>(),
        ) {
            let mut limits = Limits::default();
            if tight {
                limits.max_payload_bytes = 20;
                limits.max_metadata_bytes = 20;
                limits.max_type_len = 12;
            }
            prop_assert_eq!(Event::decode(&text, &limits), through_a_value(&text, &limits));
        }
    }
}
