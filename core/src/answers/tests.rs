//! Tests of reading answers: real answers from a network read as their types
//! and write back as the same JSON; arbitrary JSON never panics and a
//! malformed payload is `malformed_event`.

use super::*;
use crate::Timestamp;
use crate::client::Client;
use crate::event::tests::json_tree;
use crate::host::memory::MemoryHost;
use crate::ids::event_type::EventType;
use crate::model::config::{ModConfig, NetworkConfig};
use crate::model::payloads::{Transport, json_of};
use crate::network::{Effect, Network};
use proptest::prelude::*;
use serde_json::json;

/// A network with history, alice joined, and the host answering reads.
struct Fixture {
    network: Network,
    host: MemoryHost,
    alice: Client,
    now: u64,
}

impl Fixture {
    fn new() -> Self {
        let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
        config.mods = vec![
            ModConfig::Workspace(Default::default()),
            ModConfig::Persistence,
        ];
        let mut fixture = Self {
            network: Network::new(config, [], 0, [3; 32]),
            host: MemoryHost::default(),
            alice: Client::new(
                "agent:alice".parse().unwrap(),
                "demo".parse().unwrap(),
                [4; 32],
            ),
            now: 1_000,
        };
        let join = fixture.alice.join(None, Timestamp::from(fixture.now));
        fixture.send_event(join);
        fixture
    }

    fn send_event(&mut self, event: Event) -> Vec<Effect> {
        self.now += 1;
        let source = event.source.clone();
        let effects = self
            .network
            .handle_event(Some(&source), event, Timestamp::from(self.now));
        self.host
            .apply(&mut self.network, effects, Timestamp::from(self.now))
    }

    /// Sends an event from alice; returns what answered it (reply, delivery or ack) as an event.
    fn ask(&mut self, event_type: &str, target: &str, payload: Value) -> Event {
        let event = self.alice.event(
            event_type.parse::<EventType>().unwrap(),
            target.parse().unwrap(),
            payload,
            Timestamp::from(self.now),
        );
        let id = event.id;
        self.send_event(event)
            .into_iter()
            .find_map(|effect| match effect {
                Effect::Reply(e) if e.in_reply_to() == Some(id) => Some(e),
                Effect::Deliver { event, .. } if event.in_reply_to() == Some(id) => {
                    Some((*event).clone())
                }
                Effect::Ack(ack) if ack.acknowledged == id => Some(ack.to_event()),
                _ => None,
            })
            .unwrap()
    }
}

/// `event` reads as `P`, and `P` writes exactly the payload the network sent.
fn reads_back<P: Payload + std::fmt::Debug>(event: &Event) -> P {
    let typed: P = read(event).unwrap();
    assert_eq!(json_of(&typed), event.payload, "{}", event.event_type);
    assert_eq!(
        read_answer(event).map(|a| json_of(&a)),
        Ok(event.payload.clone())
    );
    typed
}

#[test]
fn every_answer_of_a_real_network_reads_as_its_type_and_back() {
    let mut f = Fixture::new();
    let ack = f.ask(
        "network.resource.register",
        "core",
        json!({"address": "resource/tool/calc", "description": "adds", "schema": {"type": "object"}}),
    );
    let ack: AckPayload = reads_back(&ack);
    assert_eq!(ack.address, Some("resource/tool/calc".parse().unwrap()));
    let channel = f.ask("network.channel.create", "core", json!({"channel": "room"}));
    let channel: AckPayload = reads_back(&channel);
    assert_eq!(channel.channel, Some("channel/room".parse().unwrap()));

    let roster: Roster = reads_back(&f.ask("network.agent.discover", "core", json!({})));
    assert_eq!(roster.agents[0].address.to_string(), "agent:alice");
    assert_eq!(roster.channels[0].to_string(), "channel/room");
    let listed: ResourceList = reads_back(&f.ask("network.resource.discover", "core", json!({})));
    assert_eq!(listed.resources[0].your_permissions.len(), 4);
    let read_back: ResourceContent =
        reads_back(&f.ask("network.resource.read", "resource/tool/calc", json!({})));
    assert_eq!(read_back.schema, Some(json!({"type": "object"})));
    let pong: Pong = reads_back(&f.ask("network.ping", "core", json!({})));
    assert!(pong.time > Timestamp::from_millis(1_000));
    let page: EventsPage = reads_back(&f.ask("network.events.query", "core", json!({})));
    assert!(!page.events.is_empty());
    let error = f.ask(
        "network.channel.delete",
        "core",
        json!({"channel": "nowhere"}),
    );
    let payload: ErrorPayload = reads_back(&error);
    assert_eq!(payload.code, ErrorCode::UnknownTarget);
    assert!(payload.event_id.is_some());
    // Asked for a roster, an error is the network's rejection, with its code.
    let err = read::<Roster>(&error).unwrap_err();
    assert_eq!(err.code(), ErrorCode::UnknownTarget);
    assert!(matches!(err, AnswerError::Rejected(_)));
    // Asked for a roster, a pong is the wrong answer.
    let pong = f.ask("network.ping", "core", json!({}));
    assert_eq!(
        read::<Roster>(&pong).unwrap_err(),
        AnswerError::UnexpectedType {
            expected: "network.agent.discover.response",
            found: "network.pong".into()
        }
    );
}

