//! Push targets are their requester's alone: the task's partner reads none
//! of them — not through the push configuration methods of either
//! generation, not in its `GET v1/events`, not through `network.events.query`,
//! and nothing in the log carries a token or credentials.

use super::{
    EDGE, ask_bob, now, register_tool, rpc, rpc_to_bob, send, task_for_bob, text_part, world_of,
};
use crate::NetworkConfig;
use crate::bindings::message::{Method, Request};
use crate::bindings::tests::world::World;
use crate::model::config::ModConfig;
use serde_json::{Value, json};

const SECRETS: [&str; 4] = ["s3cret", "c-abc", "old-tok", "old-cred"];

/// A network with history; alice asks bob (who offers `plan`) for a task and
/// sets two push targets on it (1.0 and 0.3). Answers the tokens and the task.
fn configured() -> (World, String, String, String) {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.mods = vec![ModConfig::Persistence];
    let mut world = world_of(config);
    let alice = world.join("agent:alice");
    let bob = world.join("agent:bob");
    register_tool(&mut world, &bob, json!({"address": "resource/tool/plan"}));
    let task = task_for_bob(&mut world, &alice);
    let v1 = json!({"taskId": task, "id": "hook", "url": "https://hooks.test/a2a", "token": "s3cret",
        "authentication": {"scheme": "Bearer", "credentials": "c-abc"}});
    let made = ask_bob(&mut world, &alice, "CreateTaskPushNotificationConfig", v1);
    assert_eq!(made["result"]["token"], "s3cret", "{made}");
    let v03 = json!({"taskId": task, "pushNotificationConfig": {"id": "old", "url": "https://hooks.test/03",
        "token": "old-tok", "authentication": {"schemes": ["Basic"], "credentials": "old-cred"}}});
    let made = now(
        &mut world,
        &rpc(
            "/agent:bob",
            Some(&alice),
            None,
            "tasks/pushNotificationConfig/set",
            v03,
        ),
    );
    assert_eq!(
        made["result"]["pushNotificationConfig"]["id"], "old",
        "{made}"
    );
    (world, alice, bob, task)
}

fn leaks(value: &Value) -> Vec<&'static str> {
    let text = value.to_string();
    SECRETS.into_iter().filter(|s| text.contains(s)).collect()
}

#[test]
fn the_requester_reads_its_targets_with_their_secrets() {
    let (mut world, alice, _, task) = configured();
    let listed = ask_bob(
        &mut world,
        &alice,
        "ListTaskPushNotificationConfigs",
        json!({"taskId": task}),
    );
    let configs = &listed["result"]["configs"];
    assert_eq!(configs.as_array().map(Vec::len), Some(2), "{listed}");
    assert_eq!(configs[0]["token"], "s3cret");
    assert_eq!(configs[0]["authentication"]["credentials"], "c-abc");
}

#[test]
fn the_partner_lists_and_gets_no_push_target_in_either_generation() {
    let (mut world, _, bob, task) = configured();
    // Bob asks in the current generation (`Some("1.0")`) or in 0.3 (`None`).
    let mut ask = |version: Option<&str>, method: &str, params: Value| {
        now(
            &mut world,
            &rpc("/agent:bob", Some(&bob), version, method, params),
        )
    };
    let (v1, v03) = (Some("1.0"), None);
    let listed = ask(
        v1,
        "ListTaskPushNotificationConfigs",
        json!({"taskId": task}),
    );
    assert_eq!(listed["result"]["configs"], json!([]), "{listed}");
    let hook = json!({"taskId": task, "id": "hook"});
    let got = ask(v1, "GetTaskPushNotificationConfig", hook.clone());
    assert!(got.get("result").is_none(), "{got}");
    let any = ask(v1, "GetTaskPushNotificationConfig", json!({"taskId": task}));
    assert!(any.get("result").is_none(), "{any}");
    let old = ask(
        v03,
        "tasks/pushNotificationConfig/list",
        json!({"id": task}),
    );
    assert_eq!(old["result"], json!([]), "{old}");
    let old_hook = json!({"id": task, "pushNotificationConfigId": "old"});
    let old_one = ask(v03, "tasks/pushNotificationConfig/get", old_hook);
    assert!(old_one.get("result").is_none(), "{old_one}");
    // Nor does it remove them.
    ask(v1, "DeleteTaskPushNotificationConfig", hook);
    assert_eq!(world.network.state().tasks[task.as_str()].push.len(), 2);
    for answer in [&listed, &got, &any, &old, &old_one] {
        assert!(leaks(answer).is_empty(), "{answer}");
    }
}

