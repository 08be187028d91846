//! The acknowledgement of an accepted event, kept typed until a host sends it.
//!
//! Every accepted event is answered with a `network.event.ack` from `core`
//! (`payload: {id, seq}`, `metadata.in_reply_to`). An [`Ack`] holds those
//! facts in fixed fields; [`Ack::encode`] writes exactly the text
//! [`Ack::to_event`]`.encode()` would, straight from them, and
//! [`Ack::to_event`] gives the event for hosts that answer with it (HTTP) or
//! inspect it (tests).

use crate::event::Event;
use crate::event::text::{write_address, write_str, write_u64};
use crate::event::trace::TraceContext;
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use serde_json::{Map, Value};

/// A `network.event.ack` for the event `acknowledged`, to its source `to`.
#[derive(Debug, Clone, PartialEq)]
pub struct Ack {
    /// The ack's own event id.
    pub id: EventId,
    /// The acknowledged event's source.
    pub to: Address,
    /// The acknowledged event (`payload.id` and `metadata.in_reply_to`).
    pub acknowledged: EventId,
    /// Its sequence number, when it was logged (`payload.seq`).
    pub seq: Option<u64>,
    /// The event was a resubmission of one already accepted (`payload.duplicate`).
    pub duplicate: bool,
    /// The trace context the acknowledged event's trace gives its ack, if any.
    pub trace: Option<TraceContext>,
    /// Fields a handler adds to the payload (`member`, `resume_after`, …).
    pub extra: Map<String, Value>,
    /// When the network sent it.
    pub timestamp: Timestamp,
    /// The network it is from.
    pub network: NetworkId,
}

impl Ack {
    /// The ack as an event.
    pub fn to_event(&self) -> Event {
        let mut payload = self.extra.clone();
        if self.duplicate {
            payload.insert("duplicate".into(), Value::Bool(true));
        }
        payload.insert("id".into(), self.acknowledged.to_json());
        if let Some(seq) = self.seq {
            payload.insert("seq".into(), Value::from(seq));
        }
        let mut metadata = Map::new();
        metadata.insert("in_reply_to".into(), self.acknowledged.to_json());
        if let Some(trace) = &self.trace {
            trace.write(&mut metadata);
        }
        Event {
            id: self.id,
            event_type: EventType::from_static(core_types::EVENT_ACK),
            source: Address::core(),
            target: self.to.clone(),
            payload: Value::Object(payload),
            metadata,
            enrichment: None,
            timestamp: self.timestamp,
            network: Some(self.network.clone()),
        }
    }

    /// The ack's JSON text: byte for byte what `self.to_event().encode()` gives.
    pub fn encode(&self) -> String {
        if !self.extra.is_empty() || self.trace.is_some() {
            return self.to_event().encode();
        }
        let id = self.acknowledged.digits();
        let mut out = Vec::with_capacity(256);
        out.extend_from_slice(b"{\"id\":\"");
        out.extend_from_slice(&self.id.digits());
        out.extend_from_slice(b"\",\"type\":\"network.event.ack\",\"source\":\"core\",\"target\":");
        write_address(&mut out, &self.to);
        out.extend_from_slice(b",\"payload\":{");
        if self.duplicate {
            out.extend_from_slice(b"\"duplicate\":true,");
        }
        out.extend_from_slice(b"\"id\":\"");
        out.extend_from_slice(&id);
        out.push(b'"');
        if let Some(seq) = self.seq {
            out.extend_from_slice(b",\"seq\":");
            write_u64(&mut out, seq);
        }
        out.extend_from_slice(b"},\"metadata\":{\"in_reply_to\":\"");
        out.extend_from_slice(&id);
        out.extend_from_slice(b"\"},\"timestamp\":");
        write_u64(&mut out, self.timestamp.as_millis());
        out.extend_from_slice(b",\"network\":");
        write_str(&mut out, &[self.network.as_str()]);
        out.push(b'}');
        // Only UTF-8 was written: ASCII literals, digits and string slices.
        String::from_utf8(out).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn ack(seq: Option<u64>, duplicate: bool, extra: Map<String, Value>) -> Ack {
        Ack {
            id: "01HQV2WA00000000000000000A".parse().unwrap(),
            to: "agent:alice".parse().unwrap(),
            acknowledged: "01HQV2WA00000000000000000B".parse().unwrap(),
            seq,
            duplicate,
            trace: None,
            extra,
            timestamp: Timestamp::from_millis(1_709_337_600_000),
            network: "demo".parse().unwrap(),
        }
    }

    #[test]
    fn an_ack_is_the_network_event_ack_of_seed_000() {
        let event = ack(Some(7), false, Map::new()).to_event();
        assert_eq!(
            serde_json::from_str::<Value>(&event.encode()).unwrap(),
            json!({
                "id": "01HQV2WA00000000000000000A",
                "type": "network.event.ack",
                "source": "core",
                "target": "agent:alice",
                "payload": {"id": "01HQV2WA00000000000000000B", "seq": 7},
                "metadata": {"in_reply_to": "01HQV2WA00000000000000000B"},
                "timestamp": 1_709_337_600_000u64,
                "network": "demo"
            })
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever it holds, the typed encoding is the event's encoding.
        #[test]
        fn encode_is_the_events_encoding(
            seq in proptest::option::of(any::<u64>()),
            duplicate in any::<bool>(),
            extra in proptest::collection::btree_map("[a-z_]{1,12}", any::<u32>(), 0..3),
            to in "(agent:[a-z0-9_-]{1,12}|human:[a-z]{1,8}|openagents:[a-z]{1,8}|[a-z]{1,6}::agent:[a-z]{1,6})",
            timestamp in any::<u64>(),
        ) {
            let mut ack = ack(seq, duplicate, extra.into_iter().map(|(k, v)| (k, json!(v))).collect());
            ack.to = to.parse().unwrap();
            ack.timestamp = Timestamp::from_millis(timestamp);
            prop_assert_eq!(ack.encode(), ack.to_event().encode());
        }
    }
}
