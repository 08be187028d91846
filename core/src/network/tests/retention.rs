//! Retention: the log keeps an event until everyone it is
//! owed to has it (or its undelivered window ends), history for its window
//! and cap, idle members that hold nothing are removed, expired invitations
//! go, and all of it survives a restart.

use super::*;
use crate::host::MemoryHost;
use crate::ids::time::Timestamp;
use crate::model::retention::Retention;

/// A network, its host in memory and the time.
struct Clock {
    network: Network,
    host: MemoryHost,
    now: u64,
}

impl Clock {
    fn new(mods: Vec<ModConfig>, retention: Retention) -> Self {
        let mut network = network_with(mods);
        network.config.retention = retention;
        let keeps_history = network.pipeline.has(&"mod/persistence".parse().unwrap());
        network.keeps_history = keeps_history;
        Self {
            network,
            host: MemoryHost::default(),
            now: 1_000,
        }
    }

    /// A network with the persistence mod, so it keeps its history.
    fn persisted(retention: Retention) -> Self {
        Self::new(vec![ModConfig::Persistence], retention)
    }

    fn run(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        self.host
            .apply(&mut self.network, effects, Timestamp::from(self.now))
    }

    fn join(&mut self, name: &str) -> Peer {
        let mut peer = Peer::new(name);
        let join = self.join_event(&mut peer);
        let effects = self
            .network
            .handle_event(None, join, Timestamp::from(self.now));
        self.run(effects);
        peer
    }

    /// `peer`'s request to join, now.
    fn join_event(&self, peer: &mut Peer) -> Event {
        let kind = "network.agent.join".parse().unwrap();
        peer.client
            .event(kind, Address::core(), json!({}), Timestamp::from(self.now))
    }

    /// `from` sends `count` events to `to`: their `seq`s.
    fn send_many(&mut self, from: &mut Peer, to: &str, count: usize) -> Vec<u64> {
        (0..count).map(|_| self.send(from, to)).collect()
    }

    /// `from` sends a message to `to`; returns its `seq`.
    fn send(&mut self, from: &mut Peer, to: &str) -> u64 {
        let event = from.client.event(
            "chat.msg".parse().unwrap(),
            addr(to),
            json!({}),
            Timestamp::from(self.now),
        );
        let effects = self.network.handle_event(
            Some(&from.address.clone()),
            event,
            Timestamp::from(self.now),
        );
        let effects = self.run(effects);
        effects
            .iter()
            .find_map(|e| match e {
                Effect::Append { seq, .. } => Some(*seq),
                _ => None,
            })
            .expect("the message is logged")
    }

    /// `member`'s last connection closes.
    fn disconnect(&mut self, member: &Address) {
        let effects = self.network.disconnect(member, Timestamp::from(self.now));
        self.run(effects);
    }

    /// A network whose undelivered events are kept 8 s, with alice online
    /// and bob offline.
    fn with_bob_away() -> (Self, Peer, Peer) {
        let retention = Retention {
            undelivered_ms: 8_000,
            ..week()
        };
        let mut clock = Self::new(Vec::new(), retention);
        let alice = clock.join("agent:alice");
        let bob = clock.join("agent:bob");
        clock.disconnect(&bob.address);
        (clock, alice, bob)
    }

    /// `member` acknowledges everything up to `seq`.
    fn ack(&mut self, member: &Peer, seq: u64) {
        let effects =
            self.network
                .acknowledge_pushed(&member.address, seq, Timestamp::from(self.now));
        self.run(effects);
    }

    fn alarm_at(&mut self, now: u64) -> Vec<Effect> {
        self.now = now;
        let effects = self.network.on_alarm(Timestamp::from(now));
        self.run(effects)
    }

    fn logged(&self) -> Vec<u64> {
        self.host.log.iter().map(|r| r.seq).collect()
    }
}

fn pruned(effects: &[Effect]) -> Option<(u64, u64)> {
    effects.iter().find_map(|e| match e {
        Effect::PruneLog {
            transient_through,
            history_through,
        } => Some((*transient_through, *history_through)),
        _ => None,
    })
}