#[test]
fn the_partner_reads_no_push_configuration_in_its_events_or_the_history() {
    let (mut world, _, bob, _) = configured();
    let page = world.call(
        &Request::new(Method::Get, format!("{}/v1/events?after=0", base()))
            .with_header("Authorization", &format!("Bearer {bob}")),
    );
    let page = page.json_body().cloned().unwrap_or_default();
    assert!(page["events"].as_array().is_some(), "{page}");
    let pushes = |v: &Value| v.to_string().contains("task.push");
    assert!(!pushes(&page) && leaks(&page).is_empty(), "{page}");
    for types in ["task.*", "task.push", "*"] {
        let query = json!({"type": "network.events.query", "target": "core",
            "payload": {"after": 0, "types": types}});
        let history = send(&mut world, &bob, query);
        assert_eq!(history["type"], "network.events.response", "{history}");
        assert!(!pushes(&history) && leaks(&history).is_empty(), "{history}");
    }
}

#[test]
fn no_token_or_credentials_are_logged_or_delivered() {
    let (mut world, alice, _, _) = configured();
    let logged: Vec<Value> = world
        .host
        .log
        .log
        .iter()
        .map(|row| serde_json::to_value(&*row.event).unwrap_or_default())
        .collect();
    let pushes: Vec<&Value> = logged.iter().filter(|e| e["type"] == "task.push").collect();
    assert_eq!(
        pushes.len(),
        2,
        "the requester's history keeps its task.push events"
    );
    assert!(pushes.iter().all(|e| e["target"] == "core"), "{pushes:?}");
    assert!(
        leaks(&Value::Array(logged.clone())).is_empty(),
        "{logged:?}"
    );
    // Rows store the targets (the network sends the notifications); nothing sent carries them.
    let sent: Vec<String> = world
        .host
        .applied
        .iter()
        .filter_map(|effect| match effect {
            crate::network::Effect::Deliver { event, .. }
            | crate::network::Effect::Append { event, .. } => Some(format!("{event:?}")),
            crate::network::Effect::Reply(event) => Some(format!("{event:?}")),
            _ => None,
        })
        .collect();
    let delivered = sent.join("\n");
    assert!(
        SECRETS.iter().filter(|s| delivered.contains(*s)).count() == 0,
        "a secret was in an effect: {delivered}"
    );
    // The requester's own history still shows what it set (not the secrets).
    let query = json!({"type": "network.events.query", "target": "core",
        "payload": {"after": 0, "types": "task.push"}});
    let mine = send(&mut world, &alice, query);
    let events = mine["payload"]["events"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(events.len(), 2, "{mine}");
    assert_eq!(
        events[0]["event"]["payload"]["set"]["url"],
        "https://hooks.test/a2a"
    );
}

#[test]
fn a_task_push_to_anyone_but_core_is_refused() {
    let (mut world, alice, _, task) = configured();
    let to_partner = json!({"type": "task.push", "target": "agent:bob",
        "payload": {"task": task, "set": {"url": "https://x.test/", "token": "s3cret"}}});
    let req = Request::new(Method::Post, format!("{}/v1/events", base()))
        .with_header("Authorization", &format!("Bearer {alice}"))
        .with_body(to_partner.to_string());
    let refused = world.call(&req);
    assert_eq!(
        refused.status_and_code(),
        (400, "invalid_request"),
        "{refused:?}"
    );
    assert_eq!(world.network.state().tasks[task.as_str()].push.len(), 2);
}

fn base() -> String {
    EDGE.trim_end_matches("/a2a").to_owned()
}

#[test]
fn anonymous_callers_sharing_the_guest_are_shown_no_secrets() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.a2a_guest = Some("human:visitor".parse().unwrap());
    let mut world = world_of(config);
    let bob = world.join("agent:bob");
    register_tool(&mut world, &bob, json!({"address": "resource/tool/plan"}));
    let msg = json!({"message": text_part("go"), "configuration": {"returnImmediately": true}});
    let sent = now(&mut world, &rpc_to_bob(None, "SendMessage", msg));
    let task = sent["result"]["task"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let config = json!({"taskId": task, "id": "hook", "url": "https://hooks.test/a2a", "token": "s3cret",
        "authentication": {"scheme": "Bearer", "credentials": "c-abc"}});
    now(
        &mut world,
        &rpc_to_bob(None, "CreateTaskPushNotificationConfig", config),
    );
    // Another anonymous caller who learnt the task's id.
    let listed = now(
        &mut world,
        &rpc_to_bob(
            None,
            "ListTaskPushNotificationConfigs",
            json!({"taskId": task}),
        ),
    );
    assert_eq!(listed["result"]["configs"][0]["id"], "hook", "{listed}");
    assert_eq!(
        listed["result"]["configs"][0]["authentication"],
        json!({"scheme": "Bearer"})
    );
    assert!(leaks(&listed).is_empty(), "{listed}");
}
