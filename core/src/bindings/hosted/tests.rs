//! Hosted agents end to end in memory: a master adds one over HTTP (the key
//! kept aside, in no event), a person mentions it, its loop is fed the
//! delivery, a recorded provider answer comes back and the agent posts once;
//! a turn its host lost is reported once.

use super::*;
use crate::NetworkConfig;
use crate::bindings::tests::world::World;
use crate::bindings::tests::{get, post, with_token};
use crate::network::Effect;
use serde_json::{Value, json};

const KEY: &str = "sk-hosted-secret-0123456789";
const OPENAI_ANSWER: &str = include_str!("../../agent/fixtures/openai_answer.json");

fn helper() -> Address {
    "agent:helper".parse().unwrap()
}

/// A network whose master is ada; ada's and bob's tokens.
fn world() -> (World, String, String) {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.masters.push("human:ada".parse().unwrap());
    let mut world = World::with_config(config);
    let ada = world.join("human:ada");
    let bob = world.join("human:bob");
    (world, ada, bob)
}

fn add_helper(world: &mut World, token: &str) -> Value {
    let body = json!({"name": "Helper", "address": "agent:helper", "persona": "You help.",
        "provider": "openai_chat", "base_url": "https://api.openai.com/v1",
        "model": "gpt-4o-mini", "key": KEY});
    let response = world.call(&with_token(
        post("v1/admin/agents", &body.to_string()),
        token,
    ));
    assert_eq!(response.status, 200, "{response:?}");
    response.json_body().unwrap().clone()
}

fn say(world: &mut World, token: &str, target: &str, content: &str) -> EventId {
    let body = json!({"type": "workspace.message.posted", "target": target,
        "payload": {"content": content}});
    let response = world.call(&with_token(post("v1/events", &body.to_string()), token));
    assert_eq!(response.status, 200, "{response:?}");
    let id = &response.json_body().unwrap()["id"];
    serde_json::from_value(id.clone()).unwrap()
}

/// The events delivered to `to` since `from` in the host's applied effects.
fn delivered_to(world: &World, to: &Address, from: usize) -> Vec<Event> {
    world.host.applied[from..]
        .iter()
        .filter_map(|e| match e {
            Effect::Deliver { to: who, event, .. } if who.contains(to) => Some((**event).clone()),
            _ => None,
        })
        .collect()
}

fn posts_of(world: &World, source: &Address) -> Vec<Event> {
    world
        .host
        .log
        .log
        .iter()
        .filter(|r| {
            &r.event.source == source && r.event.event_type.as_str() == "workspace.message.posted"
        })
        .map(|r| (*r.event).clone())
        .collect()
}

#[test]
fn the_key_is_kept_aside_and_appears_in_no_event_or_answer() {
    let (mut world, ada, bob) = world();
    let answer = add_helper(&mut world, &ada);
    assert_eq!(answer, json!({"address": "agent:helper", "key": "own"}));
    assert_eq!(
        world.host.agent_keys.get(&helper()).map(String::as_str),
        Some(KEY)
    );
    let listed = world.call(&with_token(get("v1/admin/agents"), &ada));
    let listed = listed.json_body().unwrap();
    assert_eq!(listed["agents"][0]["key"], "own");
    assert_eq!(
        listed["agents"][0]["config"]["key_var"],
        "AGENTNET_MODEL_KEY"
    );
    let config = world.call(&with_token(get("v1/admin/config"), &ada));
    for text in [
        format!("{:?}", world.host.applied),
        format!("{:?}", world.host.log.log),
        listed.to_string(),
        format!("{config:?}"),
        format!("{:?}", world.network.config()),
    ] {
        assert!(!text.contains(KEY), "the key leaked: {text}");
    }
    // Only a master lists or adds them.
    let refused = world.call(&with_token(get("v1/admin/agents"), &bob));
    assert_eq!(refused.status, 403);
    let body = json!({"name": "Sneaky", "provider": "openai_chat",
        "base_url": "https://api.openai.com/v1", "model": "m", "key": "sk-bob"});
    let refused = world.call(&with_token(
        post("v1/admin/agents", &body.to_string()),
        &bob,
    ));
    assert_eq!(refused.status, 403, "{refused:?}");
    assert!(!world.host.agent_keys.values().any(|k| k == "sk-bob"));
}

#[test]
fn a_key_sent_in_an_event_is_refused_and_not_logged() {
    let (mut world, ada, _) = world();
    let body = json!({"type": "network.admin.agent.host", "target": "core",
        "payload": {"name": "Leaky", "provider": "openai_chat",
        "base_url": "https://api.openai.com/v1", "model": "m", "key": "sk-leak"}});
    let response = world.call(&with_token(post("v1/events", &body.to_string()), &ada));
    assert_eq!(response.status, 400, "{response:?}");
    assert!(format!("{response:?}").contains("hosted_agent_key_in_event"));
    assert!(!format!("{:?}", world.host.log.log).contains("sk-leak"));
}

