//! The network state machine: joins members and routes their events.
//!
//! A host (the edge's Durable Object, or a test) owns one [`Network`] and
//! feeds it frames with [`Network::handle_frame`], passing the connection's
//! authenticated address and the current time. The network never does I/O:
//! it returns [`Effect`]s — events to deliver, rows to persist, connections
//! to bind — that the host applies in order.

use crate::address::{Address, Entity};
use crate::error::{ErrorCode, Rejection};
use crate::event::{Event, Limits};
use crate::event_type::{EventType, core_types};
use crate::network_id::NetworkId;
use crate::ulid::UlidGenerator;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Who may join (seed 000 §3). `invite` and `did-verify` arrive with the full model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "kebab-case")]
pub enum AccessPolicy {
    /// Anyone may join without credentials.
    Open,
    /// Joiners must present this network token.
    Token {
        /// The token joiners must present.
        token: String,
    },
}

/// A network's configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkConfig {
    /// Short, unique id.
    pub id: NetworkId,
    /// Human-readable name.
    pub name: String,
    /// Access policy.
    pub access: AccessPolicy,
    /// Size limits for incoming events.
    #[serde(default)]
    pub limits: Limits,
}

impl NetworkConfig {
    /// An open network with default limits.
    pub fn open(id: NetworkId, name: impl Into<String>) -> Self {
        Self {
            id,
            name: name.into(),
            access: AccessPolicy::Open,
            limits: Limits::default(),
        }
    }
}

/// A member's role (seed 000 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Coordinating agent.
    Master,
    /// Ordinary participant.
    Member,
    /// Receives but cannot emit.
    Observer,
}

/// A membership record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// The member's address in this network.
    pub address: Address,
    /// Its role.
    pub role: Role,
    /// Verification level 0–3.
    pub verification: u8,
    /// Whether it is connected now.
    pub online: bool,
}

/// What the host must do after an input.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send the event on the connection whose input produced it.
    Reply(Event),
    /// Send the event to every connection of member `to`.
    Deliver {
        /// Recipient member.
        to: Address,
        /// The event.
        event: Event,
    },
    /// Remember that the current connection is authenticated as this address.
    Bind(Address),
    /// Append the accepted event to the log at `seq`.
    Append {
        /// Sequence number, strictly increasing within the network.
        seq: u64,
        /// The accepted event.
        event: Event,
    },
    /// Store (insert or replace) this membership record.
    PersistMember(Member),
}

/// The network: configuration, members and the routing pipeline.
#[derive(Debug, Clone)]
pub struct Network {
    config: NetworkConfig,
    members: BTreeMap<Address, Member>,
    last_seq: u64,
    ids: UlidGenerator,
}

/// Agents may not emit these: they are the network's own answers.
const NETWORK_ONLY_TYPES: &[&str] = &[
    core_types::PONG,
    core_types::EVENT_ERROR,
    core_types::AGENT_DISCOVER_RESPONSE,
    "network.resource.discover.response",
    "network.events.response",
];

