//! Resource exhaustion: a long log is caught up a page at a time as
//! the member acknowledges, a member that never acknowledges costs at most
//! [`MAX_IN_FLIGHT`] deliveries and [`MAX_IN_FLIGHT_BYTES`], and one member whose catch-up cannot be read
//! holds up nobody else.

use super::*;
use crate::host::MemoryHost;
use crate::host::apply::{Host, apply_effects};
use crate::ids::time::Timestamp;
use crate::network::delivery::tracker::{
    CATCH_UP_PAGE, MAX_IN_FLIGHT, MAX_IN_FLIGHT_BYTES, READ_RETRY_MS,
};
use std::collections::{BTreeSet, VecDeque};

/// A host with its log in memory whose catch-up reads fail for the members in `failing`.
#[derive(Default)]
struct FlakyHost {
    log: MemoryHost,
    failing: BTreeSet<Address>,
    failures: Vec<String>,
    applied: Vec<Effect>,
}

impl Host for FlakyHost {
    type Error = String;

    fn apply(&mut self, effect: Effect) -> Result<Vec<(Address, u64)>, String> {
        self.log.apply_one(&effect);
        self.applied.push(effect);
        Ok(Vec::new())
    }

    fn read(&mut self, request: &ReadRequest) -> Result<ReadRows, String> {
        match &request.reader {
            Reader::CatchUp { member } if self.failing.contains(member) => {
                Err(format!("the storage failed reading for {member}"))
            }
            _ => Ok(self.log.read_rows(request)),
        }
    }

    fn catch_up_failed(&mut self, _: &ReadRequest, error: String) {
        self.failures.push(error);
    }
}

/// A network, its host and the time: each call is one turn of the host.
struct Turns {
    network: Network,
    host: FlakyHost,
    now: u64,
}

impl Turns {
    fn new() -> Self {
        Self {
            network: bare(),
            host: FlakyHost::default(),
            now: 1_000,
        }
    }

    fn run(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        apply_effects(
            &mut self.network,
            effects,
            Timestamp::from(self.now),
            &mut self.host,
        )
        .expect("a turn fails only for a reason other than one member's catch-up");
        std::mem::take(&mut self.host.applied)
    }

    fn send(&mut self, peer: &mut Peer, kind: &str, target: &str, payload: Value) -> Vec<Effect> {
        let event = peer.client.event(
            kind.parse().unwrap(),
            addr(target),
            payload,
            Timestamp::from(self.now),
        );
        let effects = self.network.handle_event(
            Some(&peer.address.clone()),
            event,
            Timestamp::from(self.now),
        );
        self.run(effects)
    }

    /// `peer` asks `core`, the network itself.
    fn ask(&mut self, peer: &mut Peer, kind: &str, payload: Value) -> Vec<Effect> {
        self.send(peer, kind, "core", payload)
    }

    /// Joins `peer`; returns the turn's effects.
    fn join(&mut self, peer: &mut Peer, payload: Value) -> Vec<Effect> {
        let event = peer.client.event(
            "network.agent.join".parse().unwrap(),
            Address::core(),
            payload,
            Timestamp::from(self.now),
        );
        let effects = self
            .network
            .handle_event(None, event, Timestamp::from(self.now));
        self.run(effects)
    }

    /// `address` joins for the first time; its peer and its member secret.
    fn first_join(&mut self, address: &str) -> (Peer, String) {
        let mut peer = Peer::new(address);
        let effects = self.join(&mut peer, json!({}));
        let secret = acked(&effects).payload["member_secret"]
            .as_str()
            .expect("a first join is given a member secret")
            .to_owned();
        (peer, secret)
    }

    fn alarm(&mut self) -> Vec<Effect> {
        let effects = self.network.on_alarm(Timestamp::from(self.now));
        self.run(effects)
    }

    fn disconnect(&mut self, member: &Address) {
        let effects = self.network.disconnect(member, Timestamp::from(self.now));
        self.run(effects);
    }
}

