//! A send answers only for the task it names (A2A §3.4.2–3.4.3, TCK
//! CORE-MULTI-004/006): a `taskId` that names no task is
//! `TaskNotFoundError`, a `contextId` other than the named task's is
//! refused, and a `messageId` the member used before is the same message
//! only with the same task (or, starting one, the same context) named —
//! never an answer with another task.

use super::conformance::{finished_task, send_to_bob, task_id};
use super::*;

fn message(id: &str, names: Value) -> Value {
    let mut out = json!({"messageId": id, "role": "ROLE_USER", "parts": [{"text": "more"}]});
    if let (Value::Object(out), Value::Object(names)) = (&mut out, names) {
        out.extend(names);
    }
    out
}

/// Bob works on `task` and asks alice for input.
fn awaiting_input(world: &mut World, bob: &str, task: &str) {
    for state in ["working", "awaiting-input"] {
        bob_updates(world, bob, json!({"task": task, "state": state}));
    }
}

#[test]
fn a_reused_message_id_naming_a_missing_task_is_task_not_found() {
    let (mut world, alice, bob) = world();
    // Task A went in under messageId m1 (finished_task's message).
    finished_task(&mut world, &alice, &bob);
    let sent = send_to_bob(&mut world, &alice, message("m1", json!({"taskId": "nope"})));
    assert_eq!(sent["error"]["code"], -32001, "{sent}");
    assert_eq!(sent["error"]["data"][0]["reason"], "TASK_NOT_FOUND");
}

#[test]
fn a_context_id_other_than_the_named_tasks_is_refused() {
    let (mut world, alice, bob) = world();
    let done = finished_task(&mut world, &alice, &bob);
    let names = json!({"taskId": done, "contextId": "wrong-context"});
    let reused = send_to_bob(&mut world, &alice, message("m1", names.clone()));
    assert_eq!(reused["error"]["code"], -32602, "{reused}");
    let fresh = send_to_bob(&mut world, &alice, message("m-new", names));
    assert_eq!(fresh["error"]["code"], -32602, "{fresh}");

    // A task that takes messages: the wrong context is refused and nothing
    // goes in; its own context (or none) is a message to it.
    let open = task_id(&send_to_bob(
        &mut world,
        &alice,
        message("m-open", json!({})),
    ));
    awaiting_input(&mut world, &bob, &open);
    let wrong = json!({"taskId": open, "contextId": "wrong-context"});
    let refused = send_to_bob(&mut world, &alice, message("m2", wrong));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(world.network.state().tasks[open.as_str()].history.len(), 1);
    let context = world.network.state().tasks[open.as_str()]
        .context_text()
        .to_owned();
    let right = json!({"taskId": open, "contextId": context});
    let sent = send_to_bob(&mut world, &alice, message("m2", right));
    assert_eq!(task_id(&sent), open);
    assert_eq!(world.network.state().tasks[open.as_str()].history.len(), 2);
}

#[test]
fn a_reused_message_id_naming_another_task_is_a_message_to_that_task() {
    let (mut world, alice, bob) = world();
    let first = finished_task(&mut world, &alice, &bob);
    // Task B, started under another messageId, waits for alice.
    let second = task_id(&send_to_bob(&mut world, &alice, message("m-b", json!({}))));
    awaiting_input(&mut world, &bob, &second);
    let to_second = message("m1", json!({"taskId": second}));
    let sent = send_to_bob(&mut world, &alice, to_second.clone());
    assert_eq!(task_id(&sent), second, "{sent}");
    let history = |world: &World| world.network.state().tasks[second.as_str()].history.clone();
    assert_eq!(history(&world).len(), 2);
    assert_eq!(history(&world)[1].client_id.as_deref(), Some("m1"));
    // Sent again, it is the same message to the same task.
    assert_eq!(task_id(&send_to_bob(&mut world, &alice, to_second)), second);
    assert_eq!(history(&world).len(), 2);
    assert_ne!(first, second);
}

#[test]
fn a_reused_message_id_starting_a_task_in_another_context_is_a_new_task() {
    let (mut world, alice, bob) = world();
    let first = finished_task(&mut world, &alice, &bob);
    let elsewhere = message("m1", json!({"contextId": "ctx-2"}));
    let sent = send_to_bob(&mut world, &alice, elsewhere.clone());
    let made = task_id(&sent);
    assert_ne!(made, first, "answered with another task: {sent}");
    assert_eq!(
        world.network.state().tasks[made.as_str()].context_text(),
        "ctx-2"
    );
    // Sent again, it is the task it started.
    assert_eq!(task_id(&send_to_bob(&mut world, &alice, elsewhere)), made);
    assert_eq!(world.network.state().tasks.len(), 2);
}
