//! The participant side: building well-formed events and reading the network's answers.
//!
//! Both the browser workspace and the npm package use a [`Client`] so that
//! every event they send is made by the same code the network validates
//! with. Like the rest of the core it never reads a clock: the caller
//! passes `now` in milliseconds.

use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use crate::ids::ulid::{EventId, UlidGenerator};
use crate::model::received::AckRead;
use serde_json::{Map, Value, json};

/// A participant's view of one network: its own address and an id generator.
#[derive(Debug, Clone)]
pub struct Client {
    address: Address,
    network: NetworkId,
    ids: UlidGenerator,
}

/// What a frame from the network means to the participant.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// The network accepted event `id` (with its sequence number for logged events).
    Ack {
        /// The acknowledged event.
        id: EventId,
        /// Its sequence number, when it entered the log.
        seq: Option<u64>,
    },
    /// The network rejected the event `in_reply_to` (or the frame, when `None`).
    Error {
        /// The rejected event, when known.
        in_reply_to: Option<EventId>,
        /// Why.
        rejection: Rejection,
    },
    /// Any other event.
    Event(Box<Event>),
}

impl Client {
    /// A client for `address` in `network`, with `seed` as id randomness.
    pub fn new(address: Address, network: NetworkId, seed: [u8; 32]) -> Self {
        Self {
            address,
            network,
            ids: UlidGenerator::new(seed),
        }
    }

    /// The participant's own address.
    pub fn address(&self) -> &Address {
        &self.address
    }

    /// The network this client talks to.
    pub fn network(&self) -> &NetworkId {
        &self.network
    }

    /// A new random secret (64 hex characters) from the client's randomness.
    pub fn random_secret(&mut self) -> String {
        format!(
            "{}{}",
            crate::crypto::to_hex(&self.ids.random_bytes()),
            crate::crypto::to_hex(&self.ids.random_bytes())
        )
    }

    /// A new event from this participant.
    pub fn event(
        &mut self,
        event_type: EventType,
        target: Address,
        payload: Value,
        now: Timestamp,
    ) -> Event {
        Event {
            id: self.ids.next_id(now),
            event_type,
            source: self.address.clone(),
            target,
            payload,
            metadata: Map::new(),
            enrichment: None,
            timestamp: now,
            network: Some(self.network.clone()),
        }
    }

    /// The `network.agent.join` event, with optional credentials.
    pub fn join(&mut self, credentials: Option<Value>, now: Timestamp) -> Event {
        let payload = match credentials {
            Some(c) => json!({ "credentials": c }),
            None => json!({}),
        };
        self.event(
            EventType::from_static(core_types::AGENT_JOIN),
            Address::core(),
            payload,
            now,
        )
    }

    /// Classifies an event received from the network.
    pub fn interpret(&self, event: Event) -> Incoming {
        let from_core = matches!(event.source.entity(), crate::ids::address::Entity::Core);
        match event.event_type.as_str() {
            core_types::EVENT_ACK if from_core => {
                let ack = AckRead::of(&event.payload);
                match ack.id.given() {
                    Some(id) => Incoming::Ack {
                        id,
                        seq: ack.seq.given(),
                    },
                    None => Incoming::Event(Box::new(event)),
                }
            }
            core_types::EVENT_ERROR if from_core => Incoming::Error {
                in_reply_to: event.in_reply_to(),
                rejection: Rejection::from_error_payload(&event.payload),
            },
            _ => Incoming::Event(Box::new(event)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use crate::model::config::NetworkConfig;
    use crate::network::{Effect, Network};

    #[test]
    fn client_events_pass_the_network_and_acks_are_understood() {
        let id: NetworkId = "demo".parse().unwrap();
        let mut network = Network::new(NetworkConfig::open(id.clone(), "Demo"), [], 0, [1; 32]);
        let alice: Address = "agent:alice".parse().unwrap();
        let mut client = Client::new(alice.clone(), id, [2; 32]);
        let received = |text: &str| Event::decode(text, &Default::default()).unwrap();
        let acked = |id, seq| Incoming::Ack { id, seq: Some(seq) };
        let join = client.join(None, Timestamp::from(10));
        let effects = network.handle_frame(None, &join.encode(), Timestamp::from(10));
        let Some(ack) = effects.iter().find_map(|e| match e {
            Effect::Ack(ack) => Some(ack),
            _ => None,
        }) else {
            panic!("{effects:?}")
        };
        assert_eq!(client.interpret(received(&ack.encode())), acked(join.id, 1));

        let posted = client.event(
            "workspace.message.posted".parse().unwrap(),
            Address::broadcast(),
            json!({"text": "hi"}),
            Timestamp::from(11),
        );
        let effects = network.handle_frame(Some(&alice), &posted.encode(), Timestamp::from(11));
        let Some(Effect::Ack(ack)) = effects.last() else {
            panic!("{effects:?}")
        };
        assert_eq!(
            client.interpret(received(&ack.encode())),
            acked(posted.id, 2)
        );

        let bad = client.event(
            "workspace.message.posted".parse().unwrap(),
            "agent:nobody".parse().unwrap(),
            json!({}),
            Timestamp::from(12),
        );
        let effects = network.handle_frame(Some(&alice), &bad.encode(), Timestamp::from(12));
        let Some(Effect::Reply(err)) = effects.last() else {
            panic!("{effects:?}")
        };
        match client.interpret(err.clone()) {
            Incoming::Error {
                in_reply_to,
                rejection,
            } => {
                assert_eq!(in_reply_to, Some(bad.id));
                assert_eq!(rejection.code, ErrorCode::UnknownTarget);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn acks_not_from_core_are_ordinary_events() {
        let client = Client::new("agent:a".parse().unwrap(), "n".parse().unwrap(), [0; 32]);
        let mut forged = Client::new("agent:b".parse().unwrap(), "n".parse().unwrap(), [0; 32]);
        let e = forged.event(
            "network.event.ack".parse().unwrap(),
            "agent:a".parse().unwrap(),
            json!({"id": "01HQV2WA000000000000000000"}),
            Timestamp::from(1),
        );
        assert!(matches!(client.interpret(e), Incoming::Event(_)));
    }
}