/// The logged deliveries to `member` among `effects`: `(seq, prev, payload.n)`.
fn deliveries(effects: &[Effect], member: &Address) -> Vec<(u64, u64, u64)> {
    effects
        .iter()
        .filter_map(|effect| match effect {
            Effect::Deliver {
                to,
                event,
                order: Some(order),
            } => {
                let at = to.iter().position(|t| t == member)?;
                Some((order.seq, order.prev[at], event.payload["n"].as_u64()?))
            }
            _ => None,
        })
        .collect()
}

/// How many catch-up pages were read in one turn.
fn pages_read(effects: &[Effect]) -> usize {
    effects
        .iter()
        .filter(|e| {
            matches!(
                e,
                Effect::Read(ReadRequest {
                    reader: Reader::CatchUp { .. },
                    ..
                })
            )
        })
        .count()
}

const EVENTS: u64 = MAX_IN_FLIGHT as u64 + 1_500;

impl Turns {
    /// Peers of these addresses, each joined for the first time.
    fn joined<const N: usize>(&mut self, addresses: [&str; N]) -> [Peer; N] {
        addresses.map(|address| self.first_join(address).0)
    }

    /// `bob` (whose member secret is `secret`), away, misses `events` chat
    /// messages from `alice`, then comes back asking for everything: the
    /// effects of his join.
    fn back_after_missing(
        &mut self,
        (alice, bob): (&mut Peer, &mut Peer),
        secret: &str,
        events: u64,
    ) -> Vec<Effect> {
        self.disconnect(&bob.address);
        for n in 0..events {
            self.send(alice, "chat.msg", "agent:bob", json!({"n": n}));
        }
        self.join(bob, resuming_from_the_start(secret))
    }
}

/// A join payload of a member coming back, asking for everything since the start.
fn resuming_from_the_start(secret: &str) -> Value {
    json!({"credentials": {"member_secret": secret}, "resume": {"after": 0}})
}

/// `received` are `0..count` in order, each delivery chained to the one
/// before it, the first to `first_prev`.
fn assert_in_order(received: &[(u64, u64, u64)], first_prev: u64, count: u64) {
    let ns: Vec<u64> = received.iter().map(|d| d.2).collect();
    assert_eq!(ns, (0..count).collect::<Vec<_>>());
    let mut prev = first_prev;
    for (seq, chained, _) in received {
        assert_eq!(*chained, prev, "delivery {seq} chains to the one before it");
        prev = *seq;
    }
}

#[test]
fn a_long_log_is_caught_up_a_page_at_a_time_as_the_member_acknowledges() {
    let mut turns = Turns::new();
    let [mut alice, mut carol] = turns.joined(["agent:alice", "agent:carol"]);
    let (mut bob, secret) = turns.first_join("agent:bob");

    // Bob comes back asking for everything: the ack, then one page, no more.
    let effects = turns.back_after_missing((&mut alice, &mut bob), &secret, EVENTS);
    let ack = effects
        .iter()
        .position(|e| matches!(e, Effect::Ack(_)))
        .unwrap();
    let read = effects
        .iter()
        .position(|e| matches!(e, Effect::Read(_)))
        .unwrap();
    assert!(ack < read, "the join's ack comes before its catch-up");
    assert_eq!(pages_read(&effects), 1);
    let mut unread: VecDeque<(u64, u64, u64)> = deliveries(&effects, &bob.address).into();
    assert_eq!(unread.len(), CATCH_UP_PAGE);

    // Bob acknowledges every 32 deliveries, as the replica does; in between,
    // carol and alice talk. Each turn reads at most one page of bob's catch-up.
    let mut received = Vec::new();
    for turn in 0.. {
        assert!(turn < 10_000, "the catch-up stalled at {}", received.len());
        if received.len() == EVENTS as usize && unread.is_empty() {
            break;
        }
        let effects = if unread.is_empty() {
            // Nothing to acknowledge: the host's alarm reads the page that is due.
            turns.now += 1;
            turns.alarm()
        } else {
            let chunk: Vec<_> = unread.drain(..unread.len().min(32)).collect();
            let last = chunk.last().map_or(0, |d| d.0);
            received.extend(chunk);
            let chat = turns.send(&mut carol, "chat.msg", "agent:alice", json!({}));
            assert_eq!(
                delivered_to(&chat),
                ["agent:alice"],
                "others are served meanwhile"
            );
            turns.ask(&mut bob, "network.event.ack", json!({"seq": last}))
        };
        assert!(
            pages_read(&effects) <= 1,
            "turn {turn} read more than a page"
        );
        unread.extend(deliveries(&effects, &bob.address));
        assert!(
            unread.len() <= MAX_IN_FLIGHT,
            "{} unacknowledged deliveries",
            unread.len()
        );
    }
    // Everything, once, in order, each delivery chained to the one before.
    assert_in_order(&received, 0, EVENTS);
    // The catch-up is over: live deliveries flow again.
    let live = turns.send(&mut alice, "chat.msg", "agent:bob", json!({"n": EVENTS}));
    assert_eq!(deliveries(&live, &bob.address).len(), 1);
}

