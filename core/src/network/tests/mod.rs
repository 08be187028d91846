//! Unit tests of the network: one file per area, shared helpers here.

mod access;
mod admin;
mod admin_offers;
mod agent_mods;
mod attachments;
mod discovery;
mod documents_elsewhere;
mod durable;
mod forgery;
mod graph;
mod hardening;
mod invitations;
mod kinds;
mod lifecycle;
#[cfg(feature = "documents")]
mod limits;
mod load;
mod mods;
mod payload_shapes;
mod profile;
#[cfg(feature = "documents")]
mod reregister;
mod retention;
mod routing;
mod search;
mod stored_files;
mod task_answers;
mod tasks;
mod trace;
mod typing;
mod wakeup;
mod workspace;
mod workspace_agent_runs;
mod workspace_approvals;
mod workspace_edits;
mod workspace_reactions;

use super::*;
use crate::client::Client;
use crate::error::ErrorCode;
use crate::ids::standing::{Role, Verification};
use crate::model::config::ModConfig;
use crate::model::config::*;
use crate::model::membership::{Member, Presence};
use crate::model::state::*;
use kinds::*;
use serde_json::json;

pub(super) fn addr(s: &str) -> Address {
    s.parse().unwrap()
}

pub(super) fn network_with(mods: Vec<ModConfig>) -> Network {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.mods = mods;
    config.masters = vec![addr("agent:boss")];
    Network::new(config, [], 0, [9; 32])
}

pub(super) fn bare() -> Network {
    network_with(Vec::new())
}

/// A network without mods that `name` joined first, and `name`'s peer.
pub(super) fn bare_with(name: &str) -> (Network, Peer) {
    let mut network = bare();
    let peer = join(&mut network, name);
    (network, peer)
}

/// A test participant: a core client plus its address.
pub(super) struct Peer {
    pub client: Client,
    pub address: Address,
}

impl Peer {
    pub fn new(name: &str) -> Self {
        // Each peer needs its own id stream, as real clients seeded from their RNG have.
        let mut seed = [3u8; 32];
        for (slot, byte) in seed.iter_mut().zip(name.bytes()) {
            *slot = byte;
        }
        Self {
            client: Client::new(addr(name), "demo".parse().unwrap(), seed),
            address: addr(name),
        }
    }

    pub fn event(&mut self, kind: &str, target: &str, payload: Value) -> Event {
        self.client.event(
            kind.parse().unwrap(),
            addr(target),
            payload,
            Timestamp::from(10),
        )
    }

    /// A `chat.msg` to `target` that claims what only the network may say:
    /// a master's role at level 3 (`metadata.sender`) and a receive time.
    pub fn forged_chat(&mut self, target: &str) -> Event {
        let mut forged = self.event("chat.msg", target, json!({}));
        forged.metadata.insert(
            "sender".into(),
            json!({"role": "master", "verification": 3}),
        );
        forged.metadata.insert("received_at".into(), json!(1));
        forged
    }

    pub fn send(
        &mut self,
        network: &mut Network,
        kind: &str,
        target: &str,
        payload: Value,
    ) -> Vec<Effect> {
        let event = self.event(kind, target, payload);
        network.handle_event(Some(&self.address.clone()), event, Timestamp::from(10))
    }

    /// Sends to everyone, `agent:broadcast`.
    pub fn broadcast(&mut self, network: &mut Network, kind: &str, payload: Value) -> Vec<Effect> {
        self.send(network, kind, "agent:broadcast", payload)
    }

    /// Asks `core`, the network itself.
    pub fn ask(&mut self, network: &mut Network, kind: &str, payload: Value) -> Vec<Effect> {
        self.send(network, kind, "core", payload)
    }

    /// Registers a resource: `payload` holds its `address` and the rest of
    /// its fields.
    pub fn register(&mut self, network: &mut Network, payload: Value) -> Vec<Effect> {
        self.ask(network, RESOURCE_REGISTER, payload)
    }
}

pub(super) fn join(network: &mut Network, name: &str) -> Peer {
    join_with(network, name, json!({}))
}

/// Joins each of `names` in order; their peers, in the same order.
pub(super) fn join_all<const N: usize>(network: &mut Network, names: [&str; N]) -> [Peer; N] {
    names.map(|name| join(network, name))
}

pub(super) fn join_with(network: &mut Network, name: &str, payload: Value) -> Peer {
    join_recorded(network, name, payload).0
}

