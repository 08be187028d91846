//! Unauthenticated WebSockets are capped and must join in
//! time, frames that are no events close their socket, failed joins and
//! challenges are throttled per source — and members keep being served.

use super::*;
use crate::bindings::route::ApiRoute;
use crate::bindings::transport::sockets::{Close, SocketRecord, Sockets};
use crate::bindings::transport::ws::{self, Framed};
use crate::ids::event_type::core_types;
use crate::ids::time::Timestamp;
use std::collections::BTreeMap;

fn tight() -> Policy {
    Policy {
        max_sockets: 4,
        max_unjoined: 3,
        max_unjoined_per_peer: 2,
        join_deadline_ms: 1_000,
        ..Policy::default()
    }
}

fn peer(ip: &str) -> Option<String> {
    Some(ip.to_owned())
}

fn code_of(result: Result<(), Close>) -> Option<u16> {
    result.err().map(|close| close.code)
}

#[test]
fn sockets_beyond_the_caps_are_refused_with_a_stable_code() {
    let mut sockets = Sockets::new(&tight());
    let a = sockets.open(peer("10.0.0.1"), None, Timestamp::from(0));
    sockets.open(peer("10.0.0.1"), None, Timestamp::from(0));
    // Two unjoined from one IP is its share…
    let refused = sockets.admits(Some("10.0.0.1"), false).unwrap_err();
    assert_eq!(refused.code, 4429);
    assert!(
        refused.reason.starts_with("rate_limited: "),
        "{}",
        refused.reason
    );
    // …another IP may still open one, then the network's share is full…
    assert_eq!(code_of(sockets.admits(Some("10.0.0.2"), false)), None);
    sockets.open(peer("10.0.0.2"), None, Timestamp::from(0));
    assert_eq!(code_of(sockets.admits(Some("10.0.0.3"), false)), Some(4429));
    // …but a socket that joins as it opens is still welcome, up to the total.
    assert_eq!(code_of(sockets.admits(None, true)), None);
    sockets.open(None, Some("agent:a".parse().unwrap()), Timestamp::from(0));
    assert_eq!(code_of(sockets.admits(None, true)), Some(4429));
    // A socket that joins frees its IP's share; one that closes frees everything.
    sockets.bind(a.id, Some("agent:b".parse().unwrap()), Timestamp::from(5));
    assert_eq!(
        code_of(sockets.admits(Some("10.0.0.1"), false)),
        Some(4429),
        "total is full"
    );
    sockets.close(a.id);
    assert_eq!(code_of(sockets.admits(Some("10.0.0.1"), false)), None);
    assert_eq!(sockets.counts(), (3, 2));
}

#[test]
fn unjoined_sockets_on_gateways_count_against_the_same_caps() {
    let mut sockets = Sockets::new(&tight());
    // One IP's two unjoined sockets, spread over the network and a gateway, are its share.
    sockets.open(peer("10.0.0.1"), None, Timestamp::from(0));
    sockets.hold_elsewhere(100, peer("10.0.0.1"), Timestamp::from(1_000));
    assert_eq!(code_of(sockets.admits(Some("10.0.0.1"), false)), Some(4429));
    // The network's share counts them too: 2 + 1 more from elsewhere is full.
    sockets.hold_elsewhere(101, peer("10.0.0.2"), Timestamp::from(1_000));
    assert_eq!(code_of(sockets.admits(Some("10.0.0.3"), false)), Some(4429));
    assert_eq!(sockets.unjoined_elsewhere(), 2);
    // Joining (or closing) frees the share, once.
    assert!(sockets.settle_elsewhere(100));
    assert!(
        !sockets.settle_elsewhere(100),
        "a second settle finds nothing"
    );
    assert_eq!(code_of(sockets.admits(Some("10.0.0.1"), false)), None);
    // A gateway's socket that runs out of time counts no more.
    sockets.hold_elsewhere(102, peer("10.0.0.1"), Timestamp::from(500));
    assert_eq!(code_of(sockets.admits(Some("10.0.0.1"), false)), Some(4429));
    assert_eq!(
        sockets.expire_elsewhere(Timestamp::from(499)),
        Vec::<u64>::new()
    );
    assert_eq!(sockets.expire_elsewhere(Timestamp::from(500)), vec![102]);
    assert_eq!(code_of(sockets.admits(Some("10.0.0.1"), false)), None);
    // Held again (a restored record, a socket unbound again): counted once, not twice.
    sockets.hold_elsewhere(101, peer("10.0.0.2"), Timestamp::from(2_000));
    assert_eq!(sockets.unjoined_elsewhere(), 1);
    sockets.settle_elsewhere(101);
    assert_eq!(code_of(sockets.admits(Some("10.0.0.2"), false)), None);
    sockets.open(peer("10.0.0.2"), None, Timestamp::from(0));
    assert_eq!(
        code_of(sockets.admits(Some("10.0.0.2"), false)),
        None,
        "10.0.0.2 has one unjoined socket, not two"
    );
}