/// Sends `events` chat messages from `alice` to `bob`, who acknowledges none,
/// and counts those delivered to him live. Alice is never held up by bob:
/// each of her events is acknowledged.
fn send_to_silent(
    turns: &mut Turns,
    alice: &mut Peer,
    bob: &Peer,
    events: u64,
    payload: impl Fn(u64) -> Value,
) -> usize {
    let mut to_bob = 0;
    for n in 0..events {
        let effects = turns.send(alice, "chat.msg", "agent:bob", payload(n));
        to_bob += deliveries(&effects, &bob.address).len();
        acked(&effects);
    }
    to_bob
}

#[test]
fn large_events_to_a_member_that_never_acknowledges_stop_at_the_bytes_bound() {
    let mut turns = Turns::new();
    let [mut alice, bob] = turns.joined(["agent:alice", "agent:bob"]);
    let body = "x".repeat(100 * 1024);
    let to_bob = send_to_silent(
        &mut turns,
        &mut alice,
        &bob,
        100,
        |n| json!({"n": n, "body": body}),
    );
    // Each event is a little over 100 KiB: live deliveries stop with the one
    // that takes the unacknowledged bytes past the bound.
    let under = MAX_IN_FLIGHT_BYTES / (100 * 1024);
    assert!(
        (under..=under + 1).contains(&to_bob),
        "{to_bob} live deliveries of 100 KiB"
    );
}

#[test]
fn a_member_that_never_acknowledges_gets_no_more_than_the_bound() {
    let mut turns = Turns::new();
    let [mut alice, mut bob] = turns.joined(["agent:alice", "agent:bob"]);
    let to_bob = send_to_silent(&mut turns, &mut alice, &bob, EVENTS, |n| json!({"n": n}));
    assert_eq!(to_bob, MAX_IN_FLIGHT, "live deliveries stop at the bound");

    // Redelivery, for three timeouts with the alarm ticking every 100 ms:
    // each time, at most the bound again, a page per turn.
    let cursor = turns.network.cursor(&bob.address);
    let mut per_redelivery = Vec::new();
    let end = turns.now + 3 * REDELIVERY_TIMEOUT_MS + 150;
    while turns.now < end {
        turns.now += 100;
        let effects = turns.alarm();
        assert!(pages_read(&effects) <= 1);
        let got = deliveries(&effects, &bob.address);
        assert!(got.len() <= CATCH_UP_PAGE);
        // A redelivery starts again from bob's cursor.
        if got.first().is_some_and(|d| d.1 == cursor) {
            per_redelivery.push(0);
        }
        if let Some(count) = per_redelivery.last_mut() {
            *count += got.len();
        }
    }
    assert_eq!(per_redelivery.len(), 3, "{per_redelivery:?}");
    assert!(
        per_redelivery.iter().all(|n| *n > 0 && *n <= MAX_IN_FLIGHT),
        "{per_redelivery:?}"
    );

    // Bob starts acknowledging: he gets the rest.
    let mut last = 0;
    let mut seen = BTreeSet::new();
    for _ in 0..1_000 {
        turns.now += REDELIVERY_TIMEOUT_MS;
        let mut effects = turns.alarm();
        loop {
            let got = deliveries(&effects, &bob.address);
            let Some(newest) = got.iter().map(|d| d.0).max() else {
                break;
            };
            seen.extend(got.iter().map(|d| d.2));
            last = last.max(newest);
            effects = turns.ask(&mut bob, "network.event.ack", json!({"seq": last}));
        }
        if seen.len() == EVENTS as usize {
            break;
        }
    }
    assert_eq!(seen.len(), EVENTS as usize);
}

