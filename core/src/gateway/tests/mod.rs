//! The gateway protocol against a real network: one send per gateway per
//! broadcast, frames written per socket in its format, acks coalesced, and
//! restarts on either side.

use super::*;
use crate::Timestamp;
use crate::Verification;
use crate::bindings::transport::sockets::SocketId;
use crate::event::{Event, Limits, batch};
use crate::host::MemoryHost;
use crate::ids::address::Address;
use crate::model::config::NetworkConfig;
use crate::model::membership::{Member, Presence};
use crate::model::state::Row;
use crate::network::Network;
use serde_json::json;

pub(super) fn member(i: usize) -> Address {
    format!("agent:m{i}").parse().unwrap()
}

fn network(members: usize) -> Network {
    let rows = (0..members).map(|i| {
        Row::Member(Member::new(
            member(i),
            Verification::ANONYMOUS,
            Presence::Offline,
            Timestamp::EPOCH,
        ))
    });
    Network::new(
        NetworkConfig::open("g".parse().unwrap(), "G"),
        rows.collect::<Vec<_>>(),
        0,
        [7; 32],
    )
}

pub(super) fn frame(
    source: &Address,
    event_type: &str,
    target: &str,
    payload: serde_json::Value,
) -> String {
    let id = crate::ids::ulid::EventId::from_parts(1_000, u128::from(rand_id()));
    json!({"id": id.to_string(), "type": event_type, "source": source.to_string(),
           "target": target, "payload": payload, "timestamp": 1_000})
    .to_string()
}

fn rand_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The network, its host and sequencer, and the gateways, passing messages at once.
pub(super) struct World {
    pub(super) network: Network,
    pub(super) host: MemoryHost,
    pub(super) sequencer: Sequencer,
    pub(super) gateways: Vec<Gateway>,
    /// Messages the network sent to gateways, counted.
    pub(super) sent: usize,
    /// What each socket received.
    pub(super) received: std::collections::BTreeMap<SocketId, Vec<String>>,
}

impl World {
    pub(super) fn new(members: usize, gateways: u32) -> Self {
        Self {
            network: network(members),
            host: MemoryHost::default(),
            sequencer: Sequencer::new(Placement::with_gateways(gateways), 1),
            gateways: (0..gateways).map(|_| Gateway::default()).collect(),
            sent: 0,
            received: Default::default(),
        }
    }

    /// A world whose `members` all joined, each on its own socket, batching as `batches` says.
    pub(super) fn joined(members: usize, gateways: u32, batches: impl Fn(usize) -> bool) -> Self {
        let mut world = Self::new(members, gateways);
        for i in 0..members {
            world.join(i, batches(i));
        }
        world
    }

    pub(super) fn gateway_of(&self, m: &Address) -> usize {
        self.sequencer.placement().of(m) as usize
    }

    /// Member `i` opens socket `i` on its gateway and joins on it.
    pub(super) fn join(&mut self, i: usize, batches: bool) {
        let m = member(i);
        let at = self.gateway_of(&m);
        let opening = Opening {
            batches,
            join_within_ms: 20_000,
            since: Timestamp::from(2_000),
            ..Opening::default()
        };
        self.gateways[at].opened(i as SocketId, opening);
        let join = frame(&m, "network.agent.join", "core", json!({}));
        self.on_socket_frame(at, i as SocketId, &join);
    }

    pub(super) fn on_socket_frame(&mut self, at: usize, socket: SocketId, text: &str) {
        let effects = self.gateways[at].on_socket_frame(socket, text, Timestamp::from(2_000));
        self.gateway_effects(at, effects);
    }

    fn flush(&mut self, at: usize) {
        if let Some(cursors) = self.gateways[at].cursors_to_send(Timestamp::from(2_000), true) {
            self.up(at, cursors);
        }
    }

    pub(super) fn up(&mut self, at: usize, message: ToNetwork) {
        let inputs = self.sequencer.on_gateway(
            &mut self.network,
            at as u32,
            message,
            Timestamp::from(2_000),
        );
        for input in inputs {
            let applied = self
                .host
                .apply(&mut self.network, input.effects, Timestamp::from(2_000));
            for (to, message) in self.sequencer.route(input.origin, &applied) {
                self.sent += 1;
                let effects =
                    self.gateways[to as usize].on_network(message, Timestamp::from(2_000));
                self.gateway_effects(to as usize, effects);
            }
        }
    }

    pub(super) fn gateway_effects(&mut self, at: usize, effects: Vec<GatewayEffect>) {
        for effect in effects {
            match effect {
                GatewayEffect::Send { socket, frame } => {
                    self.received.entry(socket).or_default().push(frame)
                }
                GatewayEffect::Close { socket, .. } => {
                    self.received.remove(&socket);
                }
                GatewayEffect::ToNetwork(message) => self.up(at, message),
                GatewayEffect::Placed { .. } => {}
            }
        }
    }

