//! A card lists only the tools its viewer may read: a member by its bearer
//! session, anyone else only tools every member may read.

use super::{card_of, get, json_of, register_tool, rpc, run, send, text_part};
use crate::bindings::tests::world::World;
use serde_json::{Value, json};

/// bob offers `plan` (read: network), `audit` (read: owner) and `vault`
/// (read: agents:[agent:alice]).
fn world() -> (World, String, String, String) {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    let bob = world.join("agent:bob");
    let carol = world.join("agent:carol");
    for (name, read) in [
        ("plan", "network"),
        ("audit", "owner"),
        ("vault", "agents:[agent:alice]"),
    ] {
        let tool =
            json!({"address": format!("resource/tool/{name}"), "permissions": {"read": read}});
        register_tool(&mut world, &bob, tool);
    }
    (world, alice, bob, carol)
}

fn card(world: &mut World, path: &str, token: Option<&str>) -> (u16, Value) {
    let mut req = get(path, Some("1.0"));
    if let Some(token) = token {
        req = req.with_header("Authorization", &format!("Bearer {token}"));
    }
    let response = card_of(world, &req);
    (response.status, json_of(&response))
}

fn ids(card: &Value) -> Vec<String> {
    card["skills"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter_map(|s| s["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn an_unauthenticated_card_lists_only_what_every_member_may_read() {
    let (mut world, _, _, _) = world();
    let (_, net) = card(&mut world, "/.well-known/agent-card.json", None);
    assert_eq!(ids(&net), ["agent:bob/plan"]);
    let (_, bob) = card(&mut world, "/agent:bob/.well-known/agent-card.json", None);
    assert_eq!(ids(&bob), ["plan"]);
    // A token that names no session is no viewer.
    let (_, forged) = card(&mut world, "/.well-known/agent-card.json", Some("nope"));
    assert_eq!(ids(&forged), ["agent:bob/plan"]);
}

#[test]
fn a_member_sees_the_tools_it_may_read() {
    let (mut world, alice, bob, carol) = world();
    let (_, seen) = card(&mut world, "/.well-known/agent-card.json", Some(&alice));
    assert_eq!(ids(&seen), ["agent:bob/plan", "agent:bob/vault"]);
    let (_, seen) = card(&mut world, "/.well-known/agent-card.json", Some(&carol));
    assert_eq!(ids(&seen), ["agent:bob/plan"]);
    let (_, own) = card(
        &mut world,
        "/agent:bob/.well-known/agent-card.json",
        Some(&bob),
    );
    assert_eq!(ids(&own), ["audit", "plan", "vault"]);
}

#[test]
fn a_member_whose_readable_tools_are_all_hidden_has_no_card() {
    let (mut world, _, bob, carol) = world();
    send(
        &mut world,
        &bob,
        json!({"type": "network.resource.unregister", "target": "core",
        "payload": {"address": "resource/tool/plan"}}),
    );
    let (status, _) = card(&mut world, "/agent:bob/.well-known/agent-card.json", None);
    assert_eq!(status, 404);
    let (status, _) = card(
        &mut world,
        "/agent:bob/.well-known/agent-card.json",
        Some(&carol),
    );
    assert_eq!(status, 404);
}

#[test]
fn a_message_cannot_name_a_skill_its_sender_may_not_read() {
    let (mut world, _, _, carol) = world();
    let msg = json!({"message": text_part("go"), "metadata": {"skill": "agent:bob/audit"},
        "configuration": {"returnImmediately": true}});
    let req = rpc("", Some(&carol), Some("1.0"), "SendMessage", msg);
    let answer = match run(&mut world, &req) {
        Ok((_, super::Reply::Now(value))) => value,
        Ok((_, other)) => panic!("{other:?}"),
        Err(response) => json_of(&response),
    };
    assert!(answer.get("result").is_none(), "{answer}");
    assert!(world.network.state().tasks.is_empty());
}
