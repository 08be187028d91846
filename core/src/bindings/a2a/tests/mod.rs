//! A2A driven natively: cards, auth, both generations, a task through
//! input-required to completion with an artifact, streams, cancel, lists.

mod card_permissions;
mod conformance;
mod didwba;
mod message_answers;
mod proto_names;
mod push_privacy;
mod push_targets;
mod send_names;

use super::methods::{Reply, answer};
use super::stream::changes;
use super::*;
use crate::NetworkConfig;
use crate::Timestamp;
use crate::bindings::message::{Body, header_of};
use crate::bindings::route::NetworkRoute;
use crate::bindings::tests::world::World;
use serde_json::{Value, json};

const EDGE: &str = "https://edge.test/networks/demo/a2a";

fn world() -> (World, String, String) {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    let bob = world.join("agent:bob");
    let described = json!({"address": "resource/tool/plan", "description": "plans trips"});
    register_tool(&mut world, &bob, described);
    (world, alice, bob)
}

/// A world on a network of `config`.
fn world_of(config: NetworkConfig) -> World {
    let mut world = World::new();
    world.network = Network::new(config, [], 0, [7; 32]);
    world
}

/// `member` registers the resource `payload` describes.
fn register_tool(world: &mut World, member: &str, payload: Value) {
    let event = json!({"type": "network.resource.register", "target": "core", "payload": payload});
    send(world, member, event);
}

fn send(world: &mut World, token: &str, event: Value) -> Value {
    let req = Request::new(Method::Post, "https://edge.test/networks/demo/v1/events")
        .with_header("Authorization", &format!("Bearer {token}"))
        .with_body(event.to_string());
    let response = world.call(&req);
    assert!(response.status < 300, "{response:?}");
    response.json_body().cloned().unwrap_or_default()
}

/// Bob's `task.update` of a task alice gave him.
fn bob_updates(world: &mut World, bob: &str, payload: Value) -> Value {
    let event = json!({"type": "task.update", "target": "agent:alice", "payload": payload});
    send(world, bob, event)
}

fn get(path: &str, version: Option<&str>) -> Request {
    let req = Request::new(Method::Get, format!("{EDGE}{path}"));
    match version {
        Some(v) => req.with_header("A2A-Version", v),
        None => req,
    }
}

fn rpc(
    path: &str,
    token: Option<&str>,
    version: Option<&str>,
    method: &str,
    params: Value,
) -> Request {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    let mut req = Request::new(Method::Post, format!("{EDGE}{path}")).with_body(body.to_string());
    if let Some(token) = token {
        req = req.with_header("Authorization", &format!("Bearer {token}"));
    }
    if let Some(v) = version {
        req = req.with_header("A2A-Version", v);
    }
    req
}

fn run(world: &mut World, req: &Request) -> Result<(Address, Reply), Response> {
    accept(world, req).map(|accepted| (accepted.member, accepted.reply))
}

fn accept(world: &mut World, req: &Request) -> Result<Accepted, Response> {
    world.host.now += 1;
    let Some(NetworkRoute::A2a(target)) = crate::bindings::route::network_route(req) else {
        panic!("not an A2A path: {}", req.url)
    };
    match handle(&mut world.host, &mut world.network, req, &target) {
        Ok(Handled::Accepted(accepted)) => Ok(accepted),
        Ok(Handled::Card(response) | Handled::Respond(response)) => Err(response),
        Err(never) => match never {},
    }
}