fn week() -> Retention {
    Retention::default()
}

#[test]
fn events_everyone_has_acknowledged_are_pruned_but_the_newest_stays() {
    let mut clock = Clock::new(Vec::new(), week());
    let mut alice = clock.join("agent:alice");
    let bob = clock.join("agent:bob");
    let seqs = clock.send_many(&mut alice, "agent:bob", 5);
    let last = *seqs.last().unwrap();
    // Alice acknowledges bob's joining; bob has acknowledged nothing: what he is owed stays.
    clock.ack(&alice, last);
    let effects = clock.alarm_at(clock.now + 1);
    let held = pruned(&effects).map_or(0, |(t, _)| t);
    assert!(held < seqs[0], "{held} prunes what bob is owed");
    clock.ack(&bob, last);
    let every = clock.network.config.retention.prune_every_ms();
    let effects = clock.alarm_at(clock.now + every);
    assert_eq!(pruned(&effects), Some((last - 1, 0)));
    assert_eq!(
        clock.logged(),
        [last],
        "the newest row stays for the host's max(seq)"
    );
}

#[test]
fn an_offline_member_holds_its_events_until_the_undelivered_window_ends() {
    let (mut clock, mut alice, _bob) = Clock::with_bob_away();
    let first = clock.send(&mut alice, "agent:bob");
    let last = clock.send(&mut alice, "agent:bob");
    let start = clock.now;
    // Runs every second while the window is open: bob's events stay.
    for t in 1..8 {
        let effects = clock.alarm_at(start + t * 1_000);
        assert!(
            pruned(&effects).is_none_or(|(through, _)| through < first),
            "pruned bob's events at {t} s: {effects:?}"
        );
    }
    assert!(clock.logged().contains(&first));
    let effects = clock.alarm_at(start + 9_000);
    assert_eq!(pruned(&effects), Some((last - 1, 0)));
    assert_eq!(clock.logged(), [last]);
}

#[test]
fn history_is_kept_for_its_cap_and_its_window_once_delivered() {
    let retention = Retention {
        history_events: Some(3),
        history_ms: Some(60_000),
        ..week()
    };
    let mut clock = Clock::persisted(retention);
    let mut alice = clock.join("agent:alice");
    let bob = clock.join("agent:bob");
    let seqs = clock.send_many(&mut alice, "agent:bob", 10);
    let last = *seqs.last().unwrap();
    clock.ack(&alice, last);
    clock.ack(&bob, last);
    let effects = clock.alarm_at(clock.now + 1);
    let (_, history) = pruned(&effects).unwrap();
    assert_eq!(history, last - 3, "the cap keeps the newest three");
    assert_eq!(clock.logged(), [last - 2, last - 1, last]);
    // The window: a minute later only the newest is left.
    let effects = clock.alarm_at(clock.now + 61_000);
    assert_eq!(
        pruned(&effects).map(|(_, h)| h),
        Some(last - 1),
        "{effects:#?}"
    );
    assert_eq!(clock.logged(), [last]);
}

#[test]
fn a_history_capped_by_count_is_pruned_soon_after_the_cap_is_passed() {
    let retention = Retention {
        history_events: Some(3),
        ..week()
    };
    let mut clock = Clock::persisted(retention);
    let mut alice = clock.join("agent:alice");
    let bob = clock.join("agent:bob");
    let early = clock.send(&mut alice, "agent:bob");
    clock.ack(&alice, early);
    clock.ack(&bob, early);
    // The first run comes early (with the first alarm), before the burst.
    clock.alarm_at(clock.now + 1);
    let after_first_run = clock.network.wakeup_bound();
    let last = clock.send_many(&mut alice, "agent:bob", 8)[7];
    clock.ack(&alice, last);
    clock.ack(&bob, last);
    let due = clock.network.next_prune().expect("a run is due");
    assert!(
        due <= Timestamp::from(clock.now + 1_000),
        "the cap was passed: the next run is at most a second away, not {} ms",
        due.millis_since(Timestamp::from(clock.now))
    );
    assert!(
        after_first_run.is_none_or(|at| at > due),
        "sooner than before the burst"
    );
    let effects = clock.alarm_at(due.as_millis());
    assert_eq!(pruned(&effects).map(|(_, h)| h), Some(last - 3));
    assert_eq!(clock.logged(), [last - 2, last - 1, last]);
    // Idle again: no run comes sooner than the usual cadence.
    let idle = clock.network.next_prune();
    assert!(idle.is_none_or(|at| {
        at >= Timestamp::from(clock.now + clock.network.config.retention.prune_every_ms())
    }));
}

