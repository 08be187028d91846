//! The payloads of the network's answers, as types: what `core` sends back in
//! `network.*` events (the roster, resource listings and reads, history pages,
//! errors, acks, challenges, pongs) and the network profile of ONM §9.
//!
//! The network's handlers build these structs and the clients read them back
//! (see `crate::answers`), so each shape is defined once. Fields are declared
//! in the order `serde_json` writes an object's keys (sorted), so a struct
//! serialized directly gives the same text as its `serde_json::Value`, and
//! every `Option` without `skip_serializing_if` is written as `null`, as the
//! handlers always did. [`Payload::to_json`] gives the event payload.
//!
//! Reading is forgiving where a newer network may say more: unknown fields
//! are ignored, and an entry of a list of members, resources or channels that
//! does not read is skipped rather than failing the whole answer.

use crate::error::ErrorCode;
use crate::event::Event;
use crate::ids::address::{Address, ResourceKind};
use crate::ids::event_type::core_types as t;
use crate::ids::network_id::NetworkId;
use crate::ids::standing::{Role, Verification};
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::model::access::Permission;
use crate::model::config::{AccessPolicy, DeliveryMode, NetworkStatus};
use crate::model::membership::{Member, Presence};
use crate::model::profile::Profile;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The payload of one kind of answer from `core`.
pub trait Payload: Serialize + DeserializeOwned {
    /// The type of the event that carries it (`network.agent.discover.response`, …).
    const EVENT_TYPE: &'static str;

    /// The payload as an event's JSON payload.
    fn to_json(&self) -> Value {
        json_of(self)
    }
}

/// Implements [`Payload`] for each payload type named, with the event type
/// that carries it: `Type => EVENT_TYPE,`.
macro_rules! carried_by {
    ($($payload:ty => $event_type:expr,)*) => {$(
        impl $crate::model::payloads::Payload for $payload {
            const EVENT_TYPE: &'static str = $event_type;
        }
    )*};
}

pub(crate) use carried_by;

// The answers of `core`, each with the event that carries it.
carried_by! {
    Roster => t::AGENT_DISCOVER_RESPONSE,
    ResourceList => t::RESOURCE_DISCOVER_RESPONSE,
    ResourceContent => t::RESOURCE_READ_RESPONSE,
    EventsPage => t::EVENTS_RESPONSE,
    ErrorPayload => t::EVENT_ERROR,
    AckPayload => t::EVENT_ACK,
    Challenge => t::AGENT_CHALLENGE_RESPONSE,
    Pong => t::PONG,
}

/// Any of these types as JSON. They hold only strings, numbers, lists and
/// string-keyed maps, so converting them cannot fail.
pub fn json_of<T: Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A list whose entries that do not read are left out (see the module docs).
fn readable<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let items = Vec::<Value>::deserialize(deserializer)?;
    Ok(items
        .iter()
        .filter_map(|item| T::deserialize(item).ok())
        .collect())
}

/// An error code, where a code this version does not know reads as
/// `malformed_event` so a newer network never breaks a client.
fn lenient_code<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ErrorCode, D::Error> {
    let value = Value::deserialize(deserializer)?;
    match value {
        Value::String(_) => Ok(ErrorCode::deserialize(&value).unwrap_or(ErrorCode::MalformedEvent)),
        _ => Err(serde::de::Error::custom("code must be a string")),
    }
}

/// One member in the roster: `{address, role, status, verification}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RosterMember {
    /// The member's address.
    pub address: Address,
    /// Master, member or observer.
    pub role: Role,
    /// Online or offline.
    pub status: Presence,
    /// Verification level 0–3.
    pub verification: Verification,
    /// The DID the member's join proved, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did: Option<String>,
    /// What the member says about itself, when it said anything.
    #[serde(default, skip_serializing_if = "Profile::is_empty")]
    pub profile: Profile,
}

impl From<&Member> for RosterMember {
    fn from(m: &Member) -> Self {
        Self {
            address: m.address.clone(),
            role: m.role,
            status: m.status,
            verification: m.verification,
            did: m.did.clone(),
            profile: m.profile.clone(),
        }
    }
}

/// One resource in the roster: `{address, owner, type}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RosterResource {
    /// `resource/{type}/{name}`.
    pub address: Address,
    /// The member that registered it.
    pub owner: Address,
    /// Tool, file or context.
    #[serde(rename = "type")]
    pub kind: ResourceKind,
}

/// The roster of ONM §9: the `network.agent.discover.response` payload
/// (also `GET /v1/discover`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Roster {
    /// Every member, by address.
    #[serde(default, deserialize_with = "readable")]
    pub agents: Vec<RosterMember>,
    /// Every channel, as `channel/{name}`.
    #[serde(default, deserialize_with = "readable")]
    pub channels: Vec<Address>,
    /// The channels' display names (`channel/{name}` → the name its creator
    /// typed), for those that have one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub titles: BTreeMap<String, String>,
    /// Every group (`group/{name}`) with its members.
    #[serde(default)]
    pub groups: BTreeMap<String, Vec<Address>>,
    /// The loaded mods, in pipeline order.
    #[serde(default)]
    pub mods: Vec<Address>,
    /// Every resource.
    #[serde(default, deserialize_with = "readable")]
    pub resources: Vec<RosterResource>,
}