#[test]
fn the_profile_reads_as_its_type_and_back() {
    let f = Fixture::new();
    let transports = vec![Transport {
        endpoint: "ws://x/networks/demo/v1/ws".into(),
        kind: "websocket".into(),
    }];
    let profile = json_of(&f.network.network_profile(transports.clone()));
    let typed = read_profile(&profile).unwrap();
    assert_eq!(json_of(&typed), profile);
    assert_eq!(typed.agents_online, 1);
    assert_eq!(typed.transports, transports);
    assert_eq!(
        profile["transports"],
        json!([{"endpoint": "ws://x/networks/demo/v1/ws", "type": "websocket"}])
    );
    assert_eq!(
        read_profile(&json!({"id": "demo"})).unwrap_err().code(),
        ErrorCode::MalformedEvent
    );
}

#[test]
fn a_malformed_payload_is_malformed_event() {
    let mut f = Fixture::new();
    let mut roster = f.ask("network.agent.discover", "core", json!({}));
    roster.payload = json!({"agents": "everyone"});
    let err = read::<Roster>(&roster).unwrap_err();
    assert_eq!(err.code(), ErrorCode::MalformedEvent);
    assert!(err.to_string().contains("network.agent.discover.response"));
    roster.payload = json!([1, 2]);
    assert_eq!(
        read_answer(&roster).unwrap_err().code(),
        ErrorCode::MalformedEvent
    );
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-z:/_.]{0,12}".prop_map(Value::String),
        Just(json!("agent:alice")),
        Just(json!("resource/tool/calc")),
        Just(json!("01HQV2WA00000000000000000A")),
    ];
    let names = &[
        "agents",
        "resources",
        "events",
        "address",
        "type",
        "owner",
        "code",
        "id",
    ];
    json_tree(leaf, names, "[a-z_]{1,8}")
}

const ANSWER_TYPES: [&str; 9] = [
    "network.agent.discover.response",
    "network.resource.discover.response",
    "network.resource.read.response",
    "network.events.response",
    "network.event.error",
    "network.event.ack",
    "network.agent.challenge.response",
    "network.pong",
    "chat.message",
];

fn event_of(event_type: &str, payload: Value) -> Event {
    Event {
        id: "01HQV2WA00000000000000000A".parse().unwrap(),
        event_type: event_type.parse().unwrap(),
        source: Address::core(),
        target: "agent:alice".parse().unwrap(),
        payload,
        metadata: serde_json::Map::new(),
        enrichment: None,
        timestamp: Timestamp::from_millis(1),
        network: None,
    }
}

use crate::ids::address::Address;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any JSON under any answer type: no panic; what reads writes back and
    /// reads again the same; what does not read is malformed_event.
    #[test]
    fn arbitrary_payloads_never_panic(payload in any_json(), which in 0..ANSWER_TYPES.len()) {
        let event = event_of(ANSWER_TYPES[which], payload.clone());
        match read_answer(&event) {
            Ok(answer) => {
                let again = read_answer(&event_of(ANSWER_TYPES[which], json_of(&answer)));
                prop_assert_eq!(again, Ok(answer));
            }
            Err(err) => prop_assert_eq!(err.code(), ErrorCode::MalformedEvent),
        }
        let roster = read::<Roster>(&event);
        if let Err(err) = roster {
            let rejected = matches!(err, AnswerError::Rejected(_));
            prop_assert!(rejected || err.code() == ErrorCode::MalformedEvent);
        }
        let _ = read::<ResourceList>(&event);
        let _ = read::<EventsPage>(&event);
        let _ = read_profile(&payload);
    }
}
