//! The bindings driven natively: a network in memory behind a test host.

mod didwba;
mod files;
mod sessions;
mod sockets;

use super::http::{After, parse_after, parse_limit};
use super::*;
use crate::Timestamp;
use crate::bindings::access::policy::Policy;
use crate::bindings::http::membership;
use crate::bindings::transport::sse;
use crate::network::Effect;
use crate::{Address, EventId, Network, NetworkConfig};
use serde_json::json;

pub(crate) mod world;

use world::World;

const BASE: &str = world::BASE;

pub(crate) fn get(rest: &str) -> Request {
    Request::new(Method::Get, format!("{BASE}{rest}"))
}

pub(crate) fn post(rest: &str, body: &str) -> Request {
    Request::new(Method::Post, format!("{BASE}{rest}")).with_body(body)
}

pub(crate) fn with_token(req: Request, token: &str) -> Request {
    req.with_header("Authorization", &format!("Bearer {token}"))
}

#[test]
fn the_profile_lists_the_transports_of_the_origin() {
    let mut world = World::new();
    let response = world.call(&Request::new(
        Method::Get,
        "http://localhost:8787/networks/demo",
    ));
    let transports = &response.json_body().unwrap()["transports"];
    assert_eq!(
        transports,
        &json!([
            {"type": "http", "endpoint": "http://localhost:8787/networks/demo"},
            {"type": "websocket", "endpoint": "ws://localhost:8787/networks/demo/v1/ws"},
            {"type": "sse", "endpoint": "http://localhost:8787/networks/demo/v1/sse"},
            {"type": "mcp", "endpoint": "http://localhost:8787/networks/demo/mcp"},
        ])
    );
}

#[test]
fn a_join_body_becomes_a_join_event_and_a_session() {
    let mut world = World::new();
    let body = json!({"agent_id": "agent:alice", "role": "observer", "resume_after": 0,
        "credentials": {"token": "x"}});
    let response = world.call(&post("v1/join", &body.to_string()));
    assert_eq!(response.status, 200, "{response:?}");
    let answer = response.json_body().unwrap();
    assert!(answer["token"].as_str().is_some_and(|t| t.len() == 64));
    let alice: Address = "agent:alice".parse().unwrap();
    let member = world.network.member(&alice).expect("alice joined");
    assert_eq!(member.role, crate::Role::Observer);
    assert_eq!(
        world
            .host
            .sessions
            .values()
            .next()
            .map(|s| s.address.as_str()),
        Some("agent:alice")
    );
    let expires = answer["session_expires_at"].as_u64().unwrap();
    assert_eq!(expires, world.host.now + Policy::default().session_idle_ms);

    let parsed = membership::join_body(&body.to_string()).unwrap();
    assert_eq!(parsed.resume_after, Some(0));
    assert_eq!(parsed.credentials, Some(json!({"token": "x"})));
}

#[test]
fn bad_input_gets_a_stable_code_and_status() {
    let mut world = World::new();
    for (req, expected) in [
        (post("v1/join", "{}"), (400, "invalid_request")),
        (
            post("v1/join", "{\"agent_id\": \"no such\"}"),
            (400, "invalid_address"),
        ),
        (post("v1/join", "not json"), (400, "malformed_event")),
        (post("v1/join", &"x".repeat(2 << 20)), (413, "too_large")),
        (get("v1/discover"), (401, "not_joined")),
        (with_token(get("v1/events"), "nope"), (401, "not_joined")),
        (get("v1/ws"), (426, "upgrade_required")),
    ] {
        assert_eq!(world.call(&req).status_and_code(), expected, "{req:?}");
    }
}

#[test]
fn a_posted_event_is_filled_in_and_acknowledged() {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    world.join("agent:bob");
    let event = json!({"type": "chat.msg", "target": "agent:bob", "payload": {"text": "hi"}});
    let response = world.call(&with_token(post("v1/events", &event.to_string()), &alice));
    let ack = response.json_body().unwrap().clone();
    assert!(
        ack["id"]
            .as_str()
            .is_some_and(|id| id.parse::<EventId>().is_ok()),
        "{ack}"
    );
    let seq = ack["seq"].as_u64().expect("logged");
    let row = world.host.log.log.iter().find(|r| r.seq == seq).unwrap();
    assert_eq!(row.event.source.to_string(), "agent:alice");
    assert_eq!(row.event.timestamp, Timestamp::from(world.host.now));

    let forged =
        json!({"type": "chat.msg", "source": "agent:bob", "target": "agent:bob", "payload": {}});
    let response = world.call(&with_token(post("v1/events", &forged.to_string()), &alice));
    assert_eq!(response.status_and_code(), (403, "source_mismatch"));

    let mut body = json!({"type": "x", "id": "kept"});
    let id = crate::ids::ulid::UlidGenerator::new([1; 32]).next_id(Timestamp::from(5));
    http::fill_event(
        &mut body,
        id,
        &"agent:a".parse().unwrap(),
        Timestamp::from(5),
    );
    assert_eq!(
        body,
        json!({"type": "x", "id": "kept", "timestamp": 5, "source": "agent:a"})
    );
}

