//! Every state transition of the replica, against a real network in a memory host.

use super::*;
use crate::error::ErrorCode;
use crate::event::Event;
use crate::event::Limits;
use crate::host::MemoryHost;
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::model::config::NetworkConfig;
use crate::network::{Effect, Network};
use serde_json::{Map, Value, json};

/// A network and one host, with helpers to pass frames both ways.
struct World {
    network: Network,
    host: MemoryHost,
}

impl World {
    fn new() -> Self {
        Self {
            network: Network::new(
                NetworkConfig::open("demo".parse().unwrap(), "Demo"),
                [],
                0,
                [4; 32],
            ),
            host: MemoryHost::default(),
        }
    }

    /// Sends a replica's frames as `session` and feeds `to` those that reach
    /// it; what `to` makes of them.
    fn relay(
        &mut self,
        session: &mut Option<Address>,
        effects: &[ReplicaEffect],
        to: &mut Replica,
        now: u64,
    ) -> Vec<ReplicaEffect> {
        let frames = self.send_to_network(session, effects, now);
        feed(to, &frames, now)
    }

    /// Sends a replica's frames as `session`; returns frames for each address.
    fn send_to_network(
        &mut self,
        session: &mut Option<Address>,
        effects: &[ReplicaEffect],
        now: u64,
    ) -> Vec<(Address, String)> {
        let mut out = Vec::new();
        for effect in effects {
            let ReplicaEffect::Send(frame) = effect else {
                continue;
            };
            let mut effects = Vec::new();
            for event in crate::event::batch::split(frame) {
                effects.extend(self.network.handle_frame(
                    session.as_ref(),
                    event,
                    Timestamp::from(now),
                ));
            }
            for effect in self
                .host
                .apply(&mut self.network, effects, Timestamp::from(now))
            {
                match &effect {
                    Effect::Bind(a) => *session = Some(a.clone()),
                    Effect::Unbind => *session = None,
                    Effect::Reply(_) | Effect::Ack(_) => {
                        if let Some(e) = effect.reply() {
                            let to = session.clone().unwrap_or_else(|| e.target.clone());
                            out.push((to, e.encode()));
                        }
                    }
                    Effect::Deliver { .. } => {
                        out.extend(effect.frames().into_iter().map(|(a, f)| (a.clone(), f)))
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

fn replica(name: &str, seed: u8) -> Replica {
    Replica::new(name.parse().unwrap(), "demo".parse().unwrap(), [seed; 32])
}

fn sends(effects: &[ReplicaEffect]) -> Vec<Event> {
    effects
        .iter()
        .filter_map(|e| match e {
            ReplicaEffect::Send(f) => Event::decode(f, &Limits::default()).ok(),
            _ => None,
        })
        .collect()
}

fn feed(r: &mut Replica, frames: &[(Address, String)], now: u64) -> Vec<ReplicaEffect> {
    let me = r.address().clone();
    frames
        .iter()
        .filter(|(a, _)| *a == me)
        .flat_map(|(_, f)| r.receive(f, Timestamp::from(now)))
        .collect()
}

fn chat() -> EventType {
    "chat.msg".parse().unwrap()
}

fn online(
    world: &mut World,
    r: &mut Replica,
    session: &mut Option<Address>,
    now: u64,
) -> Vec<ReplicaEffect> {
    let join = r.connected(None, Timestamp::from(now));
    world.relay(session, &join, r, now)
}

/// A world where `r` alone came online at `now`, and `r`'s session.
fn online_alone(r: &mut Replica, now: u64) -> (World, Option<Address>) {
    let mut world = World::new();
    let mut session = None;
    online(&mut world, r, &mut session, now);
    (world, session)
}

/// `r` asks `target` with a `chat.msg` request that times out after `timeout_ms`.
fn chat_request(
    r: &mut Replica,
    target: &str,
    payload: Value,
    timeout_ms: u64,
    now: u64,
) -> (EventId, Vec<ReplicaEffect>) {
    r.request(
        chat(),
        target.parse().unwrap(),
        payload,
        timeout_ms,
        Timestamp::from(now),
    )
}

/// `r` posts `{"n": n}` to everyone.
fn post_n(r: &mut Replica, n: u64, now: u64) -> (EventId, Vec<ReplicaEffect>) {
    post_n_to(r, Address::broadcast(), n, now)
}

/// `r` posts `{"n": n}` to `target`.
fn post_n_to(r: &mut Replica, target: Address, n: u64, now: u64) -> (EventId, Vec<ReplicaEffect>) {
    r.post(
        chat(),
        target,
        json!({"n": n}),
        Map::new(),
        Timestamp::from(now),
    )
}

/// `r` posts an empty chat message to everyone.
fn post_empty(r: &mut Replica, now: u64) -> (EventId, Vec<ReplicaEffect>) {
    let at = Timestamp::from(now);
    r.post(chat(), Address::broadcast(), json!({}), Map::new(), at)
}

/// The `n` of each event received among `effects`.
fn received_ns(effects: &[ReplicaEffect]) -> Vec<i64> {
    effects
        .iter()
        .filter_map(|e| match e {
            ReplicaEffect::Received(ev) => ev.payload["n"].as_i64(),
            _ => None,
        })
        .collect()
}

/// A replica that came online, and its session.
type OnlineReplica = (Replica, Option<Address>);

/// A world where alice and bob came online at 1: each replica with its session.
fn alice_and_bob_online() -> (World, OnlineReplica, OnlineReplica) {
    let mut world = World::new();
    let (mut alice, mut bob) = (replica("agent:alice", 1), replica("agent:bob", 2));
    let (mut sa, mut sb) = (None, None);
    online(&mut world, &mut alice, &mut sa, 1);
    online(&mut world, &mut bob, &mut sb, 1);
    (world, (alice, sa), (bob, sb))
}

#[test]
fn offline_posts_wait_and_flush_in_creation_order_after_join() {
    let mut world = World::new();
    let mut alice = replica("agent:alice", 1);
    let (first, effects) = post_n(&mut alice, 1, 10);
    assert!(
        matches!(&effects[..], [ReplicaEffect::Persist(ReplicaRow::Outbox(e))] if e.state == OutboxState::Pending)
    );
    let (second, _) = post_n(&mut alice, 2, 10);

    let mut session = None;
    let join = alice.connected(None, Timestamp::from(11));
    let sent = sends(&join);
    assert_eq!(sent[0].event_type.as_str(), core_types::AGENT_JOIN);
    assert!(
        sent[0].payload.get("resume").is_none(),
        "a fresh replica does not resume"
    );
    let frames = world.send_to_network(&mut session, &join, 11);
    let effects = feed(&mut alice, &frames, 11);
    assert!(alice.is_online());
    assert_eq!(effects[0], ReplicaEffect::Online);
    let flushed: Vec<EventId> = sends(&effects).iter().map(|e| e.id).collect();
    assert_eq!(flushed, vec![first, second]);

    let acks = world.relay(&mut session, &effects, &mut alice, 12);
    assert!(
        acks.iter()
            .any(|e| matches!(e, ReplicaEffect::Accepted { id, seq: 2, .. } if *id == first))
    );
    assert!(
        acks.iter()
            .any(|e| matches!(e, ReplicaEffect::Accepted { id, seq: 3, .. } if *id == second))
    );
    assert_eq!(alice.outbox().count(), 0);
    assert_eq!(alice.log().keys().copied().collect::<Vec<_>>(), vec![2, 3]);
}

#[test]
fn rejected_events_stay_in_the_outbox_with_the_reason() {
    let mut alice = replica("agent:alice", 1);
    let (mut world, mut session) = online_alone(&mut alice, 1);
    let (id, effects) = alice.post(
        chat(),
        "agent:nobody".parse().unwrap(),
        json!({}),
        Map::new(),
        Timestamp::from(2),
    );
    let effects = world.relay(&mut session, &effects, &mut alice, 2);
    assert!(
        effects.iter().any(|e| matches!(
            e,
            ReplicaEffect::Rejected { id: rejected, rejection }
                if *rejected == id && rejection.code == ErrorCode::UnknownTarget
        )),
        "{effects:?}"
    );
    let entry = alice.outbox().next().unwrap();
    assert!(
        matches!(&entry.state, OutboxState::Rejected { rejection } if rejection.code == ErrorCode::UnknownTarget)
    );
}

#[test]
fn deliveries_apply_once_in_order_and_are_acknowledged() {
    let (mut world, (mut alice, mut sa), (mut bob, _sb)) = alice_and_bob_online();
    let (_, effects) = post_n(&mut alice, 1, 2);
    let frames = world.send_to_network(&mut sa, &effects, 2);
    let received = feed(&mut bob, &frames, 2);
    assert!(received_ns(&received).contains(&1));
    // The ack waits a moment so that a burst of deliveries shares one.
    assert!(sends(&received).is_empty());
    assert_eq!(next_timeout(&bob), Some(2 + ACK_DELAY_MS));
    let acks = sends(&bob.handle_timeout(Timestamp::from(2 + ACK_DELAY_MS)));
    assert_eq!(acks.len(), 1);
    assert_eq!(acks[0].event_type.as_str(), core_types::EVENT_ACK);
    assert_eq!(acks[0].payload["seq"], 3);
    assert_eq!(next_timeout(&bob), None);
    // The same frame again is a duplicate: no event, just a repeated ack.
    let again = feed(&mut bob, &frames, 3);
    assert!(
        !again
            .iter()
            .any(|e| matches!(e, ReplicaEffect::Received(_)))
    );
    assert_eq!(sends(&again)[0].payload["seq"], 3);
    assert_eq!(bob.watermark(), Some(3));
}

#[test]
fn a_log_limit_bounds_memory_without_changing_delivery() {
    for limit in [0, 2] {
        let mut world = World::new();
        let (mut alice, mut bob) = (replica("agent:alice", 1), replica("agent:bob", 2));
        alice.set_log_limit(Some(0));
        bob.set_log_limit(Some(limit));
        let (mut sa, mut sb) = (None, None);
        online(&mut world, &mut alice, &mut sa, 1);
        online(&mut world, &mut bob, &mut sb, 1);
        let mut first = Vec::new();
        let mut received = 0;
        for n in 0..5 {
            let (_, effects) = post_n(&mut alice, n, 2);
            let frames = world.send_to_network(&mut sa, &effects, 2);
            feed(&mut alice, &frames, 2);
            if n == 0 {
                first = frames.clone();
            }
            received += feed(&mut bob, &frames, 2)
                .iter()
                .filter(|e| matches!(e, ReplicaEffect::Received(_)))
                .count();
        }
        assert_eq!(received, 5, "limit {limit}: every event is applied");
        assert_eq!(bob.log().len(), limit, "limit {limit}");
        if let Some((_, newest)) = bob.log().last_key_value() {
            assert_eq!(newest.payload["n"], 4);
        }
        assert!(
            alice.log().is_empty(),
            "the sender's accepted events are not kept either"
        );
        let again = feed(&mut bob, &first, 3);
        assert!(
            !again
                .iter()
                .any(|e| matches!(e, ReplicaEffect::Received(_))),
            "limit {limit}: a forgotten event delivered again is still a duplicate"
        );
    }
}

#[test]
fn a_gap_asks_for_a_resend_instead_of_applying() {
    let (mut world, (mut alice, mut sa), (mut bob, mut sb)) = alice_and_bob_online();
    let (_, one) = post_n(&mut alice, 1, 2);
    let lost = world.send_to_network(&mut sa, &one, 2);
    let (_, two) = post_n(&mut alice, 2, 3);
    let second = world.send_to_network(&mut sa, &two, 3);
    drop(lost); // the first delivery never reaches bob
    let effects = feed(&mut bob, &second, 3);
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, ReplicaEffect::Received(_)))
    );
    let resume = sends(&effects);
    assert_eq!(resume[0].event_type.as_str(), core_types::AGENT_RESUME);
    assert_eq!(
        resume[0].payload["after"], 1,
        "bob's chain started after alice's join"
    );
    assert!(feed(&mut bob, &second, 3).is_empty(), "one resume per gap");
    let resent = world.send_to_network(&mut sb, &effects, 4);
    let effects = feed(&mut bob, &resent, 4);
    let got = received_ns(&effects);
    assert_eq!(got, vec![1, 2]);
}

#[test]
fn reconnect_resumes_from_the_watermark_and_resends_unacked() {
    let (mut world, (mut alice, mut sa), (mut bob, _)) = alice_and_bob_online();
    // Bob goes away; alice's message waits in the log for him.
    bob.disconnected();
    world
        .network
        .disconnect(&"agent:bob".parse().unwrap(), Timestamp::from(2));
    let mut sb = None;
    let (_, effects) = post_n(&mut alice, 7, 3);
    world.send_to_network(&mut sa, &effects, 3);
    // Bob wrote while offline too.
    let (mine, _) = post_n(&mut bob, 8, 4);
    let join = bob.connected(None, Timestamp::from(5));
    assert_eq!(sends(&join)[0].payload["resume"]["after"], 1);
    let effects = world.relay(&mut sb, &join, &mut bob, 5);
    assert!(received_ns(&effects).contains(&7));
    let outgoing = sends(&effects);
    assert!(
        outgoing.iter().any(|e| e.id == mine),
        "the offline post is flushed after the join"
    );
}

#[test]
fn restore_brings_back_watermark_log_and_outbox() {
    let mut a = replica("agent:a", 1);
    let (id, effects) = post_empty(&mut a, 1);
    let mut rows: Vec<ReplicaRow> = effects
        .into_iter()
        .filter_map(|e| match e {
            ReplicaEffect::Persist(row) => Some(row),
            _ => None,
        })
        .collect();
    rows.push(ReplicaRow::Watermark { seq: 9 });
    let json = serde_json::to_string(&rows).unwrap();
    let mut b = replica("agent:a", 1);
    b.restore(serde_json::from_str::<Vec<ReplicaRow>>(&json).unwrap());
    assert_eq!(b.watermark(), Some(9));
    assert_eq!(b.outbox().next().unwrap().event.id, id);
    assert_eq!(
        sends(&b.connected(None, Timestamp::from(2)))[0].payload["resume"]["after"],
        9
    );
}

#[test]
fn requests_resolve_by_in_reply_to_fail_on_error_and_time_out() {
    let (mut world, (mut alice, mut sa), (mut bob, mut sb)) = alice_and_bob_online();
    let (request, effects) = chat_request(&mut alice, "agent:bob", json!({"q": 1}), 1_000, 2);
    assert_eq!(next_timeout(&alice), Some(1_002));
    let frames = world.send_to_network(&mut sa, &effects, 2);
    feed(&mut alice, &frames, 2);
    let at_bob = feed(&mut bob, &frames, 2);
    world.send_to_network(&mut sb, &at_bob, 2);
    let mut meta = Map::new();
    meta.insert("in_reply_to".into(), json!(request));
    let (_, reply) = bob.post(
        chat(),
        "agent:alice".parse().unwrap(),
        json!({"a": 2}),
        meta,
        Timestamp::from(3),
    );
    let frames = world.send_to_network(&mut sb, &reply, 3);
    let effects = feed(&mut alice, &frames, 3);
    assert!(effects.iter().any(|e| matches!(e, ReplicaEffect::Replied { request: r, reply } if *r == request && reply.payload["a"] == 2)));
    // Only the delivery's coalesced ack is still due.
    assert_eq!(next_timeout(&alice), Some(3 + ACK_DELAY_MS));
    alice.handle_timeout(Timestamp::from(3 + ACK_DELAY_MS));
    assert_eq!(next_timeout(&alice), None);

    let (failing, effects) = chat_request(&mut alice, "agent:ghost", json!({}), 1_000, 4);
    let effects = world.relay(&mut sa, &effects, &mut alice, 4);
    assert!(effects.iter().any(|e| matches!(e, ReplicaEffect::RequestFailed { request, rejection } if *request == failing && rejection.code == ErrorCode::UnknownTarget)));

    let (slow, _) = chat_request(&mut alice, "agent:bob", json!({}), 100, 5);
    assert!(alice.handle_timeout(Timestamp::from(104)).is_empty());
    let expired = alice.handle_timeout(Timestamp::from(105));
    assert!(
        matches!(&expired[..], [ReplicaEffect::RequestFailed { request, rejection }] if *request == slow && rejection.code == ErrorCode::Timeout)
    );
}

#[test]
fn a_refused_join_is_reported() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Private");
    config.access = crate::model::config::Access::token("t");
    config.mods = vec![crate::model::config::ModConfig::Auth];
    let mut world = World {
        network: Network::new(config, [], 0, [1; 32]),
        host: MemoryHost::default(),
    };
    let mut alice = replica("agent:alice", 1);
    let mut session = None;
    let effects = online(&mut world, &mut alice, &mut session, 1);
    assert!(
        matches!(&effects[..], [ReplicaEffect::JoinFailed(r)] if r.code == ErrorCode::AccessDenied)
    );
    assert!(!alice.is_online());
}

/// A network that requires key proof (level 1) and registers one key for `openagents:alice`.
fn key_world(registered_secret: [u8; 32]) -> World {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Keys");
    config.access.min_verification = crate::ids::standing::Verification::KEY_PROOF;
    config.mods = vec![crate::model::config::ModConfig::Auth];
    config.keys.insert(
        "openagents:alice".parse().unwrap(),
        crate::crypto::to_hex(&crate::verification::public_key_of(&registered_secret)),
    );
    config.validate().unwrap();
    World {
        network: Network::new(config, [], 0, [3; 32]),
        host: MemoryHost::default(),
    }
}

/// Runs frames back and forth until the replica has nothing more to send.
fn settle(
    world: &mut World,
    r: &mut Replica,
    session: &mut Option<Address>,
    mut effects: Vec<ReplicaEffect>,
    now: u64,
) -> Vec<ReplicaEffect> {
    let mut seen = Vec::new();
    while effects.iter().any(|e| matches!(e, ReplicaEffect::Send(_))) {
        let frames = world.send_to_network(session, &effects, now);
        seen.append(&mut effects);
        effects = feed(r, &frames, now);
    }
    seen.extend(effects);
    seen
}

#[test]
fn a_signing_key_proves_the_address_through_a_challenge() {
    let secret = [9; 32];
    let mut world = key_world(secret);
    let mut alice = replica("openagents:alice", 1);
    alice.set_signing_key(secret);
    let mut session = None;
    let first = alice.connected(None, Timestamp::from(5));
    assert_eq!(
        sends(&first)[0].event_type.as_str(),
        core_types::AGENT_CHALLENGE
    );
    let effects = settle(&mut world, &mut alice, &mut session, first, 5);
    let join = sends(&effects)
        .into_iter()
        .find(|e| e.event_type.as_str() == core_types::AGENT_JOIN)
        .expect("a join follows the challenge");
    let credentials = &join.payload["credentials"];
    assert!(credentials["nonce"].is_string() && credentials["signature"].is_string());
    assert!(effects.iter().any(|e| matches!(e, ReplicaEffect::Online)));
    assert!(alice.is_online());
    assert_eq!(session, Some("openagents:alice".parse().unwrap()));
}

#[test]
fn a_wrong_key_or_no_key_is_refused_with_a_stable_code() {
    let mut world = key_world([9; 32]);
    let mut mallory = replica("openagents:alice", 2);
    mallory.set_signing_key([8; 32]);
    let mut session = None;
    let first = mallory.connected(None, Timestamp::from(5));
    let effects = settle(&mut world, &mut mallory, &mut session, first, 5);
    assert!(effects.iter().any(
        |e| matches!(e, ReplicaEffect::JoinFailed(r) if r.code == ErrorCode::VerificationFailed)
    ));
    assert!(!mallory.is_online());

    // Without a key the network's minimum verification refuses the join.
    let mut anonymous = replica("openagents:alice", 3);
    let mut session = None;
    let effects = online(&mut world, &mut anonymous, &mut session, 6);
    assert!(matches!(&effects[..], [ReplicaEffect::JoinFailed(_)]));
}

#[test]
fn an_unanswered_challenge_is_sent_again() {
    let mut alice = replica("openagents:alice", 1);
    alice.set_signing_key([9; 32]);
    let first = alice.connected(None, Timestamp::from(5));
    assert_eq!(next_timeout(&alice), Some(5 + RESEND_AFTER_MS));
    let again = alice.handle_timeout(Timestamp::from(5 + RESEND_AFTER_MS));
    assert_eq!(sends(&again), sends(&first));
    assert!(format!("{alice:?}").contains("SigningSecret(..)"));
}

#[test]
fn a_request_answered_without_an_ack_leaves_the_outbox_and_is_not_resent() {
    let mut alice = replica("agent:alice", 1);
    let (mut world, mut session) = online_alone(&mut alice, 1);
    let (id, effects) = alice.request(
        EventType::from_static(core_types::AGENT_DISCOVER),
        Address::core(),
        json!({}),
        10_000,
        Timestamp::from(2),
    );
    let answered = world.relay(&mut session, &effects, &mut alice, 2);
    assert!(
        answered
            .iter()
            .any(|e| matches!(e, ReplicaEffect::Replied { request, .. } if *request == id))
    );
    assert!(answered.iter().any(|e| matches!(e, ReplicaEffect::Persist(ReplicaRow::OutboxRemoved { id: removed }) if *removed == id)));
    assert_eq!(alice.outbox().count(), 0);
    assert!(sends(&alice.handle_timeout(Timestamp::from(2 + RESEND_AFTER_MS))).is_empty());
}

#[test]
fn a_burst_of_deliveries_is_acknowledged_once_per_ack_every() {
    let (mut world, (mut alice, mut sa), (mut bob, mut sb)) = alice_and_bob_online();
    let mut acks = Vec::new();
    for n in 0..ACK_EVERY * 2 + 3 {
        let (_, effects) = post_n_to(&mut alice, "agent:bob".parse().unwrap(), n, 2);
        acks.extend(sends(&world.relay(&mut sa, &effects, &mut bob, 2)));
    }
    // Two full batches acked at once, cumulatively; the rest after the delay.
    let seqs: Vec<u64> = acks
        .iter()
        .map(|a| a.payload["seq"].as_u64().unwrap())
        .collect();
    let watermark = bob.watermark().unwrap();
    assert_eq!(seqs, vec![watermark - 3 - ACK_EVERY, watermark - 3]);
    let last = sends(&bob.handle_timeout(Timestamp::from(2 + ACK_DELAY_MS)));
    assert_eq!(last[0].payload["seq"].as_u64(), Some(watermark));
    // The network's cursor follows the cumulative acks: nothing is redelivered later.
    world.send_to_network(&mut sb, &[ReplicaEffect::Send(last[0].encode())], 3);
    let redelivered = world.network.on_alarm(Timestamp::from(
        3 + crate::network::REDELIVERY_TIMEOUT_MS + 1,
    ));
    assert!(
        !redelivered
            .iter()
            .any(|e| matches!(e, Effect::Deliver { .. })),
        "{redelivered:?}"
    );
}

/// A replica that watches its link with the default keepalive.
fn kept_alive(name: &str, seed: u8) -> Replica {
    let mut r = replica(name, seed);
    r.set_keepalive(Some(Keepalive::default()));
    r
}

/// Alice, keeping her link alive by default, alone online since `now`; the
/// world she is in.
fn alice_kept_alive_online(now: u64) -> (Replica, World) {
    let mut alice = kept_alive("agent:alice", 1);
    let (world, _) = online_alone(&mut alice, now);
    (alice, world)
}

/// When `r` next wants its `handle_timeout` called, in milliseconds.
fn next_timeout(r: &Replica) -> Option<u64> {
    r.poll_timeout().map(Timestamp::as_millis)
}

/// The frames among `effects` that go out to the network.
fn frames_sent(effects: &[ReplicaEffect]) -> Vec<&str> {
    effects
        .iter()
        .filter_map(|e| match e {
            ReplicaEffect::Send(f) => Some(f.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_silent_link_gets_a_heartbeat_and_its_answer_keeps_it() {
    let k = Keepalive::default();
    let (mut alice, _) = alice_kept_alive_online(1_000);
    // Nothing else is pending: the next call is the heartbeat.
    assert_eq!(next_timeout(&alice), Some(1_000 + k.heartbeat_after_ms));
    assert!(
        alice
            .handle_timeout(Timestamp::from(1_000 + k.heartbeat_after_ms - 1))
            .is_empty()
    );
    let beat = alice.handle_timeout(Timestamp::from(1_000 + k.heartbeat_after_ms));
    assert_eq!(frames_sent(&beat), [HEARTBEAT_PING]);
    // The edge's answer is no event, but the link is alive: no dead link, a
    // heartbeat again after the next silence.
    let answered = 1_000 + k.heartbeat_after_ms + 40;
    assert!(
        alice
            .receive(HEARTBEAT_PONG, Timestamp::from(answered))
            .is_empty()
    );
    assert_eq!(next_timeout(&alice), Some(answered + k.heartbeat_after_ms));
    assert!(alice.is_online());
}

#[test]
fn traffic_postpones_the_heartbeat() {
    let k = Keepalive::default();
    let mut world = World::new();
    let (mut alice, mut bob) = (kept_alive("agent:alice", 1), replica("agent:bob", 2));
    let (mut sa, mut sb) = (None, None);
    online(&mut world, &mut alice, &mut sa, 0);
    online(&mut world, &mut bob, &mut sb, 0);
    let (_, effects) = post_empty(&mut bob, 9_000);
    world.relay(&mut sb, &effects, &mut alice, 9_000);
    alice.handle_timeout(Timestamp::from(9_000 + ACK_DELAY_MS));
    assert_eq!(next_timeout(&alice), Some(9_000 + k.heartbeat_after_ms));
}

#[test]
fn an_unanswered_heartbeat_means_a_dead_link_and_a_reconnection_after_backoff() {
    let k = Keepalive::default();
    let (mut alice, mut world) = alice_kept_alive_online(0);
    // Posted into the half-open link: it waits, unacknowledged.
    let (id, _) = post_empty(&mut alice, 10);
    let ping_at = k.heartbeat_after_ms;
    let beat = alice.handle_timeout(Timestamp::from(ping_at));
    assert!(frames_sent(&beat).contains(&HEARTBEAT_PING));
    // The event is resent into the silence meanwhile; the link is not dead yet.
    let before = alice.handle_timeout(Timestamp::from(ping_at + k.heartbeat_timeout_ms - 1));
    assert!(!before.contains(&ReplicaEffect::Disconnect));
    assert_eq!(next_timeout(&alice), Some(ping_at + k.heartbeat_timeout_ms));
    let dead = alice.handle_timeout(Timestamp::from(ping_at + k.heartbeat_timeout_ms));
    assert_eq!(
        dead,
        [ReplicaEffect::Disconnect],
        "nothing more into the dead link"
    );
    assert!(!alice.is_online());
    assert_eq!(
        next_timeout(&alice),
        None,
        "nothing until the host reports the closed link"
    );

    // The host closed it; the first attempt comes within the first backoff.
    let closed = ping_at + k.heartbeat_timeout_ms + 5;
    alice.lost(Timestamp::from(closed), u32::MAX);
    let again = closed + k.backoff(0, u32::MAX);
    assert_eq!(next_timeout(&alice), Some(again));
    assert_eq!(
        alice.handle_timeout(Timestamp::from(again)),
        [ReplicaEffect::Reconnect]
    );
    // That attempt fails too: the next waits twice as long.
    alice.lost(Timestamp::from(again + 1), u32::MAX);
    assert_eq!(
        next_timeout(&alice),
        Some(again + 1 + k.backoff(1, u32::MAX))
    );
    let third = again + 1 + k.backoff(1, u32::MAX);
    assert_eq!(
        alice.handle_timeout(Timestamp::from(third)),
        [ReplicaEffect::Reconnect]
    );

    // This one works: joined, the event goes out again, and the backoff starts afresh.
    let mut session = None;
    let effects = online(&mut world, &mut alice, &mut session, third + 10);
    assert!(alice.is_online());
    assert!(sends(&effects).iter().any(|e| e.id == id));
    alice.lost(Timestamp::from(third + 20), 0);
    assert_eq!(next_timeout(&alice), Some(third + 20 + k.backoff(0, 0)));
}

#[test]
fn the_platform_going_offline_ends_the_link_and_coming_back_reconnects_at_once() {
    let k = Keepalive::default();
    let (mut alice, _) = alice_kept_alive_online(0);
    assert_eq!(
        alice.network_changed(true, Timestamp::from(5)),
        [],
        "online while online: nothing"
    );
    // The browser says it lost the network: the link is dead now, not after the heartbeat.
    assert_eq!(
        alice.network_changed(false, Timestamp::from(10)),
        [ReplicaEffect::Disconnect]
    );
    assert!(!alice.is_online());
    assert_eq!(
        alice.network_changed(false, Timestamp::from(11)),
        [],
        "said once"
    );
    // Attempts fail while offline and the backoff grows.
    alice.lost(Timestamp::from(10), u32::MAX);
    let mut at = 10;
    for attempt in 0..6 {
        at += k.backoff(attempt, u32::MAX);
        assert_eq!(
            alice.handle_timeout(Timestamp::from(at)),
            [ReplicaEffect::Reconnect]
        );
        alice.lost(Timestamp::from(at), u32::MAX);
    }
    assert!(next_timeout(&alice).is_some_and(|next| next >= at + 5_000));
    // The network is back: the attempt is now, and the next loss starts the backoff afresh.
    assert_eq!(
        alice.network_changed(true, Timestamp::from(at + 1)),
        [ReplicaEffect::Reconnect]
    );
    alice.lost(Timestamp::from(at + 2), u32::MAX);
    assert_eq!(next_timeout(&alice), Some(at + 2 + k.backoff(0, u32::MAX)));
}

#[test]
fn jitter_spreads_reconnections_by_the_randomness_passed_in() {
    let mut at = std::collections::BTreeSet::new();
    for random in [0, u32::MAX / 3, u32::MAX / 2, u32::MAX] {
        let mut r = kept_alive("agent:alice", 1);
        r.lost(Timestamp::from(1_000), random);
        at.insert(next_timeout(&r));
    }
    assert_eq!(at.len(), 4, "{at:?}");
    assert!(
        at.iter()
            .all(|t| t.is_some_and(|t| (1_125..=1_250).contains(&t)))
    );
}

#[test]
fn without_a_keepalive_the_host_keeps_the_link() {
    let mut alice = replica("agent:alice", 1);
    online_alone(&mut alice, 0);
    assert_eq!(alice.poll_timeout(), None, "no heartbeat");
    alice.lost(Timestamp::from(5), 0);
    assert_eq!(alice.poll_timeout(), None, "no reconnection");
    assert!(!alice.is_online());
}

#[test]
fn a_new_replica_of_a_known_address_catches_up_on_what_it_missed() {
    let (mut world, (mut alice, mut sa), (bob, _)) = alice_and_bob_online();
    world
        .network
        .disconnect(&"agent:bob".parse().unwrap(), Timestamp::from(2));
    for n in 0..2 {
        let (_, effects) = post_n_to(&mut alice, "agent:bob".parse().unwrap(), n, 3);
        world.send_to_network(&mut sa, &effects, 3);
    }
    // A new process for bob: an empty replica that knows only bob's secret.
    let mut again = replica("agent:bob", 9);
    again.set_member_secret(bob.member_secret().map(str::to_owned));
    let mut sc = None;
    let joined = online(&mut world, &mut again, &mut sc, 5);
    // The catch-up follows the join's answer; anything that came before it
    // would be asked for again right after it. Either way: each once, in order.
    let frames = world.send_to_network(&mut sc, &joined, 5);
    let effects: Vec<ReplicaEffect> = joined
        .into_iter()
        .chain(feed(&mut again, &frames, 5))
        .collect();
    let got = received_ns(&effects);
    assert_eq!(got, vec![0, 1], "{effects:#?}");
}

#[test]
fn a_batched_frame_is_applied_event_by_event_and_turns_on_batched_sends() {
    let (mut world, (mut alice, mut alice_session), (mut bob, mut bob_session)) =
        alice_and_bob_online();
    let mut posted = Vec::new();
    for n in 0..3 {
        let (_, effects) = post_n(&mut bob, n, 2);
        posted.extend(effects);
    }
    assert!(!bob.sends_batches(), "no batch came from the network yet");
    assert_eq!(bob.coalesce_sends(posted.clone()), posted);
    let frames = world.send_to_network(&mut bob_session, &posted, 2);
    let to_alice: Vec<String> = frames
        .iter()
        .filter(|(a, _)| a == alice.address())
        .map(|(_, f)| f.clone())
        .collect();
    assert_eq!(to_alice.len(), 3);
    let before = alice.log().len();
    let effects = alice.receive(
        &crate::event::batch::join(&to_alice, true),
        Timestamp::from(3),
    );
    let received: Vec<u64> = effects
        .iter()
        .filter_map(|e| match e {
            ReplicaEffect::Received(event) => event.payload["n"].as_u64(),
            _ => None,
        })
        .collect();
    assert_eq!(
        received,
        vec![0, 1, 2],
        "every event of the batch, in order"
    );
    assert_eq!(alice.log().len(), before + 3);
    assert!(alice.sends_batches());
    // The same batch again changes nothing but re-acks.
    let again = alice.receive(
        &crate::event::batch::join(&to_alice, true),
        Timestamp::from(4),
    );
    assert!(
        !again
            .iter()
            .any(|e| matches!(e, ReplicaEffect::Received(_)))
    );

    // Alice's burst goes out as one frame the network takes event by event.
    let mut burst = Vec::new();
    for n in 10..13 {
        let (_, effects) = post_n(&mut alice, n, 5);
        burst.extend(effects);
    }
    let coalesced = alice.coalesce_sends(burst);
    assert_eq!(frames_sent(&coalesced).len(), 1);
    assert!(
        matches!(coalesced.last(), Some(ReplicaEffect::Send(_))),
        "rows persist first"
    );
    let acks = world.relay(&mut alice_session, &coalesced, &mut alice, 5);
    let accepted = acks
        .iter()
        .filter(|e| matches!(e, ReplicaEffect::Accepted { .. }))
        .count();
    assert_eq!(accepted, 3);
    assert_eq!(alice.outbox().count(), 0);
    // A new connection forgets that the old one took batches.
    alice.disconnected();
    alice.connected(None, Timestamp::from(6));
    assert!(!alice.sends_batches());
}

#[test]
fn joins_say_whether_the_member_takes_tasks_once_it_is_set() {
    let mut r = replica("agent:worker", 9);
    assert!(
        sends(&r.connected(None, Timestamp::from(1)))[0]
            .payload
            .get("tasks")
            .is_none()
    );
    r.set_takes_tasks(Some(false));
    assert_eq!(
        sends(&r.connected(None, Timestamp::from(2)))[0].payload["tasks"],
        false
    );
    r.set_takes_tasks(Some(true));
    assert_eq!(
        sends(&r.connected(None, Timestamp::from(3)))[0].payload["tasks"],
        true
    );
}