/// What the network answers `name` asking to join with `payload`, at 1.
pub(super) fn try_join(network: &mut Network, name: &str, payload: Value) -> Vec<Effect> {
    try_join_at(network, name, payload, 1)
}

/// What the network answers `name` asking to join with `payload`, at `now`.
pub(super) fn try_join_at(
    network: &mut Network,
    name: &str,
    payload: Value,
    now: u64,
) -> Vec<Effect> {
    let mut peer = Peer::new(name);
    let join = peer.event("network.agent.join", "core", payload);
    network.handle_event(None, join, Timestamp::from(now))
}

/// Joins `name`; the peer and the join's effects (for a test host that stores them).
pub(super) fn join_recorded(
    network: &mut Network,
    name: &str,
    payload: Value,
) -> (Peer, Vec<Effect>) {
    let mut peer = Peer::new(name);
    let join = peer.event("network.agent.join", "core", payload);
    let effects = network.handle_event(None, join, Timestamp::from(1));
    assert!(
        effects.contains(&Effect::Bind(addr(name))),
        "join of {name} failed: {effects:?}"
    );
    // Play the host: a new member's catch-up finds nothing to send.
    for effect in &effects {
        if let Effect::Read(request) = effect {
            assert!(
                network
                    .answer_read(request, Vec::new(), true, Timestamp::from(1))
                    .is_empty()
            );
        }
    }
    (peer, effects)
}

/// `owner` creates the private channel `name` for itself and `members`.
pub(super) fn create_private(
    network: &mut Network,
    owner: &mut Peer,
    name: &str,
    members: &[&str],
) -> Vec<Effect> {
    let payload = json!({"channel": name, "private": true, "members": members});
    owner.ask(network, CHANNEL_CREATE, payload)
}

/// The error code of a single error reply.
pub(super) fn error_code(effects: &[Effect]) -> ErrorCode {
    match effects {
        [Effect::Reply(e)] if e.event_type.as_str() == core_types::EVENT_ERROR => {
            serde_json::from_value(e.payload["code"].clone()).unwrap()
        }
        other => panic!("expected one error reply, got {other:#?}"),
    }
}

pub(super) fn delivered_to(effects: &[Effect]) -> Vec<String> {
    let mut to: Vec<String> = effects
        .iter()
        .flat_map(|e| match e {
            Effect::Deliver { to, .. } => to.iter().map(ToString::to_string).collect(),
            _ => Vec::new(),
        })
        .collect();
    to.sort();
    to
}

/// The events `effects` append to the log, in order.
pub(super) fn appended(effects: &[Effect]) -> Vec<&Event> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Append { event, .. } => Some(&**event),
            _ => None,
        })
        .collect()
}

/// The first event `effects` deliver.
pub(super) fn first_delivered(effects: &[Effect]) -> &Event {
    let delivered = effects.iter().find_map(|e| match e {
        Effect::Deliver { event, .. } => Some(&**event),
        _ => None,
    });
    delivered.unwrap_or_else(|| panic!("nothing delivered in {effects:#?}"))
}

/// The one delivery among `effects` and the JSON its single recipient receives.
pub(super) fn single_frame(effects: &[Effect]) -> (&Effect, Value) {
    let deliver = effects
        .iter()
        .find(|e| matches!(e, Effect::Deliver { .. }))
        .unwrap_or_else(|| panic!("no delivery in {effects:#?}"));
    let [(_, frame)] = &deliver.frames()[..] else {
        panic!("not one recipient: {deliver:?}")
    };
    (deliver, serde_json::from_str(frame).unwrap())
}

pub(super) fn reply_of_type(effects: &[Effect], kind: &str) -> Event {
    effects
        .iter()
        .filter_map(Effect::reply)
        .find(|ev| ev.event_type.as_str() == kind)
        .unwrap_or_else(|| panic!("no {kind} reply in {effects:#?}"))
        .into_owned()
}

/// The row of a master seeded as a host seeds a new invite network's first member.
pub(super) fn master_row(name: &str) -> Member {
    member_row(name, Role::Master)
}

/// The row of an anonymous member `name` with `role`, online and never seen.
pub(super) fn member_row(name: &str, role: Role) -> Member {
    Member {
        role,
        ..Member::new(
            addr(name),
            Verification::ANONYMOUS,
            Presence::Online,
            Timestamp::EPOCH,
        )
    }
}

pub(super) fn acked(effects: &[Effect]) -> Event {
    reply_of_type(effects, core_types::EVENT_ACK)
}