/// One resource the asker may read, with what it may do: an entry of
/// [`ResourceList`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ResourceInfo {
    /// `resource/{type}/{name}`.
    pub address: Address,
    /// Files: the MIME type (`null` when none was given).
    #[serde(default)]
    pub content_type: Option<String>,
    /// What it is, for people and agents.
    #[serde(default)]
    pub description: String,
    /// The member that registered it.
    pub owner: Address,
    /// Tools: the input schema (`null` when none).
    #[serde(default)]
    pub schema: Option<Value>,
    /// Tool, file or context.
    #[serde(rename = "type")]
    pub kind: ResourceKind,
    /// What the asker may do with it, in the order read, write, invoke, admin.
    #[serde(default)]
    pub your_permissions: Vec<Permission>,
}

/// The `network.resource.discover.response` payload: `{resources: [...]}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ResourceList {
    /// The resources the asker may read, by address.
    #[serde(default, deserialize_with = "readable")]
    pub resources: Vec<ResourceInfo>,
}

/// The `network.resource.read.response` payload: a resource and its content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ResourceContent {
    /// `resource/{type}/{name}`.
    pub address: Address,
    /// The content: a document's text, structured JSON, or `null` (tools).
    #[serde(default)]
    pub content: Option<Value>,
    /// The MIME type (`null` when none was given).
    #[serde(default)]
    pub content_type: Option<String>,
    /// What it is.
    #[serde(default)]
    pub description: String,
    /// The member that registered it.
    pub owner: Address,
    /// Tools: the input schema (`null` when none).
    #[serde(default)]
    pub schema: Option<Value>,
    /// Tool, file or context.
    #[serde(rename = "type")]
    pub kind: ResourceKind,
}

/// One logged event of an [`EventsPage`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LoggedEvent {
    /// The event.
    pub event: Event,
    /// Its sequence number in the network's log.
    pub seq: u64,
}

/// A page of the log: the `network.events.response` payload (and the HTTP
/// binding's pages): `{events: [{seq, event}], next_after, has_more}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EventsPage {
    /// The visible events, in `seq` order.
    pub events: Vec<LoggedEvent>,
    /// True when the log may hold more after `next_after`.
    pub has_more: bool,
    /// The cursor to read on from: the last row read, visible or not.
    pub next_after: u64,
}

/// The `network.event.error` payload: `{code, message, event_id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ErrorPayload {
    /// The stable code (an unknown one reads as `malformed_event`).
    #[serde(deserialize_with = "lenient_code")]
    pub code: ErrorCode,
    /// The refused event, when its id could be read (`null` otherwise).
    #[serde(default)]
    pub event_id: Option<EventId>,
    /// Explanation for people.
    #[serde(default)]
    pub message: String,
}

/// The `network.event.ack` payload: the acknowledged event's `id`, its `seq`
/// when logged, and what the handler added (a joiner's `member`, a new
/// channel's address, an invitation's `code`, …). Absent fields are omitted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Ack"))]
pub struct AckPayload {
    /// A registered resource's address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<Address>,
    /// A new channel, as `channel/{name}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<Address>,
    /// An invitation's code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The event was a resubmission of one already accepted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub duplicate: bool,
    /// When the invitation expires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<Timestamp>,
    /// The acknowledged event.
    pub id: EventId,
    /// A joiner's membership record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<Member>,
    /// The network joined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<NetworkId>,
    /// Where a joiner's delivery resumes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_after: Option<u64>,
    /// The acknowledged event's sequence number, when it was logged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
}

/// The `network.agent.challenge.response` payload: a nonce to sign for a key proof.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Challenge {
    /// The address the proof is for.
    pub address: Address,
    /// When the nonce expires.
    pub expires_at: Timestamp,
    /// The network that issued it.
    pub network: NetworkId,
    /// The nonce (hex).
    pub nonce: String,
}

/// The `network.pong` payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Pong {
    /// The network's time.
    pub time: Timestamp,
}

/// The access section of a [`NetworkProfile`] (no secrets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ProfileAccess {
    /// Lowest verification level accepted at join.
    pub min_verification: Verification,
    /// The join policy.
    pub policy: AccessPolicy,
}

/// One way to reach a network, as its host offers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Transport {
    /// Where: a URL.
    pub endpoint: String,
    /// `http`, `websocket`, `sse`, …
    #[serde(rename = "type")]
    pub kind: String,
}

/// The network profile of ONM §9 (`GET /v1/profile`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NetworkProfile {
    /// Who may join.
    pub access: ProfileAccess,
    /// How many members are online now.
    pub agents_online: u64,
    /// The event families it handles (`network.agent`, `workspace.message`, …).
    pub capabilities: Vec<String>,
    /// Its delivery guarantee.
    pub delivery: DeliveryMode,
    /// `metadata.description` of its configuration (empty when none).
    #[serde(default)]
    pub description: String,
    /// The network id.
    pub id: NetworkId,
    /// How many members it has, online or not (the Directory shows it).
    #[serde(default)]
    pub members: u64,
    /// The loaded mods, in pipeline order.
    #[serde(default)]
    pub mods: Vec<Address>,
    /// Its name.
    pub name: String,
    /// Active, paused or archived.
    pub status: NetworkStatus,
    /// How to reach it, from the host.
    #[serde(default, deserialize_with = "readable")]
    pub transports: Vec<Transport>,
}

#[cfg(test)]
mod tests;