/// Alice asks `agent:bob` for a task over A2A 1.0 (answered at once); its id.
fn task_for_bob(world: &mut World, alice: &str) -> String {
    let msg = json!({"message": text_part("go"), "configuration": {"returnImmediately": true}});
    let sent = ask_bob(world, alice, "SendMessage", msg);
    sent["result"]["task"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn now(world: &mut World, req: &Request) -> Value {
    match run(world, req) {
        Ok((_, Reply::Now(value))) => value,
        Ok((_, other)) => panic!("expected an answer now, got {other:?}"),
        Err(response) => panic!("refused: {response:?}"),
    }
}

/// What `agent:bob` answers at once to `method` from `token`, over A2A 1.0.
fn ask_bob(world: &mut World, token: &str, method: &str, params: Value) -> Value {
    now(world, &rpc_to_bob(Some(token), method, params))
}

/// A JSON-RPC call of `method` to `agent:bob` over A2A 1.0.
fn rpc_to_bob(token: Option<&str>, method: &str, params: Value) -> Request {
    rpc("/agent:bob", token, Some("1.0"), method, params)
}

fn json_of(response: &Response) -> Value {
    match &response.body {
        Body::Json(value) => value.clone(),
        Body::Text(text) => panic!("not JSON: {text}"),
    }
}

fn text_part(text: &str) -> Value {
    json!({"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": text}]})
}

/// The card `req` asks for: cards are answered at once, never held.
fn card_of(world: &mut World, req: &Request) -> Response {
    match run(world, req) {
        Err(response) => response,
        Ok(_) => panic!("a card is answered at once"),
    }
}

#[test]
fn cards_list_skills_in_each_generation() {
    let (mut world, _, _) = world();
    let v1 = json_of(&card_of(
        &mut world,
        &get("/agent:bob/.well-known/agent-card.json", Some("1.0")),
    ));
    assert_eq!(v1["skills"][0]["id"], "plan");
    assert_eq!(
        v1["supportedInterfaces"][0]["url"],
        format!("{EDGE}/agent:bob")
    );
    assert_eq!(v1["supportedInterfaces"][0]["protocolVersion"], "1.0");
    assert_eq!(
        v1["securitySchemes"]["session"]["httpAuthSecurityScheme"]["scheme"],
        "Bearer"
    );
    let v03 = json_of(&card_of(
        &mut world,
        &get("/agent:bob/.well-known/agent-card.json", None),
    ));
    assert_eq!(v03["url"], format!("{EDGE}/agent:bob"));
    assert_eq!(v03["protocolVersion"], "0.3.0");
    assert_eq!(v03["security"], json!([{"session": []}, {"didwba": []}]));
    // Asked for bare, the 0.3 fields come merged into the current card.
    assert_eq!(v03["supportedInterfaces"][0]["protocolVersion"], "1.0");
    let network = json_of(&card_of(
        &mut world,
        &get("/.well-known/agent-card.json", Some("1.0")),
    ));
    assert_eq!(network["skills"][0]["id"], "agent:bob/plan");
    match run(
        &mut world,
        &get("/agent:alice/.well-known/agent-card.json", Some("1.0")),
    ) {
        Err(response) => assert_eq!(response.status, 404),
        Ok(_) => panic!("alice offers no skill"),
    }
}

#[test]
fn a_member_that_takes_tasks_has_a_card_without_tools() {
    let (mut world, alice, _) = world();
    send(
        &mut world,
        &alice,
        json!({"type": "network.agent.profile", "target": "core",
        "payload": {"tasks": true, "description": "Answers questions with a language model"}}),
    );
    let anonymous = get("/agent:alice/.well-known/agent-card.json", Some("1.0"));
    assert_eq!(
        card_of(&mut world, &anonymous).status,
        404,
        "a stranger learns nothing"
    );
    let as_member = anonymous
        .clone()
        .with_header("Authorization", &format!("Bearer {alice}"));
    let card = json_of(&card_of(&mut world, &as_member));
    assert_eq!(card["skills"][0]["id"], "tasks");
    assert_eq!(
        card["skills"][0]["description"],
        "Answers questions with a language model"
    );
    send(
        &mut world,
        &alice,
        json!({"type": "network.agent.profile", "target": "core",
        "payload": {"tasks": true, "listed": true}}),
    );
    assert_eq!(
        card_of(&mut world, &anonymous).status,
        200,
        "listed: anyone sees it"
    );
}