#[test]
fn the_member_index_changes_with_each_socket_and_survives_a_wake() {
    let mut sockets = Sockets::new(&Policy::default());
    let alice: Address = "agent:alice".parse().unwrap();
    let one = sockets.open(None, Some(alice.clone()), Timestamp::from(0));
    let two = sockets.open(None, None, Timestamp::from(0));
    let two = sockets
        .bind(two.id, Some(alice.clone()), Timestamp::from(3))
        .unwrap();
    assert_eq!(sockets.of_member(&alice), [one.id, two.id]);
    // Leaving unbinds a socket: it must join again within the deadline from now.
    let left = sockets.bind(one.id, None, Timestamp::from(50)).unwrap();
    assert_eq!(left.since, Timestamp::from(50));
    assert_eq!(sockets.of_member(&alice), [two.id]);
    assert_eq!(
        sockets.close(two.id).map(|r| r.member),
        Some(Some(alice.clone()))
    );
    assert!(!sockets.is_connected(&alice));
    assert_eq!(sockets.close(two.id), None, "a second close finds nothing");

    // After a wake the host restores its records; new ids never collide.
    let mut woken = Sockets::new(&Policy::default());
    woken.restore(SocketRecord {
        id: 41,
        member: Some(alice.clone()),
        peer: None,
        since: Timestamp::EPOCH,
    });
    woken.restore(left);
    assert_eq!(woken.open(None, None, Timestamp::from(60)).id, 42);
    assert_eq!(woken.members(), [alice]);
    assert_eq!(woken.counts(), (3, 2));
}

#[test]
fn unjoined_sockets_run_out_of_time_in_order() {
    let mut sockets = Sockets::new(&tight());
    assert_eq!(sockets.next_deadline(), None);
    let early = sockets.open(None, None, Timestamp::from(100));
    let late = sockets.open(None, None, Timestamp::from(400));
    sockets.open(None, Some("agent:a".parse().unwrap()), Timestamp::from(0));
    assert_eq!(sockets.next_deadline(), Some(Timestamp::from(1_100)));
    assert!(sockets.overdue(Timestamp::from(1_099)).is_empty());
    assert_eq!(sockets.overdue(Timestamp::from(1_100)), [early.id]);
    assert_eq!(sockets.overdue(Timestamp::from(5_000)), [early.id, late.id]);
    let close = sockets.join_timeout();
    assert_eq!(close.code, 4504);
    assert!(close.reason.starts_with("timeout: "));
    // A socket that joins in time is no longer waited for.
    sockets.bind(
        early.id,
        Some("agent:b".parse().unwrap()),
        Timestamp::from(200),
    );
    assert_eq!(sockets.next_deadline(), Some(Timestamp::from(1_400)));
}

/// A network with one socket per name, as a host would hold them.
struct Wire {
    network: Network,
    sockets: Sockets,
    records: BTreeMap<String, SocketRecord>,
}

impl Wire {
    fn new() -> Self {
        let config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
        Wire {
            network: Network::new(config, [], 0, [5; 32]),
            sockets: Sockets::new(&Policy::default()),
            records: BTreeMap::new(),
        }
    }

    fn connect(&mut self, name: &str, ip: &str) {
        let record = self.sockets.open(peer(ip), None, Timestamp::from(0));
        self.records.insert(name.to_owned(), record);
    }

    /// Sends a frame on `name`'s socket and plays the host for its binds.
    fn send(&mut self, name: &str, text: &str, now: u64) -> Framed {
        let record = self.records[name].clone();
        let framed = ws::frame(
            &mut self.network,
            &mut self.sockets,
            &record,
            text,
            Timestamp::from(now),
        );
        for effect in &framed.effects {
            match effect {
                Effect::Bind(address) => {
                    let bound =
                        self.sockets
                            .bind(record.id, Some(address.clone()), Timestamp::from(now));
                    self.records.insert(name.to_owned(), bound.unwrap());
                }
                Effect::Read(request) => {
                    self.network
                        .answer_read(request, Vec::new(), true, Timestamp::from(now));
                }
                _ => {}
            }
        }
        framed
    }

