//! Deterministic simulation of delivery under an unreliable network.
//!
//! One network (in a `MemoryHost`), several replicas, and per replica a link
//! that drops, duplicates, delays and reorders frames and disconnects at
//! random, all driven by one seeded RNG. After a chaotic phase the links
//! heal, everyone reconnects, and the run continues until it is quiet. Then:
//!
//! 1. every event the network accepted reached every recipient exactly once,
//!    and each replica applied its deliveries in `seq` order;
//! 2. no replica received an event it should not see;
//! 3. every outbox event ended acknowledged (none is left pending);
//! 4. the replicas' logs of broadcast events are identical;
//! 5. every task a peer started (`task.create`) went through its whole
//!    lifecycle across the disconnects — the partner starts it, the
//!    requester answers, the partner completes it — each step exactly once.
//!
//! The same runs go through connection gateways too (`agentnet_core::gateway`):
//! the peers' sockets held by two gateways, half of them with batched frames,
//! the gateways' acks coalesced into cursors, and at random a gateway or the
//! network object restarting mid-stream (the network rebuilt from its rows,
//! messages in flight lost) — with the same five checks.
//!
//! Push notifications of tasks run their own seeded schedule ([`pushes`]):
//! changes, slow and failing sends and restarts, after which every push
//! target has the task's final version, never an older one after a newer.
//!
//! `AGENTNET_SIM_RUNS` sets the number of seeded runs (default 2000);
//! `AGENTNET_SIM_SEED` replays one seed. A failure prints its seed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test scaffolding: failures should be loud

#[path = "simulation/pushes.rs"]
mod pushes;

use agentnet_core::bindings::access::policy::JOIN_DEADLINE_MS;
use agentnet_core::gateway::{
    Bound, Gateway, GatewayEffect, Opening, Placement, Sequencer, ToGateway, ToNetwork,
};
use agentnet_core::host::MemoryHost;
use agentnet_core::model::config::NetworkConfig;
use agentnet_core::model::membership::{Member, Presence};
use agentnet_core::model::state::{Channel, Row};
use agentnet_core::model::task::{TaskRole, TaskState};
use agentnet_core::network::EventIndex;
use agentnet_core::network::{Effect, Network};
use agentnet_core::replica::{OutboxState, Replica, ReplicaEffect, ReplicaRow};
use agentnet_core::{Address, Event, EventId, Timestamp, Verification};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::{Map, json};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::Rc;

const PEERS: usize = 4;
const CHAOS_TICKS: usize = 400;
const HEAL_TICKS: usize = 4_000;

struct Rng(ChaCha8Rng);

impl Rng {
    fn chance(&mut self, p: f64) -> bool {
        (self.0.next_u32() as f64 / u32::MAX as f64) < p
    }
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u32() as usize) % n.max(1)
    }
}

struct Frame {
    at: u64,
    text: String,
}

struct Peer {
    address: Address,
    replica: Replica,
    connected: bool,
    session: Option<Address>,
    to_net: Vec<Frame>,
    to_peer: Vec<Frame>,
    /// Ids of events delivered to this replica (not its own), with their seq, in apply order.
    applied: Vec<(u64, EventId)>,
    posts: usize,
}

struct Chaos {
    drop: f64,
    duplicate: f64,
    disconnect: f64,
    max_delay: u64,
}

/// The logged ids, as the edge's log index answers them (so a network rebuilt
/// after a restart still knows what it accepted).
#[derive(Clone, Default)]
struct LogIds(Rc<RefCell<BTreeMap<EventId, u64>>>);

impl EventIndex for LogIds {
    fn seq_of(&self, id: &EventId) -> Option<u64> {
        self.0.borrow().get(id).copied()
    }
}