impl Network {
    /// A network restored from its configuration, stored members and last sequence number.
    ///
    /// `seed` is host randomness for the ids of events the network creates.
    pub fn new(
        config: NetworkConfig,
        members: impl IntoIterator<Item = Member>,
        last_seq: u64,
        seed: [u8; 16],
    ) -> Self {
        Self {
            config,
            members: members
                .into_iter()
                .map(|m| (m.address.clone(), m))
                .collect(),
            last_seq,
            ids: UlidGenerator::new(seed),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &NetworkConfig {
        &self.config
    }

    /// The network id.
    pub fn id(&self) -> &NetworkId {
        &self.config.id
    }

    /// The membership record of `address`.
    pub fn member(&self, address: &Address) -> Option<&Member> {
        self.members.get(address)
    }

    /// All members in address order.
    pub fn members(&self) -> impl Iterator<Item = &Member> {
        self.members.values()
    }

    /// The sequence number of the last accepted event (0 when none).
    pub fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// Handles one frame from a connection authenticated as `session` (or not yet joined).
    pub fn handle_frame(
        &mut self,
        session: Option<&Address>,
        frame: &str,
        now: u64,
    ) -> Vec<Effect> {
        match Event::decode(frame, &self.config.limits) {
            Ok(event) => self.handle_event(session, event, now),
            Err(err) => {
                let to = session.cloned().unwrap_or_else(anonymous);
                vec![Effect::Reply(self.error_event(&to, None, &err.into(), now))]
            }
        }
    }

    /// Handles one decoded event from a connection authenticated as `session`.
    pub fn handle_event(
        &mut self,
        session: Option<&Address>,
        mut event: Event,
        now: u64,
    ) -> Vec<Effect> {
        let reply_to = session.cloned().unwrap_or_else(|| event.source.clone());
        match self.accept(session, &mut event, now) {
            Ok(effects) => effects,
            Err(rejection) => vec![Effect::Reply(self.error_event(
                &reply_to,
                Some(&event),
                &rejection,
                now,
            ))],
        }
    }

    /// The connection of `address` closed and it has no other: mark it offline.
    pub fn disconnect(&mut self, address: &Address) -> Vec<Effect> {
        match self.members.get_mut(address) {
            Some(member) if member.online => {
                member.online = false;
                vec![Effect::PersistMember(member.clone())]
            }
            _ => Vec::new(),
        }
    }

    fn accept(
        &mut self,
        session: Option<&Address>,
        event: &mut Event,
        now: u64,
    ) -> Result<Vec<Effect>, Rejection> {
        match &event.network {
            Some(network) if network != &self.config.id => {
                return Err(Rejection::new(
                    ErrorCode::WrongNetwork,
                    format!("event is for network {network}, this is {}", self.config.id),
                ));
            }
            _ => event.network = Some(self.config.id.clone()),
        }
        if event.event_type.as_str() == core_types::AGENT_JOIN {
            return self.join(session, event, now);
        }
        let Some(session) = session else {
            return Err(Rejection::new(
                ErrorCode::NotJoined,
                "send network.agent.join before other events",
            ));
        };
        if &event.source != session {
            return Err(Rejection::new(
                ErrorCode::SourceMismatch,
                format!("source {} is not the joined member {session}", event.source),
            ));
        }
        if NETWORK_ONLY_TYPES.contains(&event.event_type.as_str()) {
            return Err(Rejection::new(
                ErrorCode::ReservedType,
                format!("{} is emitted only by the network", event.event_type),
            ));
        }
        match event.event_type.as_str() {
            core_types::PING => Ok(vec![Effect::Reply(self.response(
                core_types::PONG,
                event,
                json!({}),
                now,
            ))]),
            core_types::AGENT_LEAVE => {
                let mut effects = self.disconnect(session);
                effects.push(Effect::Reply(self.ack(event, None, now)));
                Ok(effects)
            }
            _ => self.route(event, now),
        }
    }

    fn join(
        &mut self,
        session: Option<&Address>,
        event: &Event,
        now: u64,
    ) -> Result<Vec<Effect>, Rejection> {
        let address = event.source.clone();
        if !address.is_local() || !address.entity().is_participant() {
            return Err(Rejection::new(
                ErrorCode::InvalidAddress,
                format!("{address} cannot join: members are agent:, human: or registered agents"),
            ));
        }
        if let Some(bound) = session
            && bound != &address
        {
            return Err(Rejection::new(
                ErrorCode::SourceMismatch,
                format!("this connection already joined as {bound}"),
            ));
        }
        if let AccessPolicy::Token { token } = &self.config.access {
            let presented = event
                .payload
                .get("credentials")
                .and_then(|c| c.get("token"))
                .and_then(Value::as_str);
            if presented != Some(token.as_str()) {
                return Err(Rejection::new(
                    ErrorCode::AccessDenied,
                    "a valid network token is required",
                ));
            }
        }
        let member = self
            .members
            .entry(address.clone())
            .or_insert_with(|| Member {
                address: address.clone(),
                role: Role::Member,
                verification: 0,
                online: true,
            });
        member.online = true;
        let member = member.clone();
        let ack = self.response(
            core_types::EVENT_ACK,
            event,
            json!({"id": event.id, "member": member, "network": self.config.id}),
            now,
        );
        Ok(vec![
            Effect::Bind(address),
            Effect::PersistMember(member),
            Effect::Reply(ack),
        ])
    }

    fn recipients(&self, event: &Event) -> Result<Vec<Address>, Rejection> {
        if !event.target.is_local() {
            return Err(Rejection::new(
                ErrorCode::CrossNetwork,
                format!(
                    "{} is in another network and no bridge is configured",
                    event.target
                ),
            ));
        }
        match event.target.entity() {
            Entity::Broadcast => Ok(self
                .members
                .keys()
                .filter(|a| **a != event.source)
                .cloned()
                .collect()),
            e if e.is_participant() => {
                if self.members.contains_key(&event.target) {
                    Ok(vec![event.target.clone()])
                } else {
                    Err(Rejection::new(
                        ErrorCode::UnknownTarget,
                        format!("{} is not a member", event.target),
                    ))
                }
            }
            _ => Err(Rejection::new(
                ErrorCode::UnknownTarget,
                format!("{} does not exist in this network", event.target),
            )),
        }
    }

    fn route(&mut self, event: &Event, now: u64) -> Result<Vec<Effect>, Rejection> {
        let recipients = self.recipients(event)?;
        self.last_seq += 1;
        let seq = self.last_seq;
        let mut effects = vec![Effect::Append {
            seq,
            event: event.clone(),
        }];
        effects.extend(recipients.into_iter().map(|to| Effect::Deliver {
            to,
            event: event.clone(),
        }));
        effects.push(Effect::Reply(self.ack(event, Some(seq), now)));
        Ok(effects)
    }

    fn ack(&mut self, event: &Event, seq: Option<u64>, now: u64) -> Event {
        let mut payload = json!({"id": event.id});
        if let Some(seq) = seq {
            payload["seq"] = json!(seq);
        }
        self.response(core_types::EVENT_ACK, event, payload, now)
    }

    fn response(
        &mut self,
        event_type: &'static str,
        request: &Event,
        payload: Value,
        now: u64,
    ) -> Event {
        let mut metadata = Map::new();
        metadata.insert("in_reply_to".into(), json!(request.id));
        Event {
            id: self.ids.next_id(now),
            event_type: EventType::from_static(event_type),
            source: Address::core(),
            target: request.source.clone(),
            payload,
            metadata,
            timestamp: now,
            network: Some(self.config.id.clone()),
        }
    }

    fn error_event(
        &mut self,
        to: &Address,
        request: Option<&Event>,
        rejection: &Rejection,
        now: u64,
    ) -> Event {
        let mut metadata = Map::new();
        if let Some(request) = request {
            metadata.insert("in_reply_to".into(), json!(request.id));
        }
        Event {
            id: self.ids.next_id(now),
            event_type: EventType::from_static(core_types::EVENT_ERROR),
            source: Address::core(),
            target: to.clone(),
            payload: json!({"code": rejection.code, "message": rejection.message}),
            metadata,
            timestamp: now,
            network: Some(self.config.id.clone()),
        }
    }
}

fn anonymous() -> Address {
    "agent:anonymous"
        .parse()
        .unwrap_or_else(|_| Address::core())
}

#[cfg(test)]
mod tests;