    fn join_frame(name: &str, address: &str, credentials: Value) -> String {
        let mut client = crate::client::Client::new(
            address.parse().unwrap(),
            "demo".parse().unwrap(),
            [name.len() as u8; 32],
        );
        client.join(Some(credentials), Timestamp::from(1)).encode()
    }
}

fn error_of(framed: &Framed) -> Option<String> {
    framed.effects.iter().find_map(|e| match e {
        Effect::Reply(event) if event.event_type.as_str() == core_types::EVENT_ERROR => {
            event.payload["code"].as_str().map(str::to_owned)
        }
        _ => None,
    })
}

use serde_json::Value;

#[test]
fn undecodable_frames_close_their_socket_while_members_keep_being_served() {
    let mut wire = Wire::new();
    wire.connect("alice", "10.0.0.1");
    wire.connect("bob", "10.0.0.2");
    wire.connect("noise", "10.0.0.3");
    for (name, address) in [("alice", "agent:alice"), ("bob", "agent:bob")] {
        let join = Wire::join_frame(name, address, json!({}));
        assert_eq!(error_of(&wire.send(name, &join, 1)), None);
    }
    let burst = Policy::default().bad_frames.burst;
    for n in 0..burst {
        let framed = wire.send("noise", "{not json", 2);
        assert_eq!(error_of(&framed).as_deref(), Some("malformed_event"));
        assert_eq!(framed.close, None, "frame {n} is within the allowance");
    }
    let last = wire.send("noise", "{not json", 2);
    assert_eq!(last.close.map(|c| c.code), Some(4400));
    // Unjoined, a decodable event that is not a join counts the same.
    wire.connect("chatty", "10.0.0.4");
    let mut closes = 0;
    for _ in 0..=burst {
        let text = json!({"id": crate::ids::ulid::UlidGenerator::new([8; 32]).next_id(Timestamp::from(3)),
            "type": "chat.msg", "source": "agent:x", "target": "agent:alice", "payload": {},
            "timestamp": 3});
        let framed = wire.send("chatty", &text.to_string(), 3);
        assert_eq!(error_of(&framed).as_deref(), Some("not_joined"));
        closes += usize::from(framed.close.is_some());
    }
    assert_eq!(closes, 1);
    // Members' frames are not counted, and still reach each other.
    let mut alice = crate::client::Client::new(
        "agent:alice".parse().unwrap(),
        "demo".parse().unwrap(),
        [9; 32],
    );
    let hello = alice.event(
        "chat.msg".parse().unwrap(),
        "agent:bob".parse().unwrap(),
        json!({}),
        Timestamp::from(4),
    );
    let framed = wire.send("alice", &hello.encode(), 4);
    assert_eq!(framed.close, None);
    assert_eq!(delivered_to(&framed.effects), ["agent:bob"]);
}

