//! A partner that answers a request with one message (`answer: "message"`):
//! A2A clients get a `Message` result, in both generations, held, at once
//! and streamed; a partner that works on a task still answers with the task.

use super::*;

/// Bob answers task `id` with one message.
fn bob_answers(world: &mut World, bob: &str, id: &str) {
    bob_updates(
        world,
        bob,
        json!({"task": id, "state": "completed", "answer": "message", "parts": [{"text": "4"}]}),
    );
}

/// Alice's address.
fn alice_address() -> Address {
    "agent:alice".parse().unwrap()
}

/// Alice sends bob `text` in the current generation, and the answer is held: the world, alice's
/// and bob's tokens and the watch.
fn alice_sends(text: &str) -> (World, String, String, methods::Watch) {
    let (mut world, alice, bob) = world();
    let msg = json!({"message": text_part(text)});
    let watch = held(&mut world, &rpc_to_bob(Some(&alice), "SendMessage", msg));
    (world, alice, bob, watch)
}

fn held(world: &mut World, req: &Request) -> methods::Watch {
    match run(world, req) {
        Ok((_, Reply::Hold(watch))) => watch,
        other => panic!("expected a held answer, got {other:?}"),
    }
}

#[test]
fn a_held_send_is_answered_with_the_message_in_each_generation() {
    let (mut world, alice, bob, watch) = alice_sends("2+2?");
    let alice_addr = alice_address();
    bob_answers(&mut world, &bob, &watch.task);
    let answered = answer(&world.network, &alice_addr, &watch, true);
    let message = &answered["result"]["message"];
    assert_eq!(message["role"], "ROLE_AGENT");
    assert_eq!(message["parts"][0]["text"], "4");
    assert_eq!(message["contextId"], watch.task.as_str());
    assert!(message.get("taskId").is_none(), "{message}");
    assert!(answered["result"].get("task").is_none());
    // GetTask still reads the task behind it (completed).
    let read = answer(&world.network, &alice_addr, &watch, false);
    assert_eq!(read["result"]["status"]["state"], "TASK_STATE_COMPLETED");

    let old = json!({"message": {"kind": "message", "messageId": "m2", "role": "user",
        "parts": [{"kind": "text", "text": "3+3?"}]}});
    let watch = held(
        &mut world,
        &rpc("/agent:bob", Some(&alice), Some("0.3"), "message/send", old),
    );
    bob_answers(&mut world, &bob, &watch.task);
    let answered = answer(&world.network, &alice_addr, &watch, true);
    assert_eq!(answered["result"]["kind"], "message");
    assert_eq!(answered["result"]["role"], "agent");
    assert_eq!(
        answered["result"]["parts"][0],
        json!({"kind": "text", "text": "4"})
    );
    // The same messageId again is the same answer, not a second request.
    let again = json!({"message": {"kind": "message", "messageId": "m2", "role": "user",
        "parts": [{"kind": "text", "text": "3+3?"}]}});
    let resent = now(
        &mut world,
        &rpc(
            "/agent:bob",
            Some(&alice),
            Some("0.3"),
            "message/send",
            again,
        ),
    );
    assert_eq!(resent["result"]["kind"], "message");
    assert_eq!(
        resent["result"]["messageId"],
        answered["result"]["messageId"]
    );
}

#[test]
fn a_stream_opens_with_the_message_and_ends() {
    let (mut world, alice, bob) = world();
    let msg = json!({"message": text_part("2+2?")});
    let req = rpc_to_bob(Some(&alice), "SendStreamingMessage", msg);
    let Ok((
        _,
        Reply::Stream {
            watch,
            opening,
            seen,
            closes,
        },
    )) = run(&mut world, &req)
    else {
        panic!("a stream")
    };
    assert!(opening.is_empty() && !closes);
    bob_answers(&mut world, &bob, &watch.task);
    let done = world.network.state().tasks[watch.task.as_str()].clone();
    let (events, ends) = changes(&watch, &seen, &done);
    assert!(ends);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["result"]["message"]["parts"][0]["text"], "4");
    assert!(events[0]["result"].get("task").is_none());
}

#[test]
fn a_partner_that_works_answers_with_the_task() {
    let (mut world, _, bob, watch) = alice_sends("plan");
    let alice_addr = alice_address();
    for state in ["working", "completed"] {
        bob_updates(
            &mut world,
            &bob,
            json!({"task": watch.task, "state": state, "parts": [{"text": "done"}]}),
        );
    }
    let answered = answer(&world.network, &alice_addr, &watch, true);
    assert_eq!(
        answered["result"]["task"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    assert!(answered["result"].get("message").is_none());
}
