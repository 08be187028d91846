//! A partner answering a request with one message (`answer: "message"`):
//! its first answer completes the task at once; anything else is refused
//! and changes nothing.

use super::*;
use crate::model::task::TaskState;
use serde_json::Value;

fn task_id(effects: &[Effect]) -> String {
    acked(effects).payload["task"]
        .as_str()
        .unwrap_or_else(|| panic!("no task in {effects:#?}"))
        .to_owned()
}

fn answer(id: &str) -> Value {
    json!({"task": id, "state": "completed", "answer": "message", "parts": [{"text": "4"}]})
}

#[test]
fn a_partner_answers_a_request_with_one_message() {
    let mut network = bare();
    let [mut alice, mut bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    let ask = json!({"parts": [{"text": "2+2?"}]});
    let id = task_id(&alice.send(&mut network, TASK_CREATE, "agent:bob", ask));
    let effects = bob.send(&mut network, TASK_UPDATE, "agent:alice", answer(&id));
    assert_eq!(acked(&effects).payload["state"], "completed");
    assert_eq!(delivered_to(&effects), vec!["agent:alice"]);
    let task = &network.state().tasks[id.as_str()];
    assert_eq!(task.state, TaskState::Completed);
    assert!(task.answered_by_message);
    assert_eq!(
        task.status.as_ref().map(|s| s.parts.clone()),
        Some(vec![json!({"text": "4"})])
    );
}

#[test]
fn a_message_answer_is_the_partners_first_and_needs_a_message() {
    let mut network = bare();
    let [mut alice, mut bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    let id = task_id(&alice.send(&mut network, TASK_CREATE, "agent:bob", json!({})));
    let before = network.state().tasks[id.as_str()].clone();
    let empty = json!({"task": id, "state": "completed", "answer": "message"});
    let e = bob.send(&mut network, TASK_UPDATE, "agent:alice", empty);
    assert_eq!(error_code(&e), ErrorCode::InvalidRequest);
    let failed =
        json!({"task": id, "state": "failed", "answer": "message", "parts": [{"text": "x"}]});
    let e = bob.send(&mut network, TASK_UPDATE, "agent:alice", failed);
    assert_eq!(error_code(&e), ErrorCode::InvalidRequest);
    let e = alice.send(&mut network, TASK_UPDATE, "agent:bob", answer(&id));
    assert_eq!(error_code(&e), ErrorCode::InvalidRequest);
    assert_eq!(network.state().tasks[id.as_str()], before);
    // Once working, the partner answers with a task as usual.
    let working = json!({"task": id, "state": "working"});
    bob.send(&mut network, TASK_UPDATE, "agent:alice", working);
    let e = bob.send(&mut network, TASK_UPDATE, "agent:alice", answer(&id));
    assert_eq!(error_code(&e), ErrorCode::InvalidTransition);
    assert!(!network.state().tasks[id.as_str()].answered_by_message);
    // A requester that confirms completion itself cannot be answered so.
    let confirm = json!({"confirm": true, "parts": [{"text": "q"}]});
    let id = task_id(&alice.send(&mut network, TASK_CREATE, "agent:bob", confirm));
    let before = network.state().tasks[id.as_str()].clone();
    let e = bob.send(&mut network, TASK_UPDATE, "agent:alice", answer(&id));
    assert_eq!(error_code(&e), ErrorCode::Forbidden);
    assert_eq!(network.state().tasks[id.as_str()], before);
}