/// The sockets held by gateways, and the messages between them and the network.
struct Gateways {
    sequencer: Sequencer,
    gateways: Vec<Gateway>,
    /// Gateway → network, in order per gateway: `(arrival, message)`.
    up: Vec<VecDeque<(u64, ToNetwork)>>,
    /// Network → gateway, in order per gateway.
    down: Vec<VecDeque<(u64, ToGateway)>>,
    /// Each peer's current socket.
    socket_of: Vec<Option<u64>>,
    next_socket: u64,
    /// The last `seq` already in `ids`.
    indexed: u64,
    ids: LogIds,
    restarts: (usize, usize),
    /// The members each gateway's host keeps ([`GatewayEffect::Placed`]), as
    /// the edge keeps them in the gateway's storage.
    placed: Vec<std::collections::BTreeSet<Address>>,
    /// The network's account of whom each gateway socket is bound to, as
    /// the edge's network object keeps it ([`Bound`]).
    bound: Bound,
}

struct Sim {
    rng: Rng,
    now: u64,
    network: Network,
    host: MemoryHost,
    peers: Vec<Peer>,
    chaos: Chaos,
    /// Peers start tasks too (`task.create` to another peer).
    tasks: bool,
    /// The tasks whose `task.create` reached their partner.
    started: BTreeSet<String>,
    /// Sockets held by gateways (`None`: the network holds them itself).
    gateways: Option<Gateways>,
    config: NetworkConfig,
}

fn address(i: usize) -> Address {
    format!("agent:p{i}").parse().unwrap()
}

/// An anonymous member that is offline, as stored.
fn member(address: Address) -> Row {
    Row::Member(Member::new(
        address,
        Verification::ANONYMOUS,
        Presence::Offline,
        Timestamp::EPOCH,
    ))
}

impl Sim {
    fn new(seed: u64, tasks: bool, through_gateways: bool) -> Self {
        let mut rng = Rng(ChaCha8Rng::seed_from_u64(seed));
        let mut net_seed = [0u8; 32];
        rng.0.fill_bytes(&mut net_seed);
        let members: Vec<Row> = (0..PEERS).map(|i| member(address(i))).collect();
        // A channel with the first three peers: the fourth must never see its events.
        let room = Row::Channel(Channel {
            name: "room".parse().unwrap(),
            members: (0..PEERS - 1).map(address).collect(),
            created_by: address(0),
            private: false,
            invited: Default::default(),
            tags: Vec::new(),
            title: None,
        });
        let rows: Vec<Row> = members.into_iter().chain([room]).collect();
        let config = NetworkConfig::open("sim".parse().unwrap(), "Sim");
        // The host holds the rows the network starts from, as the edge's storage does.
        let mut host = MemoryHost::default();
        for row in &rows {
            host.rows.insert((row.kind(), row.key()), row.clone());
        }
        let mut network = Network::new(config.clone(), rows, 0, net_seed);
        let gateways = through_gateways.then(|| {
            let ids = LogIds::default();
            network.set_event_index(Box::new(ids.clone()));
            let count = 2;
            Gateways {
                sequencer: Sequencer::new(Placement::with_gateways(count), 0),
                gateways: (0..count).map(|_| Gateway::start().0).collect(),
                up: (0..count).map(|_| VecDeque::new()).collect(),
                down: (0..count).map(|_| VecDeque::new()).collect(),
                socket_of: vec![None; PEERS],
                next_socket: 1,
                indexed: 0,
                ids,
                restarts: (0, 0),
                placed: (0..count).map(|_| Default::default()).collect(),
                bound: Bound::default(),
            }
        });
        let peers = (0..PEERS)
            .map(|i| {
                let mut seed = [0u8; 32];
                rng.0.fill_bytes(&mut seed);
                Peer {
                    address: address(i),
                    replica: Replica::new(address(i), "sim".parse().unwrap(), seed),
                    connected: false,
                    session: None,
                    to_net: Vec::new(),
                    to_peer: Vec::new(),
                    applied: Vec::new(),
                    posts: 0,
                }
            })
            .collect();
        Self {
            rng,
            now: 1,
            network,
            host,
            peers,
            tasks,
            started: BTreeSet::new(),
            gateways,
            config,
            chaos: Chaos {
                drop: 0.05,
                duplicate: 0.05,
                disconnect: 0.01,
                max_delay: 40,
            },
        }
    }

