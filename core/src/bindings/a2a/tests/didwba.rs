//! A DIDWba header on an A2A endpoint: the DID joins at level 3, its
//! message becomes a task of that member, and the answer's bearer token
//! works for the requests that follow; a replayed header is refused with the
//! method spec's challenge.

use super::*;
use crate::Verification;

#[test]
fn a_didwba_caller_sends_a_task_and_gets_a_bearer_session() {
    let (mut world, _, _) = world();
    world.host.now = 1_764_000_000_000;
    let did = "did:wba:example.com:agents:Ana";
    let key = world.knows_did(did, 11);
    let header = world.didwba_header(&key, did, "a2a-1", "edge.test", true);
    let send = rpc_to_bob(
        None,
        "SendMessage",
        json!({"message": text_part("plan a trip"), "configuration": {"returnImmediately": true}}),
    )
    .with_header("Authorization", &header);
    let accepted = accept(&mut world, &send).expect("the DIDWba caller is let in");
    let ana: Address = "agent:ana".parse().unwrap();
    assert_eq!(accepted.member, ana);
    assert_eq!(
        world.verified("agent:ana"),
        Some((Verification::DID, Some(did.to_owned())))
    );
    let Reply::Now(answer) = &accepted.reply else {
        panic!("a non-blocking send answers at once: {:?}", accepted.reply)
    };
    let task = answer["result"]["task"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no task in {answer}"))
        .to_owned();

    // The bearer it answered with reads the task as the same member.
    let token = accepted
        .bearer
        .expect("a bearer for the next requests")
        .token;
    let get_task = rpc_to_bob(Some(&token), "GetTask", json!({"id": task}));
    let got = now(&mut world, &get_task);
    assert_eq!(got["result"]["id"], json!(task), "{got}");

    // The same header again: a replayed nonce, 401 with the DIDWba challenge.
    let Err(replayed) = accept(&mut world, &send) else {
        panic!("a replayed DIDWba header passed")
    };
    assert_eq!(replayed.status, 401);
    let challenge = replayed.header("WWW-Authenticate").unwrap_or_default();
    assert!(challenge.starts_with("DIDWba error=\"invalid_nonce\""));
}