fn delivered_to(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .flat_map(|e| match e {
            Effect::Deliver { to, .. } => to.iter().map(ToString::to_string).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// A network that admits joins with `token` (`mod/auth`).
fn token_network(token: &str) -> Network {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.access = crate::model::config::Access::token(token);
    config.mods = vec![crate::model::config::ModConfig::Auth];
    Network::new(config, [], 0, [5; 32])
}

#[test]
fn failed_joins_are_throttled_per_source_and_others_still_join() {
    let mut wire = Wire::new();
    wire.network = token_network("right");
    wire.connect("guesser", "10.0.0.66");
    let burst = crate::network::FAILED_JOINS.burst;
    for n in 0..burst {
        let guess = Wire::join_frame("guesser", "agent:g", json!({"token": format!("guess-{n}")}));
        assert_eq!(
            error_of(&wire.send("guesser", &guess, 10)).as_deref(),
            Some("access_denied")
        );
    }
    // Used up: even the right token is not checked now.
    let right = Wire::join_frame("guesser", "agent:g", json!({"token": "right"}));
    assert_eq!(
        error_of(&wire.send("guesser", &right, 10)).as_deref(),
        Some("rate_limited")
    );
    // A new socket from the same IP is the same source.
    wire.connect("guesser-2", "10.0.0.66");
    assert_eq!(
        error_of(&wire.send("guesser-2", &right, 10)).as_deref(),
        Some("rate_limited")
    );
    // Someone else joins.
    wire.connect("honest", "10.0.0.7");
    let honest = Wire::join_frame("honest", "agent:h", json!({"token": "right"}));
    assert_eq!(error_of(&wire.send("honest", &honest, 10)), None);
    // Time gives the guesser a try back.
    assert_eq!(error_of(&wire.send("guesser", &right, 10 + 4_000)), None);
}

#[test]
fn challenges_are_throttled_per_source() {
    let mut wire = Wire::new();
    wire.connect("asker", "10.0.0.9");
    wire.connect("other", "10.0.0.10");
    let challenge = |n: u64| {
        let mut client = crate::client::Client::new(
            "openagents:bob".parse().unwrap(),
            "demo".parse().unwrap(),
            [n as u8; 32],
        );
        client
            .event(
                core_types::AGENT_CHALLENGE.parse().unwrap(),
                Address::core(),
                json!({}),
                Timestamp::from(20 + n),
            )
            .encode()
    };
    let burst = crate::network::CHALLENGES.burst;
    for n in 0..u64::from(burst) {
        assert_eq!(error_of(&wire.send("asker", &challenge(n), 20)), None);
    }
    assert_eq!(
        error_of(&wire.send("asker", &challenge(99), 20)).as_deref(),
        Some("rate_limited")
    );
    assert_eq!(error_of(&wire.send("other", &challenge(98), 20)), None);
}

#[test]
fn an_upgrade_is_refused_before_it_joins_when_there_is_no_room() {
    let mut sockets = Sockets::new(&tight());
    let upgrade = |rest: &str, ip: &str| {
        get(rest)
            .with_header("Upgrade", "websocket")
            .with_header("CF-Connecting-IP", ip)
    };
    sockets.open(peer("10.0.0.1"), None, Timestamp::from(0));
    sockets.open(peer("10.0.0.1"), None, Timestamp::from(0));
    let ws = ApiRoute::WebSocket;
    let refused = super::http::refusal(&sockets, &upgrade("v1/ws", "10.0.0.1"), &ws);
    assert_eq!(refused.map(|c| c.code), Some(4429));
    // A join at upgrade is not an unjoined socket; other routes are not sockets.
    assert_eq!(
        super::http::refusal(
            &sockets,
            &upgrade("v1/ws?agent_id=agent%3Ax", "10.0.0.1"),
            &ws
        ),
        None
    );
    assert_eq!(
        super::http::refusal(&sockets, &upgrade("v1/events", "10.0.0.1"), &ApiRoute::Send),
        None
    );
    assert_eq!(super::http::refusal(&sockets, &get("v1/ws"), &ws), None);
}

#[test]
fn failed_http_joins_are_throttled_per_client_ip() {
    let mut world = World::new();
    world.network = token_network("right");
    let join_from = |ip: Option<&str>, token: &str| {
        let body = json!({"agent_id": "agent:x", "credentials": {"token": token}});
        let req = post("v1/join", &body.to_string());
        match ip {
            Some(ip) => req.with_header("CF-Connecting-IP", ip),
            None => req,
        }
    };
    for n in 0..crate::network::FAILED_JOINS.burst {
        let guess = join_from(Some("203.0.113.5"), &format!("guess-{n}"));
        assert_eq!(world.call(&guess).status_and_code(), (403, "access_denied"));
    }
    let right = join_from(Some("203.0.113.5"), "right");
    assert_eq!(world.call(&right).status_and_code(), (429, "rate_limited"));
    assert_eq!(
        world.call(&join_from(Some("203.0.113.6"), "right")).status,
        200
    );
    // Requests without the header share one budget rather than escape it.
    for n in 0..crate::network::FAILED_JOINS.burst {
        world.call(&join_from(None, &format!("guess-{n}")));
    }
    assert_eq!(
        world.call(&join_from(None, "right")).status_and_code(),
        (429, "rate_limited")
    );
}

#[test]
fn empty_batches_are_bad_frames_on_joined_and_unjoined_sockets() {
    let mut wire = Wire::new();
    wire.connect("alice", "10.0.0.1");
    wire.connect("noise", "10.0.0.3");
    let join = Wire::join_frame("alice", "agent:alice", json!({}));
    assert_eq!(error_of(&wire.send("alice", &join, 1)), None);
    let burst = Policy::default().bad_frames.burst;
    for name in ["alice", "noise"] {
        let mut closes = 0;
        for _ in 0..=burst {
            // As the host reads a frame: its events, one by one.
            let texts = ws::events_of("[]");
            assert_eq!(texts, ["[]"]);
            let framed = wire.send(name, texts[0], 2);
            assert_eq!(error_of(&framed).as_deref(), Some("malformed_event"));
            closes += usize::from(framed.close.is_some());
        }
        assert_eq!(closes, 1, "{name} is closed once its allowance is spent");
    }
}