#[test]
fn a_poll_reads_after_a_seq_or_an_event_id() {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    let bob = world.join("agent:bob");
    let mut ids = Vec::new();
    for n in 0..3 {
        let event = json!({"type": "chat.msg", "target": "agent:bob", "payload": {"n": n}});
        let ack = world.call(&with_token(post("v1/events", &event.to_string()), &alice));
        ids.push(ack.json_body().unwrap()["id"].as_str().unwrap().to_owned());
    }
    let page = world.call(&with_token(get("v1/events?after=0&limit=2"), &bob));
    let page = page.json_body().unwrap().clone();
    assert_eq!(page["events"].as_array().map(Vec::len), Some(2), "{page}");
    assert!(
        page.get("has_more").is_none(),
        "the HTTP page has events and next_after only"
    );
    let rest = world.call(&with_token(
        get(&format!("v1/events?after={}", ids[1])),
        &bob,
    ));
    let rest = rest.json_body().unwrap();
    assert_eq!(rest["events"][0]["event"]["payload"], json!({"n": 2}));

    let unknown = format!(
        "v1/events?after={}",
        crate::ids::ulid::UlidGenerator::new([3; 32]).next_id(Timestamp::from(1))
    );
    assert_eq!(
        world
            .call(&with_token(get(&unknown), &bob))
            .status_and_code(),
        (404, "not_found")
    );
    let bad = with_token(get("v1/events?after=yesterday"), &bob);
    assert_eq!(world.call(&bad).status_and_code(), (400, "invalid_request"));

    assert_eq!(parse_after(None), Ok(After::Cursor));
    assert_eq!(parse_after(Some("12")), Ok(After::Seq(12)));
    assert!(matches!(parse_after(Some(&ids[0])), Ok(After::Event(_))));
    assert_eq!(
        (
            parse_limit(None),
            parse_limit(Some("0")),
            parse_limit(Some("999"))
        ),
        (50, 1, 200)
    );
}

#[test]
fn leave_ends_the_session_and_heartbeat_names_the_member() {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    let beat = world.call(&with_token(post("v1/heartbeat", ""), &alice));
    assert_eq!(
        beat.json_body(),
        Some(&json!({"ok": true, "address": "agent:alice"}))
    );
    let discover = with_token(get("v1/discover"), &alice);
    assert_eq!(world.call(&discover).status, 200);
    let left = world.call(&with_token(post("v1/leave", ""), &alice));
    assert_eq!(left.json_body(), Some(&json!({"ok": true})));
    assert!(world.host.sessions.is_empty());
    assert_eq!(world.call(&discover).status_and_code(), (401, "not_joined"));
}

#[test]
fn a_websocket_join_at_upgrade_waits_for_the_socket_to_catch_up() {
    let mut world = World::new();
    let upgrade = |rest: &str| get(rest).with_header("Upgrade", "websocket");
    match world.outcome(&upgrade("v1/ws")) {
        Outcome::Upgrade(up) => assert!(up.address.is_none() && up.after_accept.is_empty()),
        other => panic!("{other:?}"),
    }
    match world.outcome(&upgrade("v1/ws?agent_id=agent%3Acarol&after=0")) {
        Outcome::Upgrade(up) => {
            assert_eq!(
                up.address.map(|a| a.to_string()).as_deref(),
                Some("agent:carol")
            );
            assert!(!up.after_accept.is_empty());
            assert!(up.after_accept.iter().all(|e| matches!(e, Effect::Read(_))));
        }
        other => panic!("{other:?}"),
    }
    let bad = world.outcome(&upgrade("v1/ws?agent_id=nobody%20here"));
    assert!(matches!(bad, Outcome::Respond(r) if r.status_and_code() == (400, "invalid_address")));
}

#[test]
fn an_sse_stream_opens_with_what_the_member_missed() {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    let bob = world.join("agent:bob");
    for n in 0..2 {
        let event = json!({"type": "chat.msg", "target": "agent:bob", "payload": {"n": n}});
        world.call(&with_token(post("v1/events", &event.to_string()), &alice));
    }
    let mut stream = match world.outcome(&with_token(get("v1/sse?after=0"), &bob)) {
        Outcome::Stream(stream) => stream,
        other => panic!("{other:?}"),
    };
    assert_eq!(stream.member().to_string(), "agent:bob");
    let opening: Vec<String> = std::iter::from_fn(|| stream.pop())
        .map(|bytes| String::from_utf8(bytes).unwrap())
        .collect();
    assert_eq!(opening.len(), 2);
    assert!(opening[0].starts_with("id: ") && opening[1].contains("\"n\":1"));
    assert!(!stream.is_catching_up(), "all it missed fit in its opening");
    // The stream counts as acknowledged: the cursor moved.
    let bob_address: Address = "agent:bob".parse().unwrap();
    assert!(world.network.cursor(&bob_address) > 0);
}

#[test]
fn a_history_query_posted_over_http_answers_with_the_events() {
    let mut world = World::new();
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.mods = vec![crate::model::config::ModConfig::Persistence];
    world.network = Network::new(config, [], 0, [7; 32]);
    let alice = world.join("agent:alice");
    let said =
        json!({"type": "chat.msg", "target": "agent:broadcast", "payload": {"text": "kept"}});
    world.call(&with_token(post("v1/events", &said.to_string()), &alice));
    let query =
        json!({"type": "network.events.query", "target": "core", "payload": {"types": "chat.*"}});
    let response = world.call(&with_token(post("v1/events", &query.to_string()), &alice));
    assert_eq!(response.status, 200, "{response:?}");
    let body = response.json_body().unwrap();
    assert_eq!(body["type"], "network.events.response", "{body}");
    let events = body["payload"]["events"].as_array().unwrap();
    assert_eq!(events.len(), 1, "{body}");
    assert_eq!(events[0]["event"]["payload"]["text"], "kept");
}