#[test]
fn history_without_a_window_is_kept_for_ever() {
    let mut clock = Clock::persisted(week());
    let mut alice = clock.join("agent:alice");
    let bob = clock.join("agent:bob");
    let last = (0..4).map(|_| clock.send(&mut alice, "agent:bob")).last();
    clock.ack(&bob, last.unwrap());
    let before = clock.logged();
    clock.alarm_at(clock.now + 1);
    clock.alarm_at(clock.now + 30 * 24 * 3600 * 1000);
    assert_eq!(clock.logged(), before);
}

#[test]
fn idle_members_holding_nothing_are_removed_and_their_address_freed() {
    let retention = Retention {
        undelivered_ms: 1_000,
        idle_member_ms: Some(10_000),
        ..week()
    };
    let mut clock = Clock::new(Vec::new(), retention);
    let idle = clock.join("agent:idle");
    let owner = clock.join("agent:owner");
    let mut owner = owner;
    let register = owner.client.event(
        "network.resource.register".parse().unwrap(),
        Address::core(),
        json!({"address": "resource/tool/echo", "description": "echo"}),
        Timestamp::from(clock.now),
    );
    let effects = clock.network.handle_event(
        Some(&owner.address.clone()),
        register,
        Timestamp::from(clock.now),
    );
    clock.run(effects);
    assert!(
        clock
            .network
            .state
            .resources
            .contains_key(&addr("resource/tool/echo"))
    );
    for member in [&idle.address, &owner.address] {
        clock.disconnect(member);
    }
    let effects = clock.alarm_at(clock.now + 9_000);
    assert!(
        clock.network.state.members.contains_key(&idle.address),
        "{effects:?}"
    );
    let effects = clock.alarm_at(clock.now + 2_000);
    assert!(
        !clock.network.state.members.contains_key(&idle.address),
        "{effects:#?}"
    );
    assert!(effects.contains(&Effect::Remove {
        kind: RowKind::Member,
        key: "agent:idle".into()
    }));
    assert!(effects.contains(&Effect::EndCredentials(idle.address.clone())));
    assert!(
        clock.network.state.members.contains_key(&owner.address),
        "a member that owns a resource keeps its address"
    );
    // The freed address is anyone's again: a new joiner gets it as a first join.
    let mut newcomer = Peer::new("agent:idle");
    let join = clock.join_event(&mut newcomer);
    let effects = clock
        .network
        .handle_event(None, join, Timestamp::from(clock.now));
    assert!(
        effects.contains(&Effect::Bind(addr("agent:idle"))),
        "{effects:?}"
    );
}

#[test]
fn members_are_not_removed_while_history_without_a_window_could_name_them() {
    let mut clock = Clock::persisted(Retention {
        idle_member_ms: Some(1_000),
        ..week()
    });
    let idle = clock.join("agent:idle");
    clock.disconnect(&idle.address);
    clock.alarm_at(clock.now + 400 * 24 * 3600 * 1000);
    assert!(clock.network.state.members.contains_key(&idle.address));
}

