//! The message graph at acceptance: `refs` checked, link rows emitted.

use super::*;
use crate::model::graph::{self, Direction, GraphIndex};

/// The test host's index: what the network appended, shared with the test.
type Shared = super::durable::Durable;

/// Plays the host: stores the links of every append.
fn applied(shared: &Shared, effects: &[Effect]) {
    shared.applied(effects.to_vec());
}

fn setup() -> (Network, Shared, Peer, Peer) {
    let mut network = network_with(vec![ModConfig::Persistence]);
    let shared = Shared::default();
    network.set_event_index(Box::new(shared.clone()));
    let [mut alice, mut bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    for channel in ["a", "b"] {
        let created = alice.ask(&mut network, CHANNEL_CREATE, json!({"channel": channel}));
        applied(&shared, &created);
        let joined = bob.ask(&mut network, CHANNEL_JOIN, json!({"channel": channel}));
        applied(&shared, &joined);
    }
    (network, shared, alice, bob)
}

fn post(
    network: &mut Network,
    shared: &Shared,
    peer: &mut Peer,
    channel: &str,
    parents: &[&Event],
    nodes: &[&str],
) -> (Event, Vec<Effect>) {
    let mut event = peer.event("ioa.message", channel, json!({"content": {"text": "x"}}));
    let messages: Vec<String> = parents.iter().map(|p| p.id.to_string()).collect();
    event
        .metadata
        .insert("refs".into(), json!({"messages": messages, "nodes": nodes}));
    let effects = network.handle_event(
        Some(&peer.address.clone()),
        event.clone(),
        Timestamp::from(10),
    );
    applied(shared, &effects);
    (event, effects)
}

#[test]
fn a_reply_in_the_same_channel_is_linked_to_its_parents() {
    let (mut network, shared, mut alice, mut bob) = setup();
    let (root, _) = post(&mut network, &shared, &mut alice, "channel/a", &[], &[]);
    let (other, _) = post(&mut network, &shared, &mut alice, "channel/a", &[], &[]);
    let (merge, effects) = post(
        &mut network,
        &shared,
        &mut bob,
        "channel/a",
        &[&root, &other],
        &["agent:alice"],
    );
    assert!(
        matches!(&effects[0], Effect::Append { links, .. } if links.len() == 7),
        "{effects:?}"
    );
    let seq = network.seq_of_logged(&merge.id).unwrap();
    let graph: &dyn GraphIndex = &shared;
    let up = graph::related(graph, seq, Direction::Upstream);
    assert_eq!(up.len(), 3);
    assert_eq!(
        graph.linked(
            &graph::recipient_key(&addr("agent:alice")),
            0,
            u64::MAX,
            10,
            graph::End::Oldest
        ),
        vec![seq]
    );
}

#[test]
fn a_parent_in_another_channel_or_nowhere_is_refused() {
    let (mut network, shared, mut alice, _) = setup();
    let (root, _) = post(&mut network, &shared, &mut alice, "channel/a", &[], &[]);
    let stranger = alice.event("ioa.message", "channel/a", json!({}));
    for (channel, parent) in [("channel/b", &root), ("channel/a", &stranger)] {
        let (_, effects) = post(&mut network, &shared, &mut alice, channel, &[parent], &[]);
        assert_eq!(error_code(&effects), ErrorCode::UnknownParent, "{channel}");
    }
}

#[test]
fn a_recipient_that_is_not_a_member_is_refused() {
    let (mut network, shared, mut alice, _) = setup();
    let (_, effects) = post(
        &mut network,
        &shared,
        &mut alice,
        "channel/a",
        &[],
        &["agent:nobody"],
    );
    assert_eq!(error_code(&effects), ErrorCode::UnknownRecipient);
}
