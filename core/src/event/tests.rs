//! Tests of the event codec: decoding, encoding, limits and the fast encoder.
use super::*;
use crate::Timestamp;
use crate::error::{Coded, ErrorCode};
use crate::event::enrichment::Enrichment;
use crate::ids::ulid::EventId;
use proptest::prelude::*;
use serde_json::Value;
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

/// A number decodes to the value its text names, so re-encoding keeps it:
/// before serde_json's `float_roundtrip`, an integer beyond u64 (found by
/// the stable fuzz run, `core/fuzz/crashers/event_json/`) decoded to a
/// neighbour of its value whose text decoded to another, so the event
/// changed on every hop.
#[test]
fn numbers_survive_decoding_and_encoding_exactly() {
    for number in [
        "118446744073709551615",
        "18446744073709551616",
        "1.7976931348623157e308",
        "2.2250738585072014e-308",
        "5e-324",
        "0.30000000000000004",
        "9007199254740993",
        "123456789012345678901234567890",
    ] {
        let text = valid()
            .to_string()
            .replace(r#""content":"hello""#, &format!(r#""content":{number}"#));
        let event = Event::decode(&text, &Limits::default()).unwrap();
        let again = Event::decode(&event.encode(), &Limits::default()).unwrap();
        assert_eq!(again, event, "{number} changed");
        let expected: f64 = number.parse().unwrap();
        assert_eq!(
            event.payload["content"].as_f64(),
            Some(expected),
            "{number}"
        );
    }
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
    v["type"] = json!("a.b");
    for large in ["payload", "metadata"] {
        v["payload"] = json!({});
        v["metadata"] = json!({});
        v[large] = json!({"k": "more than ten bytes"});
        let decoded = Event::decode(&v.to_string(), &limits);
        assert!(
            matches!(decoded, Err(DecodeError::FieldTooLarge { field, .. }) if field == large),
            "{large}: {decoded:?}"
        );
    }
    v["payload"] = json!({});
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

use crate::event::enrichment::Sender;
use crate::ids::standing::{Role, Verification};
use crate::network::delivery_frame;

/// Any JSON value up to three levels deep, its leaves drawn from `leaf` and
/// its objects' keys from `names` or else the regex `other_keys`, each name
/// as likely as any other key (each test's generator picks its own).
pub(crate) fn json_tree(
    leaf: impl Strategy<Value = Value> + 'static,
    names: &'static [&'static str],
    other_keys: &'static str,
) -> impl Strategy<Value = Value> {
    let key = if names.is_empty() {
        other_keys.boxed()
    } else {
        prop_oneof![
            names.len() as u32 => proptest::sample::select(names).prop_map(str::to_owned),
            1 => other_keys,
        ]
        .boxed()
    };
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(key.clone(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "\\PC{0,12}".prop_map(Value::String),
    ];
    json_tree(leaf, &[], "[a-z_]{1,8}")
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
                received_at: Timestamp::from_millis(received_at),
            }),
            timestamp: Timestamp::from_millis(timestamp),
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