    pub(super) fn events(&self, socket: SocketId) -> Vec<Event> {
        self.received
            .get(&socket)
            .into_iter()
            .flatten()
            .flat_map(|f| {
                batch::split(f)
                    .into_iter()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .filter_map(|t| Event::decode(&t, &Limits::default()).ok())
            .collect()
    }
}

#[test]
fn a_broadcast_costs_the_network_one_message_per_gateway_not_per_member() {
    let mut world = World::joined(100, 4, |i| i % 2 == 0);
    world.received.clear();
    world.sent = 0;
    let sender = member(0);
    let at = world.gateway_of(&sender);
    world.on_socket_frame(
        at,
        0,
        &frame(&sender, "chat.msg", "agent:broadcast", json!({"n": 1})),
    );
    // The ack to the sender, and one delivery message to each of the 4 gateways.
    assert_eq!(world.sent, 1 + 4);
    for i in 1..100 {
        let got = world.events(i as SocketId);
        let chat: Vec<&Event> = got
            .iter()
            .filter(|e| e.event_type.as_str() == "chat.msg")
            .collect();
        assert_eq!(chat.len(), 1, "member {i}");
        let delivery = &chat[0].metadata["delivery"];
        assert_eq!(delivery["seq"], json!(world.network.last_seq()));
        assert!(delivery["prev"].as_u64().unwrap() < delivery["seq"].as_u64().unwrap());
    }
    // Batching sockets got a batch; the others a single event.
    assert!(world.received[&2].iter().all(|f| f.starts_with('[')));
    assert!(world.received[&1].iter().all(|f| f.starts_with('{')));
}

#[test]
fn acks_stay_at_the_gateway_until_flushed_as_one_cursor_per_member() {
    let mut world = World::joined(3, 1, |_| false);
    let sender = member(0);
    for n in 0..5 {
        world.on_socket_frame(
            0,
            0,
            &frame(&sender, "chat.msg", "agent:m1", json!({"n": n})),
        );
    }
    let seq = world.network.last_seq();
    let reader = member(1);
    assert!(world.network.awaiting_acks());
    for acked in [seq - 2, seq, seq - 1] {
        let sent = world.sent;
        world.on_socket_frame(
            0,
            1,
            &frame(&reader, "network.event.ack", "core", json!({"seq": acked})),
        );
        assert_eq!(world.sent, sent, "an ack is not forwarded one by one");
    }
    // Held until the oldest has waited CURSOR_DELAY_MS, then sent as one cursor.
    assert_eq!(
        world.gateways[0].cursors_due(),
        Some(Timestamp::from(2_000 + CURSOR_DELAY_MS))
    );
    assert!(
        world.gateways[0]
            .cursors_to_send(Timestamp::from(2_000 + CURSOR_DELAY_MS - 1), false)
            .is_none()
    );
    match world.gateways[0].cursors_to_send(Timestamp::from(2_000 + CURSOR_DELAY_MS), false) {
        Some(ToNetwork::Cursors { cursors }) => {
            assert_eq!(cursors, vec![(reader.clone(), seq, 1)]);
            world.up(0, ToNetwork::Cursors { cursors });
        }
        other => panic!("expected cursors, got {other:?}"),
    }
    assert_eq!(world.network.cursor(&reader), seq);
    assert!(
        world.gateways[0]
            .cursors_to_send(Timestamp::from(u64::MAX), true)
            .is_none()
    );
    assert_eq!(world.gateways[0].cursors_due(), None);
    world.flush(0);
}

#[test]
fn restarts_end_the_old_sockets_and_their_members_presence() {
    let mut world = World::joined(4, 2, |_| true);
    let m = member(3);
    let at = world.gateway_of(&m);
    assert!(world.network.member(&m).unwrap().is_online());
    // The gateway restarts: its members go offline.
    let (fresh, hello) = Gateway::start();
    world.gateways[at] = fresh;
    world.up(at, hello);
    assert!(!world.network.member(&m).unwrap().is_online());
    // The network restarts: a socket bound by the old instance is not taken as joined.
    let other = (0..4)
        .map(member)
        .find(|a| world.gateway_of(a) != at)
        .unwrap();
    let other_at = world.gateway_of(&other);
    world.sequencer = Sequencer::new(world.sequencer.placement(), 2);
    let before = world.network.last_seq();
    let socket = (0..4).find(|i| member(*i) == other).unwrap() as SocketId;
    world.on_socket_frame(
        other_at,
        socket,
        &frame(&other, "chat.msg", "agent:broadcast", json!({})),
    );
    assert_eq!(
        world.network.last_seq(),
        before,
        "not accepted from a stale binding"
    );
    let effects = world.gateways[other_at].on_network(ToGateway::Restarted, Timestamp::from(2_000));
    // Every socket closes, and the host forgets every member it kept.
    let closes = effects
        .iter()
        .filter(|e| matches!(e, GatewayEffect::Close { .. }))
        .count();
    let forgotten = effects
        .iter()
        .filter(|e| matches!(e, GatewayEffect::Placed { present: false, .. }))
        .count();
    assert!(closes > 0);
    assert_eq!(closes, forgotten, "one socket per member here");
    assert_eq!(closes + forgotten, effects.len());
    assert_eq!(world.gateways[other_at].socket_count(), 0);
}

#[test]
fn messages_round_trip_through_json() {
    let mut world = World::joined(3, 1, |_| false);
    let applied = world
        .host
        .apply(&mut world.network, vec![], Timestamp::from(2_000));
    assert!(applied.is_empty());
    let sender = member(0);
    let effects = world.network.handle_frame(
        Some(&sender),
        &frame(&sender, "chat.msg", "agent:broadcast", json!({"n": 1})),
        Timestamp::from(2_000),
    );
    let applied = world
        .host
        .apply(&mut world.network, effects, Timestamp::from(2_000));
    for (_, message) in world.sequencer.route(Some((0, 0)), &applied) {
        let text = serde_json::to_string(&message).unwrap();
        let back: ToGateway = serde_json::from_str(&text).unwrap();
        assert_eq!(back, message);
    }
    let up = ToNetwork::Cursors {
        cursors: vec![(sender, 3, 1)],
    };
    let back: ToNetwork = serde_json::from_str(&serde_json::to_string(&up).unwrap()).unwrap();
    assert_eq!(back, up);
}

#[test]
fn an_announced_socket_gets_its_frames_before_and_after_it_arrives() {
    let mut gateway = Gateway::start().0;
    let m = member(1);
    let socket: SocketId = 42;
    assert!(!gateway.holds(socket));
    gateway.on_network(
        ToGateway::Open {
            socket,
            member: Some((m.clone(), 9)),
            batches: true,
            peer: None,
            join_within_ms: 20_000,
            lanes: None,
        },
        Timestamp::from(0),
    );
    assert!(gateway.holds(socket));
    let delivery = Delivery {
        frame: DeliveryFrame::Same("{\"x\":1}".into()),
        to: vec![(m.clone(), 0), (member(2), 0)],
    };
    let sent = gateway.on_network(
        ToGateway::Deliveries {
            deliveries: vec![delivery],
        },
        Timestamp::from(0),
    );
    assert_eq!(
        sent,
        vec![GatewayEffect::Send {
            socket,
            frame: "[{\"x\":1}]".into()
        }],
        "written in the format it asked for, to it alone"
    );
    // Its acks are coalesced under the epoch of the instance that bound it.
    let ack = frame(&m, "network.event.ack", "core", json!({"seq": 5}));
    assert!(
        gateway
            .on_socket_frame(socket, &ack, Timestamp::from(0))
            .is_empty()
    );
    assert_eq!(
        gateway.cursors_to_send(Timestamp::from(0), true),
        Some(ToNetwork::Cursors {
            cursors: vec![(m.clone(), 5, 9)]
        })
    );
}

#[test]
fn a_gateway_the_platform_reset_announces_gone_the_members_its_host_kept() {
    let mut world = World::joined(4, 1, |_| false);
    let bound = |i: usize| Opening {
        member: Some((member(i), 1)),
        ..Opening::default()
    };
    // What the host keeps follows the members' first and last sockets.
    let mut gateway = Gateway::default();
    let placed = |m: usize, present| GatewayEffect::Placed {
        member: member(m),
        present,
    };
    assert_eq!(gateway.opened(10, bound(1)), vec![placed(1, true)]);
    assert_eq!(gateway.opened(11, bound(1)), vec![]);
    assert_eq!(gateway.opened(12, bound(2)), vec![placed(2, true)]);
    assert_eq!(
        gateway.closed(10),
        vec![GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 10 })],
        "not the member's last socket: only the close"
    );
    let last = gateway.closed(11);
    assert!(last.contains(&placed(1, false)), "{last:?}");
    // Reset: the sockets went with no close seen; member 3 reconnected since.
    let mut fresh = Gateway::default();
    fresh.opened(20, bound(3));
    let gone = fresh.reconcile([member(2), member(3)]);
    assert_eq!(
        gone,
        vec![
            GatewayEffect::ToNetwork(ToNetwork::Offline {
                member: member(2),
                socket: 0
            }),
            placed(2, false),
        ]
    );
    assert!(world.network.member(&member(2)).unwrap().is_online());
    world.gateway_effects(0, gone);
    assert!(!world.network.member(&member(2)).unwrap().is_online());
    assert!(world.network.member(&member(3)).unwrap().is_online());
}

mod unbound;
