//! The wakeup bound a host schedules its alarm by (`super::super::wakeup`)
//! is never later than the exact next wakeup, whatever members do and
//! whenever the alarm comes, and an alarm sets it exactly again.

use super::*;
use crate::ids::time::Timestamp;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Step {
    Join(usize),
    Broadcast(usize),
    Direct(usize, usize),
    AckAll(usize),
    Heartbeat(usize),
    Disconnect(usize),
    AnswerReads,
    Alarm,
    /// Time moves on by this many ms (or back, when negative: hosts' clocks do).
    Time(i64),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0..5usize).prop_map(Step::Join),
        (0..5usize).prop_map(Step::Broadcast),
        (0..5usize, 0..5usize).prop_map(|(a, b)| Step::Direct(a, b)),
        (0..5usize).prop_map(Step::AckAll),
        (0..5usize).prop_map(Step::Heartbeat),
        (0..5usize).prop_map(Step::Disconnect),
        Just(Step::AnswerReads),
        Just(Step::Alarm),
        prop_oneof![4 => 0..30_000i64, 1 => -2_000..0i64].prop_map(Step::Time),
    ]
}

fn name(i: usize) -> String {
    format!("agent:m{i}")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn the_bound_is_never_later_than_the_next_wakeup(steps in prop::collection::vec(step(), 1..60)) {
        let mut network = bare();
        let mut peers: Vec<Option<Peer>> = (0..5).map(|_| None).collect();
        let mut reads = Vec::new();
        let mut now: u64 = 1_000;
        for step in steps {
            let effects = match step {
                Step::Join(i) => {
                    let mut peer = Peer::new(&name(i));
                    let join = peer.event("network.agent.join", "core", json!({}));
                    peers[i] = Some(peer);
                    network.handle_event(None, join, Timestamp::from(now))
                }
                Step::Broadcast(i) | Step::Direct(i, _) => match peers[i].as_mut() {
                    Some(peer) => {
                        let to = match step {
                            Step::Direct(_, j) => name(j),
                            _ => "agent:broadcast".to_owned(),
                        };
                        let event = peer.event("chat.msg", &to, json!({"text": "hi"}));
                        network.handle_event(Some(&peer.address.clone()), event, Timestamp::from(now))
                    }
                    None => Vec::new(),
                },
                Step::AckAll(i) => network.acknowledge(&addr(&name(i)), u64::MAX, Timestamp::from(now)),
                Step::Heartbeat(i) => network.heartbeat(&addr(&name(i)), Timestamp::from(now)),
                Step::Disconnect(i) => network.disconnect(&addr(&name(i)), Timestamp::from(now)),
                Step::AnswerReads => std::mem::take(&mut reads)
                    .iter()
                    .flat_map(|request| network.answer_read(request, Vec::new(), true, Timestamp::from(now)))
                    .collect(),
                Step::Alarm => {
                    let effects = network.on_alarm(Timestamp::from(now));
                    // An alarm sets the bound exactly: no alarm comes early twice for one deadline.
                    prop_assert_eq!(network.wakeup_bound(), network.next_wakeup());
                    effects
                }
                Step::Time(ms) => {
                    now = now.saturating_add_signed(ms).max(1);
                    Vec::new()
                }
            };
            reads.extend(effects.into_iter().filter_map(|effect| match effect {
                Effect::Read(request) => Some(request),
                _ => None,
            }));
            let (bound, exact) = (network.wakeup_bound(), network.next_wakeup());
            if let Some(exact) = exact {
                prop_assert!(bound.is_some_and(|bound| bound <= exact), "bound {:?} after exact {}", bound, exact);
            }
        }
    }
}