#[test]
fn a_mention_is_answered_once_by_the_hosted_agent() {
    let (mut world, ada, _) = world();
    add_helper(&mut world, &ada);
    let mut runtime = HostedRuntime::default();
    let from = world.host.applied.len();
    let question = say(&mut world, &ada, "agent:helper", "hello?");
    let deliveries = delivered_to(&world, &helper(), from);
    assert!(runtime.wake(&world.network, &helper(), &[]));
    let mut io = Vec::new();
    for event in &deliveries {
        io.extend(
            runtime
                .delivered(&mut world.host, &mut world.network, &helper(), event)
                .unwrap(),
        );
    }
    let request = io
        .iter()
        .find_map(|i| match i {
            HostedIo::CallModel {
                request, key, url, ..
            } => {
                assert_eq!(url, "https://api.openai.com/v1/chat/completions");
                assert_eq!(key.as_ref().unwrap().variable, "AGENTNET_MODEL_KEY");
                Some(*request)
            }
            _ => None,
        })
        .expect("the model is called");
    assert!(io.contains(&HostedIo::TurnStarted {
        agent: helper(),
        answers: question,
        place: Place::new("human:ada".parse().unwrap(), None),
    }));
    let response = ModelResponse {
        status: 200,
        retry_after_secs: None,
        body: crate::agent::ResponseBody::Whole(OPENAI_ANSWER.to_owned()),
    };
    let io = runtime
        .model_response(
            &mut world.host,
            &mut world.network,
            &helper(),
            request,
            response,
        )
        .unwrap();
    assert!(io.contains(&HostedIo::TurnEnded {
        agent: helper(),
        answers: question
    }));
    let posts = posts_of(&world, &helper());
    assert_eq!(posts.len(), 1, "answered once");
    assert_eq!(
        posts[0].payload["content"],
        "Hello! How can I assist you today?"
    );
    assert_eq!(posts[0].payload["answers"], json!(question));
    // The same delivery again (a resend) is not answered again.
    let again = runtime
        .delivered(
            &mut world.host,
            &mut world.network,
            &helper(),
            &deliveries[0],
        )
        .unwrap();
    assert!(again.is_empty(), "{again:?}");
}

#[test]
fn a_lost_turn_is_reported_once_where_the_answer_would_go() {
    let (mut world, ada, _) = world();
    add_helper(&mut world, &ada);
    let question = say(&mut world, &ada, "agent:helper", "are you there?");
    let mut runtime = HostedRuntime::default();
    let place = Place::new("human:ada".parse().unwrap(), None);
    runtime
        .interrupted(
            &mut world.host,
            &mut world.network,
            &helper(),
            question,
            &place,
        )
        .unwrap();
    let posts = posts_of(&world, &helper());
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0].payload["failed"], true);
    assert_eq!(posts[0].payload["answers"], json!(question));
    assert_eq!(posts[0].target.to_string(), "human:ada");
}

#[test]
fn removing_a_hosted_agent_forgets_its_key_and_membership() {
    let (mut world, ada, _) = world();
    add_helper(&mut world, &ada);
    let body = json!({"address": "agent:helper"}).to_string();
    let response = world.call(&with_token(post("v1/admin/agents/remove", &body), &ada));
    assert_eq!(response.status, 200, "{response:?}");
    assert!(world.host.agent_keys.is_empty());
    assert!(!world.network.state().members.contains_key(&helper()));
    assert!(hosted(&world.network, &helper()).is_none());
}

#[test]
fn a_tool_result_is_its_output_or_why_it_failed() {
    for (payload, outcome) in [
        (json!({"output": 5}), Ok(json!(5))),
        (json!({"output": null}), Ok(Value::Null)),
        (json!({"sum": 2}), Ok(Value::Null)),
        (json!({"error": null, "output": 5}), Ok(json!(5))),
        (json!([1, 2]), Ok(Value::Null)),
        (json!("text"), Ok(Value::Null)),
        (
            json!({"error": {"code": "bad", "message": "no"}, "output": 1}),
            Err("bad: no".to_owned()),
        ),
        (
            json!({"error": {"code": 7, "message": ["x"]}}),
            Err("tool_failed: the tool failed".to_owned()),
        ),
        (
            json!({"error": "boom"}),
            Err("tool_failed: the tool failed".to_owned()),
        ),
        (
            json!({"error": [1, 2]}),
            Err("tool_failed: the tool failed".to_owned()),
        ),
        (
            json!({"error": {"message": "no"}}),
            Err("tool_failed: no".to_owned()),
        ),
    ] {
        assert_eq!(apply::tool_outcome(&payload), outcome, "{payload}");
    }
}
