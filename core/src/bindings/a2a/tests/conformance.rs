//! What the A2A TCK and the official SDKs check: typed error details,
//! the well-known card, per-method errors, ListTasks' artifacts, 0.3's
//! push config params, version errors, and idempotent sends.

use super::*;

pub(super) fn send_to_bob(world: &mut World, token: &str, message: Value) -> Value {
    let params = json!({"message": message, "configuration": {"returnImmediately": true}});
    ask_bob(world, token, "SendMessage", params)
}

pub(super) fn task_id(sent: &Value) -> String {
    sent["result"]["task"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no task: {sent}"))
        .to_owned()
}

/// A task of alice's that bob finished with an artifact.
pub(super) fn finished_task(world: &mut World, alice: &str, bob: &str) -> String {
    let task = task_id(&send_to_bob(world, alice, text_part("plan")));
    for payload in [
        json!({"task": task, "state": "working"}),
        json!({"task": task, "artifact": {"name": "plan", "parts": [{"text": "Day 1"}]}}),
        json!({"task": task, "state": "completed"}),
    ] {
        let kind = if payload.get("artifact").is_some() {
            "task.artifact"
        } else {
            "task.update"
        };
        send(
            world,
            bob,
            json!({"type": kind, "target": "agent:alice", "payload": payload}),
        );
    }
    task
}

#[test]
fn every_error_carries_a_google_rpc_error_info_in_an_array() {
    let (mut world, alice, _) = world();
    let missing = ask_bob(&mut world, &alice, "GetTask", json!({"id": "nope"}));
    assert_eq!(missing["id"], 7);
    assert_eq!(missing["error"]["code"], -32001);
    assert_eq!(
        missing["error"]["data"][0],
        json!({"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND",
            "domain": "a2a-protocol.org", "metadata": {}})
    );
    let unknown = ask_bob(&mut world, &alice, "Nope", json!({}));
    assert_eq!(unknown["error"]["data"][0]["reason"], "METHOD_NOT_FOUND");
    // 0.3 answers the same details; a refused push config too.
    let push = now(
        &mut world,
        &rpc(
            "/agent:bob",
            Some(&alice),
            None,
            "tasks/pushNotificationConfig/get",
            json!({"id": "nope"}),
        ),
    );
    assert_eq!(push["error"]["data"][0]["reason"], "TASK_NOT_FOUND");
    // Refusals before the method runs: no session, a batch.
    let Err(anonymous) = run(&mut world, &rpc_to_bob(None, "GetTask", json!({}))) else {
        panic!("no session passed")
    };
    let body = json_of(&anonymous);
    assert_eq!((anonymous.status, body["id"].clone()), (401, json!(7)));
    assert_eq!(body["error"]["data"][0]["reason"], "NOT_JOINED");
    assert_eq!(body["error"]["data"][0]["domain"], "agentnet");
    let batch = Request::new(Method::Post, format!("{EDGE}/agent:bob"))
        .with_header("Authorization", &format!("Bearer {alice}"))
        .with_body("[]");
    let Err(refused) = run(&mut world, &batch) else {
        panic!("an empty batch passed")
    };
    let body = json_of(&refused);
    assert_eq!(body["id"], Value::Null);
    assert_eq!(body["error"]["data"][0]["reason"], "INVALID_REQUEST");
}

#[test]
fn the_well_known_card_is_the_current_one_with_0_3_fields_merged_in() {
    let (mut world, _, _) = world();
    for path in [
        "/agent:bob/.well-known/agent-card.json",
        "/agent:bob/.well-known/agent.json",
    ] {
        for version in [None, Some("0.3")] {
            let response = card_of(&mut world, &get(path, version));
            let card = json_of(&response);
            // A 1.0 client reads the interfaces, 1.0 first …
            assert_eq!(card["supportedInterfaces"][0]["protocolVersion"], "1.0");
            assert_eq!(
                card["securitySchemes"]["session"]["httpAuthSecurityScheme"]["scheme"],
                "Bearer"
            );
            // … a 0.3 client its url, version and security.
            assert_eq!(card["url"], format!("{EDGE}/agent:bob"));
            assert_eq!(card["protocolVersion"], "0.3.0");
            assert_eq!(card["preferredTransport"], "JSONRPC");
            assert_eq!(card["securitySchemes"]["session"]["scheme"], "bearer");
            assert_eq!(card["security"], json!([{"session": []}, {"didwba": []}]));
            assert_eq!(response.header("Vary"), Some("A2A-Version"));
        }
    }
    let current = json_of(&card_of(
        &mut world,
        &get("/.well-known/agent-card.json", Some("1.0")),
    ));
    assert!(current.get("url").is_none() && current.get("security").is_none());
    assert_eq!(current["supportedInterfaces"][1]["protocolVersion"], "0.3");
    // A version the endpoint does not speak still gets the current card.
    let later = json_of(&card_of(
        &mut world,
        &get("/.well-known/agent-card.json", Some("2.0")),
    ));
    assert_eq!(later, current);
}

#[test]
fn a_message_to_a_finished_task_is_an_unsupported_operation_a_second_cancel_not_cancelable() {
    let (mut world, alice, bob) = world();
    let task = finished_task(&mut world, &alice, &bob);
    let more = json!({"messageId": "late", "role": "ROLE_USER", "taskId": task, "parts": [{"text": "more"}]});
    let refused = send_to_bob(&mut world, &alice, more);
    assert_eq!(refused["error"]["code"], -32004);
    assert_eq!(
        refused["error"]["data"][0]["reason"],
        "UNSUPPORTED_OPERATION"
    );
    assert_eq!(
        refused["error"]["data"][0]["metadata"]["code"],
        "invalid_transition"
    );
    let old = json!({"message": {"messageId": "late", "role": "user", "kind": "message", "taskId": task,
        "parts": [{"kind": "text", "text": "more"}]}});
    let refused = now(
        &mut world,
        &rpc("/agent:bob", Some(&alice), None, "message/send", old),
    );
    assert_eq!(refused["error"]["code"], -32004);
    let cancel = ask_bob(&mut world, &alice, "CancelTask", json!({"id": task}));
    assert_eq!(cancel["error"]["code"], -32002);
    assert_eq!(cancel["error"]["data"][0]["reason"], "TASK_NOT_CANCELABLE");
}

#[test]
fn list_tasks_omits_artifacts_unless_asked_for() {
    let (mut world, alice, bob) = world();
    finished_task(&mut world, &alice, &bob);
    let list = |world: &mut World, params: Value| {
        now(
            world,
            &rpc("", Some(&alice), Some("1.0"), "ListTasks", params),
        )
    };
    let plain = list(&mut world, json!({}));
    assert_eq!(plain["result"]["totalSize"], 1);
    assert!(plain["result"]["tasks"][0].get("artifacts").is_none());
    let asked = list(&mut world, json!({"includeArtifacts": true}));
    assert_eq!(
        asked["result"]["tasks"][0]["artifacts"][0]["parts"][0]["text"],
        "Day 1"
    );
    let declined = list(&mut world, json!({"includeArtifacts": false}));
    assert!(declined["result"]["tasks"][0].get("artifacts").is_none());
}

#[test]
fn list_tasks_reads_its_params_leniently() {
    let (mut world, alice, bob) = world();
    finished_task(&mut world, &alice, &bob);
    let mut second = text_part("more");
    second["messageId"] = json!("m2");
    send_to_bob(&mut world, &alice, second);
    let mut list = |params: Value| {
        now(
            &mut world,
            &rpc("", Some(&alice), Some("1.0"), "ListTasks", params),
        )["result"]
            .clone()
    };
    let page = |listed: &Value| {
        let shown = listed["tasks"].as_array().map_or(0, Vec::len);
        (
            shown,
            listed["nextPageToken"].clone(),
            listed["pageSize"].clone(),
            listed["totalSize"].clone(),
        )
    };
    assert_eq!(
        page(&list(json!({"pageSize": 1}))),
        (1, json!("1"), json!(1), json!(2))
    );
    assert_eq!(
        page(&list(json!({"pageSize": 0}))),
        (1, json!("1"), json!(1), json!(2))
    );
    assert_eq!(
        page(&list(json!({"pageSize": 1, "pageToken": "1"}))),
        (1, json!(""), json!(1), json!(2))
    );
    // A param of another type is as if left out.
    for ignored in [
        json!({"pageSize": "1"}),
        json!({"pageSize": -1}),
        json!({"pageSize": 1.5}),
        json!({"pageToken": 1}),
        json!({"contextId": 5}),
        json!({"status": 5}),
    ] {
        assert_eq!(
            page(&list(ignored.clone())),
            (2, json!(""), json!(50), json!(2)),
            "{ignored}"
        );
    }
    assert_eq!(
        list(json!({"status": "TASK_STATE_COMPLETED"}))["totalSize"],
        1
    );
    assert_eq!(list(json!({"contextId": "none"}))["totalSize"], 0);
    let text_true = list(json!({"includeArtifacts": "true", "status": "TASK_STATE_COMPLETED"}));
    assert!(text_true["tasks"][0].get("artifacts").is_none());
}

#[test]
fn push_configs_of_0_3_name_their_task_by_params_id() {
    let (mut world, alice, _) = world();
    let task = task_id(&send_to_bob(&mut world, &alice, text_part("go")));
    let call = |world: &mut World, method: &str, params: Value| {
        now(
            world,
            &rpc("/agent:bob", Some(&alice), None, method, params),
        )
    };
    let set = json!({"taskId": task, "pushNotificationConfig": {"id": "hook", "url": "https://hooks.test/a"}});
    let made = call(&mut world, "tasks/pushNotificationConfig/set", set);
    assert_eq!(made["result"]["pushNotificationConfig"]["id"], "hook");
    let got = call(
        &mut world,
        "tasks/pushNotificationConfig/get",
        json!({"id": task, "pushNotificationConfigId": "hook"}),
    );
    assert_eq!(got["result"]["taskId"], task.as_str());
    assert_eq!(got["result"]["pushNotificationConfig"]["id"], "hook");
    let other = call(
        &mut world,
        "tasks/pushNotificationConfig/get",
        json!({"id": task, "pushNotificationConfigId": "other"}),
    );
    assert_eq!(other["error"]["code"], -32001);
    let deleted = call(
        &mut world,
        "tasks/pushNotificationConfig/delete",
        json!({"id": task, "pushNotificationConfigId": "hook"}),
    );
    assert_eq!(deleted["result"], Value::Null);
    assert!(deleted.get("error").is_none());
    assert!(world.network.state().tasks[task.as_str()].push.is_empty());
    let listed = call(
        &mut world,
        "tasks/pushNotificationConfig/list",
        json!({"id": task}),
    );
    assert_eq!(listed["result"], json!([]));
}

#[test]
fn an_unsupported_version_is_a_json_rpc_error_answering_the_request() {
    let (mut world, alice, _) = world();
    for path in ["/agent:bob", ""] {
        let req = rpc(
            path,
            Some(&alice),
            Some("0.5"),
            "GetTask",
            json!({"id": "x"}),
        );
        let Err(response) = run(&mut world, &req) else {
            panic!("0.5 passed")
        };
        let body = json_of(&response);
        assert_eq!(response.status, 200, "as the SDKs' servers answer it");
        assert_eq!(body["jsonrpc"], "2.0");
        assert_eq!(body["id"], 7);
        assert_eq!(body["error"]["code"], -32009);
        assert_eq!(body["error"]["data"][0]["reason"], "VERSION_NOT_SUPPORTED");
    }
    let unreadable = Request::new(Method::Post, format!("{EDGE}/agent:bob"))
        .with_header("A2A-Version", "2.0")
        .with_body("{");
    let Err(response) = run(&mut world, &unreadable) else {
        panic!("2.0 passed")
    };
    assert_eq!(json_of(&response)["id"], Value::Null);
}

#[test]
fn a_message_sent_again_under_its_message_id_is_the_same_message() {
    let (mut world, alice, bob) = world();
    let first =
        json!({"messageId": "retry-1", "role": "ROLE_USER", "parts": [{"text": "plan Rome"}]});
    let task = task_id(&send_to_bob(&mut world, &alice, first.clone()));
    let again = send_to_bob(&mut world, &alice, first.clone());
    assert_eq!(task_id(&again), task);
    assert_eq!(world.network.state().tasks.len(), 1);
    // 0.3 and streams keep the promise too.
    let old = json!({"message": {"messageId": "retry-1", "role": "user", "kind": "message",
        "parts": [{"kind": "text", "text": "plan Rome"}]}, "configuration": {"blocking": false}});
    let resent = now(
        &mut world,
        &rpc("/agent:bob", Some(&alice), None, "message/send", old),
    );
    assert_eq!(resent["result"]["id"], task.as_str());
    let streamed = rpc_to_bob(
        Some(&alice),
        "SendStreamingMessage",
        json!({"message": first}),
    );
    match run(&mut world, &streamed) {
        Ok((_, Reply::Stream { watch, .. })) => assert_eq!(watch.task, task),
        other => panic!("a stream of the same task: {other:?}"),
    }
    assert_eq!(world.network.state().tasks.len(), 1);

    // A continuation sent twice is kept once.
    bob_updates(&mut world, &bob, json!({"task": task, "state": "working"}));
    bob_updates(
        &mut world,
        &bob,
        json!({"task": task, "state": "awaiting-input", "parts": [{"text": "dates?"}]}),
    );
    let answer = json!({"messageId": "retry-2", "role": "ROLE_USER", "taskId": task, "parts": [{"text": "May"}]});
    send_to_bob(&mut world, &alice, answer.clone());
    let twice = send_to_bob(&mut world, &alice, answer);
    assert_eq!(task_id(&twice), task);
    let history = &world.network.state().tasks[task.as_str()].history;
    assert_eq!(history.len(), 3, "{history:?}");
    assert_eq!(history[2].client_id.as_deref(), Some("retry-2"));

    // Another member's message ids are its own; a new id is a new task.
    let carol = world.join("agent:carol");
    let theirs = send_to_bob(&mut world, &carol, first);
    assert_ne!(task_id(&theirs), task);
    let fresh =
        json!({"messageId": "retry-3", "role": "ROLE_USER", "parts": [{"text": "plan Rome"}]});
    assert_ne!(task_id(&send_to_bob(&mut world, &alice, fresh)), task);
    assert_eq!(world.network.state().tasks.len(), 3);
}
