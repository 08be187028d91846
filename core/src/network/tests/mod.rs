//! Unit tests of the network: one file per area, shared helpers here.

mod access;
mod admin;
mod admin_offers;
mod agent_mods;
mod attachments;
mod discovery;
mod durable;
mod forgery;
mod graph;
mod hardening;
mod invitations;
mod lifecycle;
#[cfg(feature = "documents")]
mod limits;
mod load;
mod mods;
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
        self.client
            .event(kind.parse().unwrap(), addr(target), payload, 10)
    }

    pub fn send(
        &mut self,
        network: &mut Network,
        kind: &str,
        target: &str,
        payload: Value,
    ) -> Vec<Effect> {
        let event = self.event(kind, target, payload);
        network.handle_event(Some(&self.address.clone()), event, 10)
    }
}

pub(super) fn join(network: &mut Network, name: &str) -> Peer {
    join_with(network, name, json!({}))
}

pub(super) fn join_with(network: &mut Network, name: &str, payload: Value) -> Peer {
    join_recorded(network, name, payload).0
}

/// Joins `name`; the peer and the join's effects (for a test host that stores them).
pub(super) fn join_recorded(
    network: &mut Network,
    name: &str,
    payload: Value,
) -> (Peer, Vec<Effect>) {
    let mut peer = Peer::new(name);
    let join = peer.event("network.agent.join", "core", payload);
    let effects = network.handle_event(None, join, 1);
    assert!(
        effects.contains(&Effect::Bind(addr(name))),
        "join of {name} failed: {effects:?}"
    );
    // Play the host: a new member's catch-up finds nothing to send.
    for effect in &effects {
        if let Effect::Read(request) = effect {
            assert!(network.answer_read(request, Vec::new(), true, 1).is_empty());
        }
    }
    (peer, effects)
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
    Member {
        address: addr(name),
        role: Role::Master,
        verification: Verification::ANONYMOUS,
        status: Presence::Online,
        last_seen: 0,
        secret_sha256: None,
        did: None,
        profile: Default::default(),
    }
}

pub(super) fn acked(effects: &[Effect]) -> Event {
    reply_of_type(effects, core_types::EVENT_ACK)
}
