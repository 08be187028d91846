//! Idempotent tool calls: a `tools/call` sent again with its request id in
//! the same session runs the tool once and answers the first result.

use super::{Mcp, post, rpc};
use crate::Timestamp;
use crate::bindings::jsonrpc::Id;
use crate::bindings::mcp::outcome::Outcome;
use crate::bindings::mcp::retries::{self, MAX_CALLS, MAX_RESULT_BYTES, RETRY_WINDOW_MS};
use crate::bindings::mcp::waiting::{Arrival, Reply, WaitFor, Waiting};
use crate::ids::event_type::core_types;
use serde_json::{Value, json};

fn setup() -> (Mcp, String, String, String) {
    let (mut mcp, owner, claude) = Mcp::owner_and_claude("agent:calculator");
    let ack = mcp.send(
        &owner,
        json!({"type": "network.resource.register", "target": "core",
            "payload": {"address": "resource/tool/add", "description": "adds"}}),
    );
    assert!(ack.get("seq").is_some(), "{ack}");
    let session = mcp.init(&claude, "2025-11-25");
    (mcp, owner, claude, session)
}

fn invocations(mcp: &Mcp) -> usize {
    mcp.world
        .host
        .log
        .log
        .iter()
        .filter(|r| r.event.event_type.as_str() == core_types::RESOURCE_INVOKE)
        .count()
}

/// Calls `add` as request `id`: the outcome.
fn call(mcp: &mut Mcp, token: &str, session: &str, id: u64) -> Outcome {
    let body = rpc(
        id,
        "tools/call",
        json!({"name": "add", "arguments": {"a": 1}}),
    );
    mcp.handle(&post(Some(token), Some(session), &body))
}

fn waits(outcome: Outcome) -> Waiting {
    match outcome {
        Outcome::Stream { mut waits, .. } => waits.pop().expect("a wait"),
        other => panic!("expected a stream, got {other:?}"),
    }
}

fn answered(outcome: Outcome) -> Value {
    match outcome {
        Outcome::Respond(response) => super::json_of(&response),
        Outcome::Stream { opening, waits, .. } if waits.is_empty() => {
            let data = opening
                .iter()
                .rev()
                .find_map(|r| r.split("data: ").nth(1))
                .unwrap();
            serde_json::from_str(data.trim()).unwrap()
        }
        other => panic!("expected an answer, got {other:?}"),
    }
}

fn finish(mcp: &mut Mcp, waiting: &Waiting, arrival: Arrival) -> Value {
    let (host, network) = (&mut mcp.world.host, &mut mcp.world.network);
    match retries::finish(host, network, waiting, arrival) {
        Ok(result) => result.expect("an answer"),
        Err(never) => match never {},
    }
}

#[test]
fn a_retry_waits_for_the_first_invocation_then_gets_its_result() {
    let (mut mcp, owner, claude, session) = setup();
    let first = waits(call(&mut mcp, &claude, &session, 7));
    assert_eq!(invocations(&mcp), 1);
    // The answer was lost: the client sends the same request again.
    let retry = waits(call(&mut mcp, &claude, &session, 7));
    assert_eq!(invocations(&mcp), 1, "the tool is not invoked twice");
    assert_eq!(retry.wait, first.wait);
    let WaitFor::Invoke { event, .. } = &first.wait else {
        panic!("an invocation")
    };
    let from = mcp.answer_invocation(&owner, "agent:claude", event, json!({"sum": 1}));
    let arrival = mcp
        .wakes(from, &retry)
        .expect("the retry wakes on the first's result");
    assert_eq!(
        finish(&mut mcp, &retry, arrival)["structuredContent"],
        json!({"sum": 1})
    );
    // Once answered, a retry is answered at once with the same result.
    let again = answered(call(&mut mcp, &claude, &session, 7));
    assert_eq!(again["id"], 7);
    assert_eq!(again["result"]["structuredContent"], json!({"sum": 1}));
    assert_eq!(invocations(&mcp), 1);
    // Another request id is another call, and so is the same id with other params.
    waits(call(&mut mcp, &claude, &session, 8));
    assert_eq!(invocations(&mcp), 2);
    let other = rpc(
        7,
        "tools/call",
        json!({"name": "add", "arguments": {"a": 2}}),
    );
    waits(mcp.handle(&post(Some(&claude), Some(&session), &other)));
    assert_eq!(invocations(&mcp), 3);
}