#[test]
fn one_member_whose_redelivery_fails_holds_up_nobody_else() {
    let mut turns = Turns::new();
    // `agent:bad` sorts before `agent:bob`: its redelivery comes first.
    let [mut alice, bad, bob] = turns.joined(["agent:alice", "agent:bad", "agent:bob"]);
    for n in 0..10 {
        turns.send(&mut alice, "chat.msg", "agent:bad", json!({"n": n}));
        turns.send(&mut alice, "chat.msg", "agent:bob", json!({"n": n}));
    }
    // Neither acknowledged; the storage fails reading for bad.
    turns.host.failing.insert(bad.address.clone());
    turns.now += REDELIVERY_TIMEOUT_MS;
    let effects = turns.alarm();
    assert_eq!(turns.host.failures.len(), 1, "{:?}", turns.host.failures);
    assert!(turns.host.failures[0].contains("agent:bad"));
    assert_eq!(
        deliveries(&effects, &bob.address).len(),
        10,
        "bob's redelivery went out"
    );
    assert!(deliveries(&effects, &bad.address).is_empty());

    // Meanwhile what comes for bad waits in the log, nothing is lost…
    let live = turns.send(&mut alice, "chat.msg", "agent:bad", json!({"n": 10}));
    assert!(deliveries(&live, &bad.address).is_empty());
    // …and once the storage answers again, bad's catch-up is read again.
    turns.host.failing.clear();
    turns.now += READ_RETRY_MS;
    let effects = turns.alarm();
    let ns: Vec<u64> = deliveries(&effects, &bad.address)
        .iter()
        .map(|d| d.2)
        .collect();
    assert_eq!(ns, (0..=10).collect::<Vec<_>>());
}

#[test]
fn a_member_that_leaves_mid_catch_up_is_read_for_no_more() {
    let mut turns = Turns::new();
    let [mut alice] = turns.joined(["agent:alice"]);
    let (mut bob, secret) = turns.first_join("agent:bob");
    // Bob's own broadcasts fill the first page: it delivers nothing to him.
    for n in 0..CATCH_UP_PAGE as u64 + 10 {
        turns.send(&mut bob, "chat.msg", "agent:broadcast", json!({"n": n}));
    }
    for n in 0..10 {
        turns.send(&mut alice, "chat.msg", "agent:bob", json!({"n": n}));
    }
    turns.disconnect(&bob.address);
    let effects = turns.join(&mut bob, resuming_from_the_start(&secret));
    assert!(deliveries(&effects, &bob.address).is_empty());
    assert!(
        turns
            .network
            .next_wakeup()
            .is_some_and(|at| at <= Timestamp::from(turns.now)),
        "the next page is due at the alarm"
    );
    turns.ask(&mut bob, "network.agent.leave", json!({}));
    for _ in 0..5 {
        turns.now += REDELIVERY_TIMEOUT_MS;
        let effects = turns.alarm();
        let for_bob = effects.iter().any(|e| {
            matches!(e, Effect::Read(ReadRequest { reader: Reader::CatchUp { member }, .. }) if *member == bob.address)
        });
        assert!(!for_bob, "nothing is read for a member that left");
    }
    // Back, it catches up from the start as it asks.
    let effects = turns.join(&mut bob, resuming_from_the_start(&secret));
    let mut got = deliveries(&effects, &bob.address);
    for _ in 0..3 {
        turns.now += 1;
        got.extend(deliveries(&turns.alarm(), &bob.address));
    }
    let ns: Vec<u64> = got.iter().map(|d| d.2).collect();
    assert_eq!(ns, (0..10).collect::<Vec<_>>());
}

