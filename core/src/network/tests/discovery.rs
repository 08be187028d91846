//! `network.discovery.query`: a member asks core for agents by capability
//! and gets the network's own members and the registry's agents ranked
//! together; bad queries are refused with a stable code.

use super::*;
use crate::host::memory::{MEMORY_ORIGIN, MemoryHost};

fn translator_profile() -> Value {
    json!({"profile": {"description": "helps with contracts",
        "meta": {"skills": [{"id": "translation", "name": "Translation",
            "description": "German legal text into English", "tags": ["german", "legal"]}]}}})
}

fn response(effects: &[Effect]) -> Event {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Deliver { event, .. }
                if event.event_type.as_str() == "network.discovery.response" =>
            {
                Some((**event).clone())
            }
            _ => None,
        })
        .expect("a network.discovery.response is delivered")
}

fn names(answer: &Event) -> Vec<String> {
    answer.payload["agents"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| a["name"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn the_query_becomes_a_discover_effect_with_the_registry_route() {
    let (mut network, mut bob) = bare_with("agent:bob");
    let effects = bob.ask(
        &mut network,
        DISCOVERY_QUERY,
        json!({"q": "German law", "tags": ["legal"], "limit": 5, "verification": 1}),
    );
    let ask = effects
        .iter()
        .find_map(|e| match e {
            Effect::Discover(ask) => Some(ask.clone()),
            _ => None,
        })
        .expect("the network asks its host");
    assert_eq!(ask.requester, bob.address);
    assert_eq!(ask.query.limit, 5);
    assert_eq!(
        ask.registry_path(),
        "/registry/v1/discover?q=german%20law&limit=5&tags=legal&verification=1"
    );
    // No ack: the answer is the response.
    assert!(!effects.iter().any(|e| matches!(e, Effect::Ack(_))));
}

#[test]
fn members_and_registry_agents_are_ranked_together() {
    let mut network = bare();
    let mut host = MemoryHost {
        registry: vec![
            json!({"id": "AIC1", "kind": "registered", "name": "Polyglot", "score": 6}),
            json!({"id": "AIC2", "kind": "registered", "name": "Zeta", "score": 20}),
            // The registry's copy of a member of this network is dropped: the network's own is current.
            json!({"id": "member:demo/agent:alice", "kind": "member", "network": "demo", "name": "alice", "score": 99}),
        ],
        ..MemoryHost::default()
    };
    let alice = join_with(&mut network, "agent:alice", translator_profile());
    let _carol = join_with(
        &mut network,
        "agent:carol",
        json!({"profile": {"description": "cooks pasta"}}),
    );
    let mut bob = join(&mut network, "agent:bob");
    let query = bob.event(
        "network.discovery.query",
        "core",
        json!({"q": "translation"}),
    );
    let id = query.id;
    let effects = network.handle_event(Some(&bob.address.clone()), query, Timestamp::from(50));
    let applied = host.apply(&mut network, effects, Timestamp::from(50));
    let answer = response(&applied);
    assert_eq!(
        answer.metadata.get("in_reply_to"),
        Some(&id.to_json()),
        "the answer names the query"
    );
    // Zeta (registry, 20) > alice (member, exact skill: 10) > Polyglot (6); carol matches nothing.
    assert_eq!(names(&answer), ["Zeta", "alice", "Polyglot"]);
    let member = &answer.payload["agents"][1];
    assert_eq!(member["kind"], "member");
    assert_eq!(member["address"], alice.address.to_string());
    assert_eq!(member["score"], 10);
    assert_eq!(
        member["endpoints"][0]["url"],
        format!(
            "{}/networks/demo/v1/ws",
            MEMORY_ORIGIN.replacen("http", "ws", 1)
        )
    );
    assert_eq!(answer.payload["from_network"], 1);
    assert_eq!(
        answer.payload["from_registry"], 2,
        "the registry's copy of alice is not counted"
    );
    assert_eq!(answer.payload["registry"], "ok");
    // Delivered to the asker only.
    assert!(applied.iter().any(|e| matches!(e, Effect::Deliver { to, event, .. }
        if event.event_type.as_str() == "network.discovery.response" && to == &vec![bob.address.clone()])));
}

#[test]
fn a_registry_that_cannot_answer_leaves_the_members_answer() {
    let mut network = bare();
    let _alice = join_with(&mut network, "agent:alice", translator_profile());
    let mut bob = join(&mut network, "agent:bob");
    let query = bob.event(
        "network.discovery.query",
        "core",
        json!({"tags": "german", "limit": 1}),
    );
    let ask = match network
        .handle_event(Some(&bob.address.clone()), query, Timestamp::from(50))
        .into_iter()
        .find(|e| matches!(e, Effect::Discover(_)))
    {
        Some(Effect::Discover(ask)) => ask,
        _ => panic!("a discover effect"),
    };
    let answer = crate::network::RegistryAnswer {
        agents: Err("the registry did not answer".into()),
        origin: "https://h".into(),
    };
    let answer = response(&network.answer_discovery(&ask, answer, Timestamp::from(60)));
    assert_eq!(names(&answer), ["alice"]);
    assert_eq!(answer.payload["registry"], "unavailable");
    assert_eq!(
        answer.payload["registry_error"],
        "the registry did not answer"
    );
    // A filter the members cannot meet (another network) leaves them out.
    let mut other = ask.clone();
    other.query.network = Some("elsewhere".into());
    let empty = crate::network::RegistryAnswer {
        agents: Ok(Vec::new()),
        origin: "https://h".into(),
    };
    assert!(
        names(&response(&network.answer_discovery(
            &other,
            empty,
            Timestamp::from(61)
        )))
        .is_empty()
    );
}

#[test]
fn bad_queries_are_refused_with_a_stable_code() {
    let (mut network, mut bob) = bare_with("agent:bob");
    for (payload, target) in [
        (json!({"q": 7}), "core"),
        (json!({"tags": [1]}), "core"),
        (json!({"limit": 0}), "core"),
        (json!({"verification": 9}), "core"),
        (json!({"q": "x"}), "agent:broadcast"),
    ] {
        let effects = bob.send(&mut network, "network.discovery.query", target, payload);
        assert_eq!(error_code(&effects), ErrorCode::InvalidRequest);
        assert!(!effects.iter().any(|e| matches!(e, Effect::Discover(_))));
    }
}