#[test]
fn the_same_id_in_another_session_or_after_the_window_is_a_new_call() {
    let (mut mcp, _owner, claude, session) = setup();
    waits(call(&mut mcp, &claude, &session, 7));
    let other = mcp.init(&claude, "2025-11-25");
    waits(call(&mut mcp, &claude, &other, 7));
    assert_eq!(invocations(&mcp), 2);
    mcp.world.host.now += RETRY_WINDOW_MS;
    waits(call(&mut mcp, &claude, &session, 7));
    assert_eq!(invocations(&mcp), 3);
}

#[test]
fn a_timed_out_call_is_not_run_again_by_its_retry() {
    let (mut mcp, _owner, claude, session) = setup();
    let first = waits(call(&mut mcp, &claude, &session, 3));
    let timed_out = finish(&mut mcp, &first, Arrival::TimedOut);
    assert_eq!(timed_out["structuredContent"]["error"]["code"], "timeout");
    let retry = waits(call(&mut mcp, &claude, &session, 3));
    assert_eq!(retry.wait, first.wait, "it waits for the same invocation");
    assert_eq!(invocations(&mcp), 1);
}

#[test]
fn a_session_remembers_a_bounded_number_of_calls_and_bytes() {
    let (mcp, _owner, _claude, session) = setup();
    let mut session = mcp.world.host.mcp_sessions[&session].clone();
    let none = serde_json::Map::new();
    for n in 0..(MAX_CALLS as i64 + 10) {
        assert!(retries::note(
            &mut session,
            (&Id::Number(n), &none),
            &Reply::Result(json!({"n": n})),
            Timestamp::from(1)
        ));
    }
    assert_eq!(session.calls.len(), MAX_CALLS);
    assert!(
        retries::replay(
            &session,
            (&Id::Number(0), &none),
            &session.member.clone(),
            Timestamp::from(2)
        )
        .is_none()
    );
    let member = session.member.clone();
    assert_eq!(
        retries::replay(
            &session,
            (&Id::Number(70), &none),
            &member,
            Timestamp::from(2)
        ),
        Some(Reply::Result(json!({"n": 70})))
    );
    // A result too large to keep: the retry is told, and nothing runs again.
    let big = json!({"text": "x".repeat(MAX_RESULT_BYTES)});
    retries::note(
        &mut session,
        (&Id::Text("big".into()), &none),
        &Reply::Result(big),
        Timestamp::from(1),
    );
    match retries::replay(
        &session,
        (&Id::Text("big".into()), &none),
        &member,
        Timestamp::from(2),
    ) {
        Some(Reply::Error(error)) => assert_eq!(error.code, -32603),
        other => panic!("expected an error, got {other:?}"),
    }
    // Many mid-sized results: the oldest give way to keep the total bounded.
    for n in 0..40 {
        let result = json!({"text": "y".repeat(MAX_RESULT_BYTES / 2)});
        retries::note(
            &mut session,
            (&Id::Text(format!("m{n}")), &none),
            &Reply::Result(result),
            Timestamp::from(1),
        );
    }
    let kept: usize = session
        .calls
        .iter()
        .filter_map(|c| c.result.as_ref())
        .map(|r| r.to_string().len())
        .sum();
    assert!(kept <= retries::MAX_KEPT_BYTES, "{kept}");
    // Errors are not remembered: nothing ran.
    let refused = Reply::Error(crate::bindings::jsonrpc::RpcError::invalid_params("no"));
    assert!(!retries::note(
        &mut session,
        (&Id::Number(999), &none),
        &refused,
        Timestamp::from(1)
    ));
    let long = Id::Text("z".repeat(retries::MAX_ID_BYTES + 1));
    assert!(!retries::note(
        &mut session,
        (&long, &none),
        &Reply::Result(json!({})),
        Timestamp::from(1)
    ));
}