impl Turns {
    /// The network restarts from what its host stored (as a Durable Object
    /// evicted from memory does): nothing of the tracker survives but rows.
    fn restart(&mut self) {
        let config = self.network.config().clone();
        self.network = Network::new(
            config,
            self.host.log.state_rows(),
            self.host.log.last_seq(),
            [5; 32],
        );
    }

    fn stored_catch_ups(&self) -> usize {
        self.host
            .log
            .state_rows()
            .iter()
            .filter(|r| matches!(r, Row::CatchUp { .. }))
            .count()
    }
}

/// Bob takes and acknowledges everything that comes, alarm after alarm, until quiet.
fn acknowledge_all(
    turns: &mut Turns,
    bob: &mut Peer,
    mut effects: Vec<Effect>,
) -> Vec<(u64, u64, u64)> {
    let mut received = Vec::new();
    for _ in 0..1_000 {
        let got = deliveries(&effects, &bob.address);
        effects = match got.last() {
            Some(&(seq, _, _)) => {
                received.extend(got);
                turns.send(bob, "network.event.ack", "core", json!({"seq": seq}))
            }
            None if turns
                .network
                .next_wakeup()
                .is_some_and(|at| at <= Timestamp::from(turns.now + 1)) =>
            {
                turns.now += 1;
                turns.alarm()
            }
            None => break,
        };
    }
    received
}

#[test]
fn a_catch_up_goes_on_after_the_network_restarts() {
    let mut turns = Turns::new();
    let [mut alice] = turns.joined(["agent:alice"]);
    let (mut bob, secret) = turns.first_join("agent:bob");
    let effects = turns.back_after_missing((&mut alice, &mut bob), &secret, EVENTS);
    let first = deliveries(&effects, &bob.address);
    assert_eq!(first.len(), CATCH_UP_PAGE);
    assert_eq!(
        turns.stored_catch_ups(),
        1,
        "the catch-up is stored while it runs"
    );
    // Evicted between two pages (bob's socket stays open meanwhile).
    turns.restart();
    let last = first.last().unwrap().0;
    let effects = turns.ask(&mut bob, "network.event.ack", json!({"seq": last}));
    let mut received = first;
    received.extend(acknowledge_all(&mut turns, &mut bob, effects));
    assert_in_order(&received, 0, EVENTS);
    assert_eq!(
        turns.stored_catch_ups(),
        0,
        "a finished catch-up leaves no row"
    );
}

#[test]
fn a_member_waiting_at_the_bound_is_served_after_the_network_restarts() {
    let mut turns = Turns::new();
    let [mut alice, mut bob] = turns.joined(["agent:alice", "agent:bob"]);
    let mut received = Vec::new();
    for n in 0..MAX_IN_FLIGHT as u64 + 100 {
        let effects = turns.send(&mut alice, "chat.msg", "agent:bob", json!({"n": n}));
        received.extend(deliveries(&effects, &bob.address));
    }
    assert_eq!(received.len(), MAX_IN_FLIGHT);
    assert_eq!(turns.stored_catch_ups(), 1);
    turns.restart();
    let last = received.last().unwrap().0;
    let effects = turns.ask(&mut bob, "network.event.ack", json!({"seq": last}));
    received.extend(acknowledge_all(&mut turns, &mut bob, effects));
    let first_prev = received[0].1;
    assert_in_order(&received, first_prev, MAX_IN_FLIGHT as u64 + 100);
    assert_eq!(turns.stored_catch_ups(), 0);
}