#[test]
fn expired_invitations_are_removed() {
    let mut clock = Clock::new(Vec::new(), week());
    let invitation = Invitation {
        code: "abc".into(),
        invitee: None,
        created_by: addr("agent:boss"),
        expires_at: Timestamp::from(5_000),
        max_uses: 1,
        uses: 0,
    };
    clock
        .network
        .state
        .invitations
        .insert("abc".into(), invitation);
    clock.alarm_at(4_000);
    assert!(
        clock.network.next_wakeup().is_some(),
        "an invitation to expire wakes the network"
    );
    assert!(clock.network.state.invitations.contains_key("abc"));
    let effects = clock.alarm_at(4_000 + clock.network.config.retention.prune_every_ms());
    assert!(effects.contains(&Effect::Remove {
        kind: RowKind::Invitation,
        key: "abc".into()
    }));
    assert!(clock.network.state.invitations.is_empty());
}

#[test]
fn a_restarted_network_remembers_how_old_its_log_is() {
    let (mut clock, mut alice, _bob) = Clock::with_bob_away();
    clock.send(&mut alice, "agent:bob");
    let last = clock.send(&mut alice, "agent:bob");
    // The alarm marks the log's age, then the network restarts from its rows.
    clock.alarm_at(clock.now + 1);
    let marked = clock.now;
    clock.network = Network::new(
        clock.network.config.clone(),
        clock.host.state_rows(),
        clock.host.last_seq(),
        [1; 32],
    );
    let effects = clock.alarm_at(marked + 8_000);
    assert_eq!(pruned(&effects), Some((last - 1, 0)), "{effects:?}");
}

#[test]
fn a_quiet_network_with_nothing_left_to_prune_sets_no_alarm_for_it() {
    let retention = Retention {
        undelivered_ms: 8_000,
        ..week()
    };
    let mut clock = Clock::new(Vec::new(), retention);
    let mut alice = clock.join("agent:alice");
    clock.send(&mut alice, "agent:alice");
    clock.disconnect(&alice.address);
    let mut now = clock.now;
    for _ in 0..40 {
        match clock.network.next_wakeup() {
            Some(at) => {
                now = now.max(at.as_millis());
                clock.alarm_at(now);
            }
            None => break,
        }
    }
    assert_eq!(clock.network.next_wakeup(), None, "it wakes for ever");
}

#[test]
fn one_run_prunes_a_bounded_span_and_the_next_follows_soon() {
    let mut clock = Clock::new(Vec::new(), week());
    let mut alice = clock.join("agent:alice");
    let span = crate::network::MAX_PRUNED_PER_RUN;
    // A long log everyone has: the network jumps its seq as a restored one would.
    clock.send(&mut alice, "agent:alice");
    clock.network.last_seq += 2 * span;
    let last = clock.send(&mut alice, "agent:alice");
    clock.ack(&alice, last);
    let effects = clock.alarm_at(clock.now + 1);
    let (first, _) = pruned(&effects).unwrap();
    assert_eq!(first, span);
    let next = clock.network.next_wakeup().unwrap();
    assert!(
        next <= Timestamp::from(clock.now + 1_000),
        "the next run is soon: {next}"
    );
    let effects = clock.alarm_at(next.as_millis());
    assert_eq!(pruned(&effects).map(|(t, _)| t), Some(2 * span));
}

#[test]
fn a_member_that_went_offline_owing_nothing_holds_back_only_what_came_after() {
    let mut clock = Clock::new(Vec::new(), week());
    let mut alice = clock.join("agent:alice");
    let bob = clock.join("agent:bob");
    let carol = clock.join("agent:carol");
    // Bob acknowledges what he was sent (carol joining); carol is sent more.
    clock.ack(&bob, clock.network.last_seq());
    let sent = clock.send_many(&mut alice, "agent:carol", 3)[2];
    clock.ack(&alice, sent);
    clock.ack(&carol, sent);
    assert!(clock.network.cursor(&bob.address) < sent);
    // Bob goes offline owing nothing; where he resumes stays as it was.
    let cursor = clock.network.cursor(&bob.address);
    clock.disconnect(&bob.address);
    assert_eq!(clock.network.cursor(&bob.address), cursor);
    let last = clock.send(&mut alice, "agent:carol");
    clock.ack(&carol, last);
    let effects = clock.alarm_at(clock.now + 1);
    assert_eq!(
        pruned(&effects),
        Some((sent, 0)),
        "bob holds back only what came after"
    );
}