    fn delay(&mut self) -> u64 {
        self.now + 1 + self.rng.below(self.chaos.max_delay as usize) as u64
    }

    fn replica_effects(&mut self, i: usize, effects: Vec<ReplicaEffect>) {
        // A burst goes out as one batched frame once the network sent this link one.
        let effects = self.peers[i].replica.coalesce_sends(effects);
        let mut reactions = Vec::new();
        for effect in effects {
            match effect {
                ReplicaEffect::Send(text) => {
                    let at = self.delay();
                    self.peers[i].to_net.push(Frame { at, text });
                }
                ReplicaEffect::Persist(ReplicaRow::Logged { seq, event })
                    if event.source != self.peers[i].address =>
                {
                    self.peers[i].applied.push((seq, event.id));
                    if event.event_type.as_str() == "task.create" {
                        self.started.insert(event.id.to_string());
                    }
                    reactions.extend(task_step(&event));
                }
                _ => {}
            }
        }
        for (kind, target, payload) in reactions {
            let (_, effects) = self.peers[i].replica.post(
                kind.parse().unwrap(),
                target,
                payload,
                Map::new(),
                Timestamp::from(self.now),
            );
            self.replica_effects(i, effects);
        }
    }

    fn network_effects(&mut self, from: Option<usize>, effects: Vec<Effect>) {
        let now = self.now;
        for effect in self
            .host
            .apply(&mut self.network, effects, Timestamp::from(now))
        {
            match &effect {
                Effect::Bind(a) => {
                    if let Some(i) = from {
                        self.peers[i].session = Some(a.clone());
                    }
                }
                Effect::Unbind => {
                    if let Some(i) = from {
                        self.peers[i].session = None;
                    }
                }
                Effect::Reply(_) | Effect::Ack(_) => {
                    if let (Some(i), Some(text)) = (from, effect.reply_text()) {
                        let at = self.delay();
                        self.peers[i].to_peer.push(Frame { at, text });
                    }
                }
                Effect::Deliver { .. } => {
                    for (to, text) in effect.frames() {
                        let Some(i) = self.peers.iter().position(|p| &p.address == to) else {
                            continue;
                        };
                        if self.peers[i].connected && self.peers[i].session.as_ref() == Some(to) {
                            let at = self.delay();
                            self.peers[i].to_peer.push(Frame { at, text });
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn due(&mut self, i: usize, to_net: bool) -> Vec<String> {
        let now = self.now;
        let queue = if to_net {
            &mut self.peers[i].to_net
        } else {
            &mut self.peers[i].to_peer
        };
        let (due, later): (Vec<Frame>, Vec<Frame>) = queue.drain(..).partition(|f| f.at <= now);
        *queue = later;
        let mut texts: Vec<String> = due.into_iter().map(|f| f.text).collect();
        // Reorder what arrives in the same tick.
        for k in (1..texts.len()).rev() {
            let j = self.rng.below(k + 1);
            texts.swap(k, j);
        }
        let mut out = Vec::new();
        for text in texts {
            if self.rng.chance(self.chaos.drop) {
                continue;
            }
            if self.rng.chance(self.chaos.duplicate) {
                out.push(text.clone());
            }
            out.push(text);
        }
        out
    }

    fn disconnect(&mut self, i: usize) {
        if self.gateways.is_some() {
            return self.disconnect_socket(i);
        }
        let peer = &mut self.peers[i];
        peer.connected = false;
        peer.to_net.clear();
        peer.to_peer.clear();
        peer.replica.disconnected();
        if let Some(address) = peer.session.take() {
            let effects = self.network.disconnect(&address, Timestamp::from(self.now));
            self.network_effects(None, effects);
        }
    }

    fn connect(&mut self, i: usize) {
        if let Some(g) = &mut self.gateways {
            let socket = g.next_socket;
            g.next_socket += 1;
            g.socket_of[i] = Some(socket);
            let at = g.sequencer.placement().of(&self.peers[i].address) as usize;
            // Half the peers ask for batched frames.
            let opening = Opening {
                batches: i.is_multiple_of(2),
                join_within_ms: JOIN_DEADLINE_MS,
                since: Timestamp::from_millis(self.now),
                ..Opening::default()
            };
            g.gateways[at].opened(socket, opening);
        }
        self.peers[i].connected = true;
        let effects = self.peers[i]
            .replica
            .connected(None, Timestamp::from(self.now));
        self.replica_effects(i, effects);
    }

    fn post(&mut self, i: usize) {
        let target: Address = match self.rng.below(4) {
            0 | 1 => Address::broadcast(),
            2 => {
                let other = (i + 1 + self.rng.below(PEERS - 1)) % PEERS;
                address(other)
            }
            _ if i < PEERS - 1 => "channel/room".parse().unwrap(),
            _ => Address::broadcast(),
        };
        let n = self.peers[i].posts;
        self.peers[i].posts += 1;
        let now = self.now;
        let direct = target.entity().is_participant() && target != Address::broadcast();
        let kind = if self.tasks && direct && self.rng.chance(0.5) {
            "task.create"
        } else {
            "sim.msg"
        };
        let (_, effects) = self.peers[i].replica.post(
            kind.parse().unwrap(),
            target,
            json!({"n": n, "parts": [{"text": format!("post {n}")}]}),
            Map::new(),
            Timestamp::from(now),
        );
        self.replica_effects(i, effects);
    }

    fn tick(&mut self, chaotic: bool) {
        self.now += 1 + self.rng.below(20) as u64;
        for i in 0..PEERS {
            if chaotic && self.peers[i].connected && self.rng.chance(self.chaos.disconnect) {
                self.disconnect(i);
            }
            if !self.peers[i].connected && (!chaotic || self.rng.chance(0.2)) {
                self.connect(i);
            }
            if chaotic && self.rng.chance(0.08) {
                self.post(i);
            }
            for text in self.due(i, true) {
                if self.gateways.is_some() {
                    self.frame_at_gateway(i, &text);
                    continue;
                }
                let session = self.peers[i].session.clone();
                let effects =
                    self.network
                        .handle_frame(session.as_ref(), &text, Timestamp::from(self.now));
                self.network_effects(Some(i), effects);
            }
            for text in self.due(i, false) {
                let effects = self.peers[i]
                    .replica
                    .receive(&text, Timestamp::from(self.now));
                self.replica_effects(i, effects);
            }
            if self.peers[i].connected
                && self.peers[i]
                    .replica
                    .poll_timeout()
                    .map(Timestamp::as_millis)
                    .is_some_and(|at| at <= self.now)
            {
                let effects = self.peers[i]
                    .replica
                    .handle_timeout(Timestamp::from(self.now));
                self.replica_effects(i, effects);
            }
        }
        if self
            .network
            .next_wakeup()
            .is_some_and(|at| at <= Timestamp::from(self.now))
        {
            let effects = self.network.on_alarm(Timestamp::from(self.now));
            match self.gateways.is_some() {
                true => self.sequenced(None, effects),
                false => self.network_effects(None, effects),
            }
        }
        if self.gateways.is_some() {
            self.pump_gateways(chaotic);
        }
    }

    fn quiet(&self) -> bool {
        let links_idle = self.gateways.as_ref().is_none_or(|g| {
            g.up.iter().all(VecDeque::is_empty) && g.down.iter().all(VecDeque::is_empty)
        });
        links_idle
            && self.peers.iter().all(|p| {
                p.connected
                    && p.replica.is_online()
                    && p.to_net.is_empty()
                    && p.to_peer.is_empty()
                    && p.replica
                        .outbox()
                        .all(|e| matches!(e.state, OutboxState::Rejected { .. }))
            })
            && !self.network.awaiting_acks()
    }

    fn run(&mut self) {
        for _ in 0..CHAOS_TICKS {
            self.tick(true);
        }
        self.chaos = Chaos {
            drop: 0.0,
            duplicate: 0.0,
            disconnect: 0.0,
            max_delay: 10,
        };
        for _ in 0..HEAL_TICKS {
            self.tick(false);
            if self.quiet() {
                return;
            }
        }
    }

    /// Who should have received a logged event.
    fn recipients(&self, event: &Event) -> BTreeSet<Address> {
        let all: BTreeSet<Address> = (0..PEERS)
            .map(address)
            .filter(|a| a != &event.source)
            .collect();
        match event.target.to_string().as_str() {
            "agent:broadcast" => all,
            "channel/room" => (0..PEERS - 1)
                .map(address)
                .filter(|a| a != &event.source)
                .collect(),
            _ => [event.target.clone()].into(),
        }
    }

    fn check(&self) -> Result<(), String> {
        if !self.quiet() {
            let peers: Vec<String> = self
                .peers
                .iter()
                .map(|p| {
                    format!(
                        "{}: connected={} online={} in-flight={}/{} outbox={}",
                        p.address,
                        p.connected,
                        p.replica.is_online(),
                        p.to_net.len(),
                        p.to_peer.len(),
                        p.replica.outbox().count()
                    )
                })
                .collect();
            return Err(format!(
                "the run did not settle after healing (alarm {:?}): {}",
                self.network.next_wakeup(),
                peers.join("; ")
            ));
        }
        let logged: Vec<(u64, &Event)> = self
            .host
            .log
            .iter()
            .filter(|r| {
                let kind = r.event.event_type.as_str();
                kind == "sim.msg" || kind.starts_with("task.")
            })
            .map(|r| (r.seq, &*r.event))
            .collect();
        for peer in &self.peers {
            let mut counts: BTreeMap<EventId, usize> = BTreeMap::new();
            for (_, id) in &peer.applied {
                *counts.entry(*id).or_default() += 1;
            }
            if !peer.applied.windows(2).all(|w| w[0].0 < w[1].0) {
                return Err(format!(
                    "{} applied out of order: {:?}",
                    peer.address,
                    peer.applied.iter().map(|a| a.0).collect::<Vec<_>>()
                ));
            }
            for (seq, event) in &logged {
                let expected = self.recipients(event).contains(&peer.address);
                let got = counts.get(&event.id).copied().unwrap_or(0);
                if expected && got != 1 {
                    return Err(format!(
                        "{} got seq {seq} ({} -> {}) {got} times",
                        peer.address, event.source, event.target
                    ));
                }
                if !expected && got != 0 {
                    return Err(format!(
                        "{} saw seq {seq} ({} -> {}) it may not see",
                        peer.address, event.source, event.target
                    ));
                }
            }
            if peer.replica.outbox().count() != 0 {
                return Err(format!(
                    "{} still has {} outbox events: {:?}",
                    peer.address,
                    peer.replica.outbox().count(),
                    peer.replica
                        .outbox()
                        .map(|e| format!("{:?}", e.state))
                        .collect::<Vec<_>>()
                ));
            }
        }
        let broadcasts = |p: &Peer| -> Vec<(u64, EventId)> {
            p.replica
                .log()
                .iter()
                .filter(|(_, e)| {
                    e.target == Address::broadcast() && e.event_type.as_str() == "sim.msg"
                })
                .map(|(s, e)| (*s, e.id))
                .collect()
        };
        let first = broadcasts(&self.peers[0]);
        for peer in &self.peers[1..] {
            if broadcasts(peer) != first {
                return Err(format!(
                    "{} diverged from {}: {:?} / {:?}",
                    peer.address,
                    self.peers[0].address,
                    broadcasts(peer).iter().map(|b| b.0).collect::<Vec<_>>(),
                    first.iter().map(|b| b.0).collect::<Vec<_>>()
                ));
            }
        }
        let tasks = &self.network.state().tasks;
        let known: BTreeSet<String> = tasks.keys().map(ToString::to_string).collect();
        if known != self.started {
            return Err(format!(
                "the network knows tasks {known:?}, their partners were given {:?}",
                self.started
            ));
        }
        for task in tasks.values() {
            let said: Vec<_> = task.history.iter().map(|m| m.role).collect();
            if task.state != TaskState::Completed || said != [TaskRole::Leader, TaskRole::Leader] {
                return Err(format!(
                    "task {} ended {:?} with history {said:?}",
                    task.id, task.state
                ));
            }
        }
        if logged.is_empty() {
            return Err("no event was accepted: the run proves nothing".into());
        }
        Ok(())
    }
}

/// The peers' sockets through gateways.
impl Sim {
    fn gateway_of(&self, i: usize) -> usize {
        let g = self.gateways.as_ref().unwrap();
        g.sequencer.placement().of(&self.peers[i].address) as usize
    }

    /// A frame from peer `i`'s socket reaches its gateway.
    fn frame_at_gateway(&mut self, i: usize, text: &str) {
        let at = self.gateway_of(i);
        let g = self.gateways.as_mut().unwrap();
        let Some(socket) = g.socket_of[i] else {
            return;
        };
        let effects = g.gateways[at].on_socket_frame(socket, text, Timestamp::from(self.now));
        self.gateway_effects(at, effects);
    }

    /// Peer `i`'s socket closes (the peer's side).
    fn disconnect_socket(&mut self, i: usize) {
        let at = self.gateway_of(i);
        let peer = &mut self.peers[i];
        peer.connected = false;
        peer.to_net.clear();
        peer.to_peer.clear();
        peer.session = None;
        peer.replica.disconnected();
        let g = self.gateways.as_mut().unwrap();
        if let Some(socket) = g.socket_of[i].take() {
            let effects = g.gateways[at].closed(socket);
            self.gateway_effects(at, effects);
        }
    }

    fn gateway_effects(&mut self, at: usize, effects: Vec<GatewayEffect>) {
        for effect in effects {
            match effect {
                GatewayEffect::Send { socket, frame } => {
                    let g = self.gateways.as_ref().unwrap();
                    if let Some(i) = g.socket_of.iter().position(|s| *s == Some(socket)) {
                        let at = self.delay();
                        self.peers[i].to_peer.push(Frame { at, text: frame });
                    }
                }
                GatewayEffect::Close { socket, .. } => {
                    let g = self.gateways.as_mut().unwrap();
                    if let Some(i) = g.socket_of.iter().position(|s| *s == Some(socket)) {
                        g.socket_of[i] = None;
                        self.disconnect_socket(i);
                    }
                }
                GatewayEffect::ToNetwork(message) => {
                    let arrival = self.now + 1 + self.rng.below(5) as u64;
                    let g = self.gateways.as_mut().unwrap();
                    // As the edge's gateways do: the acks held go first in a request that goes anyway.
                    if let Some(cursors) =
                        g.gateways[at].cursors_to_send(Timestamp::from(self.now), true)
                    {
                        g.up[at].push_back((arrival, cursors));
                    }
                    g.up[at].push_back((arrival, message));
                }
                GatewayEffect::Placed { member, present } => {
                    let placed = &mut self.gateways.as_mut().unwrap().placed[at];
                    if present {
                        placed.insert(member);
                    } else {
                        placed.remove(&member);
                    }
                }
            }
        }
    }

    /// Applies the network's effects for one input and sends what they say to the gateways.
    fn sequenced(&mut self, origin: Option<(u32, u64)>, effects: Vec<Effect>) {
        let now = self.now;
        let applied = self
            .host
            .apply(&mut self.network, effects, Timestamp::from(now));
        let arrival = now + 1 + self.rng.below(5) as u64;
        let g = self.gateways.as_mut().unwrap();
        {
            let mut ids = g.ids.0.borrow_mut();
            for row in self.host.log.iter().filter(|r| r.seq > g.indexed) {
                ids.insert(row.event.id, row.seq);
            }
        }
        g.indexed = self.host.last_seq();
        for (to, message) in g.sequencer.route(origin, &applied) {
            g.bound.sent(to, &message);
            g.down[to as usize].push_back((arrival, message));
        }
    }

    /// Moves the messages that are due between the gateways and the network;
    /// in the chaotic phase a gateway or the network object restarts now and then.
    fn pump_gateways(&mut self, chaotic: bool) {
        if chaotic && self.rng.chance(0.004) {
            self.restart_network();
        }
        let count = self.gateways.as_ref().unwrap().gateways.len();
        for at in 0..count {
            if chaotic && self.rng.chance(0.003) {
                self.restart_gateway(at);
            }
            let g = self.gateways.as_mut().unwrap();
            // The acks held go on their own once the oldest has waited CURSOR_DELAY_MS.
            if let Some(cursors) = g.gateways[at].cursors_to_send(Timestamp::from(self.now), false)
            {
                g.up[at].push_back((self.now, cursors));
            }
            loop {
                let g = self.gateways.as_mut().unwrap();
                if g.up[at].front().is_none_or(|(when, _)| *when > self.now) {
                    break;
                }
                let (_, message) = g.up[at].pop_front().unwrap();
                if !g.bound.heard(at as u32, &message) {
                    // A stale `Offline`: the member is bound through another socket.
                    continue;
                }
                let sequencer = g.sequencer;
                let inputs = sequencer.on_gateway(
                    &mut self.network,
                    at as u32,
                    message,
                    Timestamp::from(self.now),
                );
                for input in inputs {
                    self.sequenced(input.origin, input.effects);
                }
            }
            loop {
                let g = self.gateways.as_mut().unwrap();
                if g.down[at].front().is_none_or(|(when, _)| *when > self.now) {
                    break;
                }
                let (_, message) = g.down[at].pop_front().unwrap();
                let effects = g.gateways[at].on_network(message, Timestamp::from(self.now));
                self.gateway_effects(at, effects);
            }
        }
    }

    /// A gateway restarts: its sockets are gone, what was on its way to it
    /// is lost. Every other time the platform reset it silently: it never
    /// said it restarted, and announces gone only the members its host kept.
    fn restart_gateway(&mut self, at: usize) {
        let held: Vec<usize> = (0..PEERS)
            .filter(|i| {
                self.gateway_of(*i) == at && self.gateways.as_ref().unwrap().socket_of[*i].is_some()
            })
            .collect();
        let g = self.gateways.as_mut().unwrap();
        g.restarts.0 += 1;
        let (fresh, hello) = Gateway::start();
        g.down[at].clear();
        let silent = g.restarts.0.is_multiple_of(2);
        if silent {
            let kept = g.placed[at].clone();
            let effects = fresh.reconcile(kept);
            g.gateways[at] = fresh;
            self.gateway_effects(at, effects);
        } else {
            g.gateways[at] = fresh;
            g.up[at].push_back((self.now, hello));
        }
        for i in held {
            self.gateways.as_mut().unwrap().socket_of[i] = None;
            self.disconnect_socket(i);
        }
    }

    /// The network object restarts: rebuilt from its rows (never its log),
    /// every message between it and the gateways in flight is lost, and each
    /// gateway hears that it restarted.
    fn restart_network(&mut self) {
        let mut seed = [0u8; 32];
        self.rng.0.fill_bytes(&mut seed);
        let mut network = Network::new(
            self.config.clone(),
            self.host.state_rows(),
            self.host.last_seq(),
            seed,
        );
        let g = self.gateways.as_mut().unwrap();
        g.restarts.1 += 1;
        g.sequencer = Sequencer::new(g.sequencer.placement(), g.restarts.1 as u64);
        g.bound = Bound::default();
        network.set_event_index(Box::new(g.ids.clone()));
        self.network = network;
        for at in 0..g.gateways.len() {
            g.up[at].clear();
            g.down[at].clear();
            g.down[at].push_back((self.now, ToGateway::Restarted));
        }
    }
}

/// What a peer does when `event` reaches it: a partner starts a task it is
/// given and completes it once the requester answered; the requester answers
/// when its task starts.
fn task_step(event: &Event) -> Option<(&'static str, Address, serde_json::Value)> {
    let task = || {
        event.payload["task"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    match event.event_type.as_str() {
        "task.create" => Some((
            "task.update",
            event.source.clone(),
            json!({"task": event.id.to_string(), "state": "working"}),
        )),
        "task.update" if event.payload["state"] == "working" => Some((
            "task.message",
            event.source.clone(),
            json!({"task": task(), "parts": [{"text": "more"}]}),
        )),
        "task.message" => Some((
            "task.update",
            event.source.clone(),
            json!({"task": task(), "state": "completed"}),
        )),
        _ => None,
    }
}

/// Runs `seeds` (or `AGENTNET_SIM_SEED`) with or without tasks; the events
/// accepted and the tasks known over all runs.
fn run_seeds(seeds: std::ops::Range<u64>, tasks: bool) -> (usize, usize) {
    run_seeds_on(seeds, tasks, false).0
}

/// [`run_seeds`], through gateways or not; also the gateways' and the network's restarts.
fn run_seeds_on(
    seeds: std::ops::Range<u64>,
    tasks: bool,
    through_gateways: bool,
) -> ((usize, usize), (usize, usize)) {
    let (mut accepted, mut known, mut restarts) = (0, 0, (0, 0));
    for seed in seeds_or_replayed(seeds) {
        let mut sim = Sim::new(seed, tasks, through_gateways);
        sim.run();
        if let Err(problem) = sim.check() {
            panic!(
                "simulation seed {seed} (tasks: {tasks}, gateways: {through_gateways}) failed: {problem}\nreplay with AGENTNET_SIM_SEED={seed}"
            );
        }
        accepted += sim.host.log.len();
        known += sim.network.state().tasks.len();
        if let Some(g) = &sim.gateways {
            restarts.0 += g.restarts.0;
            restarts.1 += g.restarts.1;
        }
    }
    ((accepted, known), restarts)
}

/// The seeds to run: `seeds`, or the one `AGENTNET_SIM_SEED` replays.
fn seeds_or_replayed(seeds: std::ops::Range<u64>) -> Vec<u64> {
    match std::env::var("AGENTNET_SIM_SEED") {
        Ok(seed) => vec![seed.parse().expect("AGENTNET_SIM_SEED is a number")],
        Err(_) => seeds.collect(),
    }
}

/// Unless one seed is replayed, each case the runs must have met did
/// happen: `cases` pairs a count with what its being zero means.
fn assert_each_happened(cases: &[(usize, &str)]) {
    if std::env::var("AGENTNET_SIM_SEED").is_ok() {
        return;
    }
    for (count, never) in cases {
        assert!(*count > 0, "{never}: the runs prove nothing about it");
    }
}

fn runs() -> u64 {
    std::env::var("AGENTNET_SIM_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(2000)
}

#[test]
fn replicas_converge_under_a_hostile_network() {
    let (accepted, _) = run_seeds(0..runs(), false);
    assert!(accepted > 0);
}

#[test]
fn tasks_complete_exactly_once_across_disconnects() {
    let (accepted, tasks) = run_seeds(0..runs() / 4, true);
    assert!(accepted > 0);
    assert!(
        tasks > 0,
        "no task was started: the task case proves nothing"
    );
}

#[test]
fn replicas_converge_through_gateways_across_restarts() {
    let ((accepted, _), (gateway_restarts, network_restarts)) =
        run_seeds_on(0..runs() / 2, false, true);
    assert!(accepted > 0);
    assert_each_happened(&[
        (gateway_restarts, "no gateway restarted"),
        (network_restarts, "the network never restarted"),
    ]);
}

#[test]
fn tasks_complete_exactly_once_through_gateways() {
    let ((accepted, tasks), _) = run_seeds_on(0..runs() / 8, true, true);
    assert!(accepted > 0);
    assert!(
        tasks > 0,
        "no task was started: the task case proves nothing"
    );
}