#[test]
fn callers_without_a_session_and_unknown_versions_are_refused() {
    let (mut world, _, _) = world();
    let req = rpc_to_bob(None, "SendMessage", json!({"message": text_part("hi")}));
    let Err(response) = run(&mut world, &req) else {
        panic!("no token passed")
    };
    assert_eq!(response.status, 401);
    assert_eq!(response.header("WWW-Authenticate"), Some("Bearer"));
    let req = rpc_to_bob(Some("forged"), "GetTask", json!({"id": "x"}));
    assert_eq!(run(&mut world, &req).err().map(|r| r.status), Some(401));
    let req = rpc(
        "/agent:bob",
        Some("forged"),
        Some("0.5"),
        "GetTask",
        json!({"id": "x"}),
    );
    let Err(response) = run(&mut world, &req) else {
        panic!("0.5 passed")
    };
    assert_eq!(
        (response.status, json_of(&response)["error"]["code"].clone()),
        (200, json!(-32009))
    );
}

#[test]
fn a_task_asks_for_input_and_completes_with_an_artifact() {
    let (mut world, alice, bob) = world();
    let send_msg = rpc_to_bob(
        Some(&alice),
        "SendMessage",
        json!({"message": text_part("plan Rome")}),
    );
    let (member, reply) = run(&mut world, &send_msg).unwrap_or_else(|r| panic!("{r:?}"));
    assert_eq!(member.to_string(), "agent:alice");
    let Reply::Hold(watch) = reply else {
        panic!("a blocking send waits: {reply:?}")
    };
    let task = watch.task.clone();
    assert_eq!(world.network.state().tasks[task.as_str()].skill, None);

    bob_updates(&mut world, &bob, json!({"task": task, "state": "working"}));
    bob_updates(
        &mut world,
        &bob,
        json!({"task": task, "state": "awaiting-input", "parts": [{"text": "which dates?"}]}),
    );
    let held = answer(&world.network, &member, &watch, true);
    assert_eq!(
        held["result"]["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    assert_eq!(
        held["result"]["task"]["status"]["message"]["parts"][0]["text"],
        "which dates?"
    );
    assert_eq!(
        held["result"]["task"]["status"]["message"]["role"],
        "ROLE_AGENT"
    );

    let more = json!({"message": {"messageId": "m2", "role": "ROLE_USER", "taskId": task, "parts": [{"text": "May"}]},
        "configuration": {"returnImmediately": true}});
    let result = ask_bob(&mut world, &alice, "SendMessage", more);
    assert_eq!(
        result["result"]["task"]["status"]["state"],
        "TASK_STATE_WORKING"
    );

    send(
        &mut world,
        &bob,
        json!({"type": "task.artifact", "target": "agent:alice",
        "payload": {"task": task, "artifact": {"name": "plan", "parts": [{"text": "Day 1: Colosseum"}]}}}),
    );
    bob_updates(
        &mut world,
        &bob,
        json!({"task": task, "state": "completed"}),
    );
    let got = ask_bob(&mut world, &alice, "GetTask", json!({"id": task}));
    assert_eq!(got["result"]["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(
        got["result"]["artifacts"][0]["parts"][0]["text"],
        "Day 1: Colosseum"
    );
    assert_eq!(got["result"]["history"].as_array().map(Vec::len), Some(3));

    // The same task in 0.3's shapes.
    let old = now(
        &mut world,
        &rpc(
            "/agent:bob",
            Some(&alice),
            None,
            "tasks/get",
            json!({"id": task, "historyLength": 1}),
        ),
    );
    assert_eq!(old["result"]["kind"], "task");
    assert_eq!(old["result"]["status"]["state"], "completed");
    assert_eq!(
        old["result"]["artifacts"][0]["parts"][0],
        json!({"kind": "text", "text": "Day 1: Colosseum"})
    );
    assert_eq!(old["result"]["history"].as_array().map(Vec::len), Some(1));

    // Someone else's task is not found.
    let carol = world.join("agent:carol");
    let hidden = ask_bob(&mut world, &carol, "GetTask", json!({"id": task}));
    assert_eq!(hidden["error"]["code"], -32001);
}

#[test]
fn streams_follow_the_task_until_it_settles() {
    let (mut world, alice, bob) = world();
    let msg = json!({"message": {"kind": "message", "messageId": "m1", "role": "user", "parts": [{"kind": "text", "text": "go"}]}});
    let (_, reply) = run(
        &mut world,
        &rpc("/agent:bob", Some(&alice), None, "message/stream", msg),
    )
    .unwrap_or_else(|r| panic!("{r:?}"));
    let Reply::Stream {
        watch,
        opening,
        seen,
        closes,
    } = reply
    else {
        panic!("{reply:?}")
    };
    // The stream opens with the partner's first answer (a task or a message).
    assert!(!closes && opening.is_empty() && watch.deferred);
    let task = watch.task.clone();
    assert_eq!(changes(&watch, &seen, &seen), (Vec::new(), false));
    bob_updates(&mut world, &bob, json!({"task": task, "state": "working"}));
    let working = world.network.state().tasks[task.as_str()].clone();
    let (events, ends) = changes(&watch, &seen, &working);
    assert!(!ends);
    assert_eq!(events[0]["result"]["kind"], "task");
    assert_eq!(events[0]["result"]["status"]["state"], "working");
    assert_eq!(events[0]["result"]["history"][0]["parts"][0]["text"], "go");
    send(
        &mut world,
        &bob,
        json!({"type": "task.artifact", "target": "agent:alice", "payload": {"task": task, "parts": [{"text": "r"}]}}),
    );
    bob_updates(
        &mut world,
        &bob,
        json!({"task": task, "state": "completed"}),
    );
    let done = world.network.state().tasks[task.as_str()].clone();
    let (events, ends) = changes(&watch, &working, &done);
    assert!(ends);
    assert_eq!(events[0]["result"]["kind"], "artifact-update");
    assert_eq!(
        (
            events[1]["result"]["status"]["state"].clone(),
            events[1]["result"]["final"].clone()
        ),
        (json!("completed"), json!(true))
    );
}

#[test]
fn cancel_list_and_the_network_endpoint() {
    let (mut world, alice, _) = world();
    let to_network = json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x"}],
        "metadata": {"skill": "agent:bob/plan"}}, "configuration": {"returnImmediately": true}});
    let sent = now(
        &mut world,
        &rpc("", Some(&alice), Some("1.0"), "SendMessage", to_network),
    );
    let task = sent["result"]["task"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(
        world.network.state().tasks[task.as_str()].partners[0].to_string(),
        "agent:bob"
    );
    assert_eq!(
        world.network.state().tasks[task.as_str()].skill.as_deref(),
        Some("plan")
    );
    let unnamed = json!({"message": text_part("x")});
    let refused = now(
        &mut world,
        &rpc("", Some(&alice), Some("1.0"), "SendMessage", unnamed),
    );
    assert_eq!(refused["error"]["code"], -32602);

    let listed = now(
        &mut world,
        &rpc(
            "",
            Some(&alice),
            Some("1.0"),
            "ListTasks",
            json!({"status": "TASK_STATE_SUBMITTED"}),
        ),
    );
    assert_eq!(listed["result"]["totalSize"], 1);
    assert_eq!(listed["result"]["tasks"][0]["id"], task.as_str());
    let canceled = ask_bob(&mut world, &alice, "CancelTask", json!({"id": task}));
    assert_eq!(canceled["result"]["status"]["state"], "TASK_STATE_CANCELED");
    let again = ask_bob(&mut world, &alice, "CancelTask", json!({"id": task}));
    assert_eq!(again["error"]["code"], -32002);
    let resub = ask_bob(&mut world, &alice, "SubscribeToTask", json!({"id": task}));
    assert_eq!(resub["error"]["code"], -32004);
    let push = ask_bob(
        &mut world,
        &alice,
        "CreateTaskPushNotificationConfig",
        json!({}),
    );
    assert_eq!(push["error"]["code"], -32001);
    let unknown = ask_bob(&mut world, &alice, "message/send", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
}

#[test]
fn parts_convert_between_generations() {
    use super::version::Version;
    use super::wire::{part_out, parts_in};
    let old = json!({"parts": [{"kind": "text", "text": "a"}, {"kind": "data", "data": {"k": 1}},
        {"kind": "file", "file": {"uri": "https://x/y.png", "mimeType": "image/png", "name": "y.png"}}]});
    let parts = parts_in(&old).unwrap_or_default();
    assert_eq!(
        parts[2],
        json!({"url": "https://x/y.png", "mediaType": "image/png", "filename": "y.png"})
    );
    for (i, part) in parts.iter().enumerate() {
        assert_eq!(part_out(part, Version::V03), old["parts"][i]);
        assert_eq!(&part_out(part, Version::V1), part);
    }
    assert!(parts_in(&json!({"parts": []})).is_err());
    assert!(parts_in(&json!({"parts": [{"kind": "video"}]})).is_err());
    assert!(parts_in(&json!({"parts": [{"nothing": 1}]})).is_err());
    assert_eq!(
        super::wire::timestamp(Timestamp::EPOCH),
        "1970-01-01T00:00:00.000Z"
    );
    assert_eq!(
        super::wire::timestamp(Timestamp::from_millis(1_764_000_000_123)),
        "2025-11-24T16:00:00.123Z"
    );
}

#[test]
fn a_network_may_let_public_callers_in_as_its_guest_with_task_rights_only() {
    let (mut world, _, _) = world();
    let mut config = world.network.config().clone();
    config.a2a_guest = Some("human:visitor".parse().unwrap());
    let rows: Vec<_> = world
        .network
        .state()
        .members
        .values()
        .cloned()
        .map(crate::model::state::Row::Member)
        .collect();
    let tools = world
        .network
        .state()
        .resources
        .values()
        .cloned()
        .map(|r| crate::model::state::Row::Resource(Box::new(r)));
    world.network = Network::new(
        config,
        rows.into_iter().chain(tools).collect::<Vec<_>>(),
        10,
        [7; 32],
    );

    let card = json_of(&card_of(
        &mut world,
        &get("/agent:bob/.well-known/agent-card.json", None),
    ));
    assert_eq!(
        card["security"],
        json!([{"session": []}, {"didwba": []}, {}])
    );
    let req = rpc_to_bob(
        None,
        "SendMessage",
        json!({"message": text_part("hi"), "configuration": {"returnImmediately": true}}),
    );
    let (member, reply) = run(&mut world, &req).unwrap_or_else(|r| panic!("{r:?}"));
    assert_eq!(member.to_string(), "human:visitor");
    let Reply::Now(sent) = reply else {
        panic!("{reply:?}")
    };
    let task = sent["result"]["task"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(
        world.network.state().tasks[task.as_str()]
            .requester
            .to_string(),
        "human:visitor"
    );
    let listed = now(&mut world, &rpc_to_bob(None, "ListTasks", json!({})));
    assert_eq!(
        listed["result"]["totalSize"], 0,
        "guests reach tasks by id only"
    );
    let got = now(
        &mut world,
        &rpc_to_bob(None, "GetTask", json!({"id": task})),
    );
    assert_eq!(got["result"]["id"], task.as_str());

    // Nobody joins as the guest (it would hear the guests' tasks).
    let join = Request::new(Method::Post, "https://edge.test/networks/demo/v1/join")
        .with_body(json!({"agent_id": "human:visitor"}).to_string());
    let refused = world.call(&join);
    assert_eq!(refused.status, 403, "{refused:?}");
    assert_eq!(json_of(&refused)["code"], "forbidden");
}

#[test]
fn push_notifications_are_configured_queued_signed_and_retried() {
    use crate::crypto::hmac_sha256_hex;
    use crate::model::push::MAX_ATTEMPTS;
    let (mut world, alice, bob) = world();
    let task = task_for_bob(&mut world, &alice);
    let config = json!({"taskId": task, "id": "hook", "url": "https://hooks.test/a2a", "token": "s3cret",
        "authentication": {"scheme": "Bearer", "credentials": "abc"}});
    let made = ask_bob(
        &mut world,
        &alice,
        "CreateTaskPushNotificationConfig",
        config,
    );
    assert_eq!(made["result"]["id"], "hook");
    assert_eq!(made["result"]["url"], "https://hooks.test/a2a");
    let listed = ask_bob(
        &mut world,
        &alice,
        "ListTaskPushNotificationConfigs",
        json!({"taskId": task}),
    );
    assert_eq!(listed["result"]["configs"][0]["token"], "s3cret");
    // Only the requester sets them.
    let theirs = ask_bob(
        &mut world,
        &bob,
        "CreateTaskPushNotificationConfig",
        json!({"taskId": task, "url": "https://evil.test/"}),
    );
    assert_eq!(theirs["error"]["code"], -32602);

    // A change of the task queues a notification; due, it is a signed request.
    bob_updates(&mut world, &bob, json!({"task": task, "state": "working"}));
    let at = world.host.now + 5;
    let (due, _) = world.network.take_due_pushes(Timestamp::from(at));
    assert_eq!(due.len(), 1);
    assert!(
        world
            .network
            .take_due_pushes(Timestamp::from(at))
            .0
            .is_empty(),
        "held while in flight"
    );
    let out = super::push::render(&world.network, &due[0], Timestamp::from(at))
        .unwrap_or_else(|| panic!("nothing to send"));
    assert_eq!(out.url, "https://hooks.test/a2a");
    let body: Value = serde_json::from_str(&out.body).unwrap_or_default();
    assert_eq!(body["task"]["status"]["state"], "TASK_STATE_WORKING");
    let header = |name: &str| header_of(&out.headers, name).map(str::to_owned);
    assert_eq!(header("Authorization").as_deref(), Some("Bearer abc"));
    assert_eq!(
        header("X-A2A-Notification-Token").as_deref(),
        Some("s3cret")
    );
    let expected = hmac_sha256_hex(b"s3cret", format!("{at}.{}", out.body).as_bytes());
    assert_eq!(
        header("X-Agentnet-Signature"),
        Some(format!("t={at},v1={expected}"))
    );

    // Failures are retried later and later, then dropped.
    let key = due[0].key.clone();
    let mut next = Vec::new();
    let mut taken = due[0].clone();
    for attempt in 1..MAX_ATTEMPTS {
        world.network.push_failed(&taken, Timestamp::from(at));
        let due_at = world.network.state().pushes[&key].next_at;
        next.push(due_at.millis_since(Timestamp::from(at)));
        assert_eq!(world.network.state().pushes[&key].attempts, attempt);
        // A failure reported again changes nothing: it was one attempt.
        assert!(
            world
                .network
                .push_failed(&taken, Timestamp::from(at))
                .is_empty()
        );
        let (mut again, _) = world.network.take_due_pushes(due_at);
        taken = again.pop().unwrap_or_else(|| panic!("not due again"));
    }
    assert!(next.windows(2).all(|w| w[0] < w[1]), "{next:?}");
    assert!(world.network.next_wakeup().is_some());
    world.network.push_failed(&taken, Timestamp::from(at));
    assert!(world.network.state().pushes.is_empty());

    let deleted = ask_bob(
        &mut world,
        &alice,
        "DeleteTaskPushNotificationConfig",
        json!({"taskId": task, "id": "hook"}),
    );
    assert_eq!(deleted["result"], json!({}));
    bob_updates(&mut world, &bob, json!({"task": task, "state": "failed"}));
    assert!(
        world.network.state().pushes.is_empty(),
        "no target, no notification"
    );
}
