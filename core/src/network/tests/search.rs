//! `network.events.query` with `text`: only messages with every word, only
//! what the requester may read, and a clear error for a bad search.

use super::*;
use crate::host::memory::MemoryHost;

/// Sends `kind` to `target` as `peer` and applies the effects in `host`.
fn post(host: &mut MemoryHost, network: &mut Network, peer: &mut Peer, target: &str, text: &str) {
    let effects = peer.send(
        network,
        "workspace.message.posted",
        target,
        json!({"content": text}),
    );
    host.apply(network, effects, Timestamp::from(10));
}

/// The texts `peer` finds for `payload`, oldest first.
fn found(
    host: &mut MemoryHost,
    network: &mut Network,
    peer: &mut Peer,
    payload: Value,
) -> Vec<String> {
    let effects = peer.send(network, "network.events.query", "core", payload);
    let applied = host.apply(network, effects, Timestamp::from(20));
    let answer = applied
        .iter()
        .find_map(|effect| match effect {
            Effect::Deliver { event, .. }
                if event.event_type.as_str() == "network.events.response" =>
            {
                Some(event.payload.clone())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no answer in {applied:?}"));
    answer["events"]
        .as_array()
        .map(|events| {
            events
                .iter()
                .filter_map(|e| e["event"]["payload"]["content"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_text_query_finds_the_messages_with_every_word_that_the_requester_may_read() {
    let mut host = MemoryHost::default();
    let mut network = network_with(vec![ModConfig::Persistence]);
    let [mut alice, mut bob, mut eve] =
        join_all(&mut network, ["agent:alice", "agent:bob", "agent:eve"]);
    let created = alice.ask(
        &mut network,
        CHANNEL_CREATE,
        json!({"channel": "plans", "private": true}),
    );
    host.apply(&mut network, created, Timestamp::from(10));
    post(
        &mut host,
        &mut network,
        &mut alice,
        "agent:broadcast",
        "Deploy on Friday",
    );
    post(
        &mut host,
        &mut network,
        &mut alice,
        "agent:broadcast",
        "lunch on friday?",
    );
    post(
        &mut host,
        &mut network,
        &mut alice,
        "agent:bob",
        "the deploy key, for bob only",
    );
    post(
        &mut host,
        &mut network,
        &mut alice,
        "channel/plans",
        "secret deploy plans",
    );

    let everything = json!({"text": "DEPLOY"});
    assert_eq!(
        found(&mut host, &mut network, &mut alice, everything.clone()),
        [
            "Deploy on Friday",
            "the deploy key, for bob only",
            "secret deploy plans"
        ]
    );
    assert_eq!(
        found(&mut host, &mut network, &mut bob, everything.clone()),
        ["Deploy on Friday", "the deploy key, for bob only"],
        "bob is not in the private channel"
    );
    assert_eq!(
        found(&mut host, &mut network, &mut eve, everything),
        ["Deploy on Friday"],
        "neither the direct message nor the private channel"
    );
    assert_eq!(
        found(
            &mut host,
            &mut network,
            &mut eve,
            json!({"text": "friday  deploy"})
        ),
        ["Deploy on Friday"],
        "every word, in any order"
    );
    assert!(
        found(
            &mut host,
            &mut network,
            &mut eve,
            json!({"text": "nothing like it"})
        )
        .is_empty()
    );
    assert_eq!(
        found(
            &mut host,
            &mut network,
            &mut alice,
            json!({"text": "deploy", "target": "channel/plans"})
        ),
        ["secret deploy plans"],
        "text narrows with the other filters"
    );
}

#[test]
fn a_bad_search_text_is_refused_with_invalid_search_and_the_member_stays() {
    let mut network = network_with(vec![ModConfig::Persistence]);
    let mut bob = join(&mut network, "agent:bob");
    for text in [
        json!("   "),
        json!("x".repeat(201)),
        json!(42),
        json!("a\nb"),
    ] {
        assert_eq!(
            error_code(&bob.send(
                &mut network,
                "network.events.query",
                "core",
                json!({"text": text})
            )),
            ErrorCode::InvalidSearch,
            "{text}"
        );
    }
    let effects = bob.ask(&mut network, EVENTS_QUERY, json!({"text": null}));
    assert!(
        matches!(&effects[..], [Effect::Read(_)]),
        "no text is no filter"
    );
}
