//! `task.*` events through the pipeline: direct, group and hybrid tasks,
//! who may do what, artifacts as file resources, and restoring from rows.

use super::*;
use crate::model::task::{TaskMode, TaskState};

fn stored_rows(effects: &[Effect]) -> Vec<Row> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Store(row) => Some(row.clone()),
            _ => None,
        })
        .collect()
}

fn task_id(effects: &[Effect]) -> String {
    acked(effects).payload["task"]
        .as_str()
        .unwrap_or_else(|| panic!("no task in {effects:#?}"))
        .to_owned()
}

fn two() -> (Network, Peer, Peer) {
    let mut network = bare();
    let [alice, bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    (network, alice, bob)
}

#[test]
fn a_direct_task_goes_from_request_to_completion_with_an_artifact() {
    let (mut network, mut alice, mut bob) = two();
    let msg = json!({"message": {"parts": [{"text": "book a flight"}]}, "skill": "travel"});
    let effects = alice.send(&mut network, TASK_CREATE, "agent:bob", msg);
    assert_eq!(delivered_to(&effects), vec!["agent:bob"]);
    let id = task_id(&effects);
    assert_eq!(acked(&effects).payload["state"], "accepted");
    let task = &network.state().tasks[id.as_str()];
    assert_eq!(
        (task.mode, task.state),
        (TaskMode::Direct, TaskState::Accepted)
    );
    assert_eq!(task.history.len(), 1);
    assert_eq!(task.skill.as_deref(), Some("travel"));

    let working = json!({"task": id, "state": "working"});
    let effects = bob.send(&mut network, TASK_UPDATE, "agent:alice", working);
    assert_eq!(delivered_to(&effects), vec!["agent:alice"]);
    let ask = json!({"task": id, "state": "awaiting-input", "parts": [{"text": "from where?"}]});
    bob.send(&mut network, TASK_UPDATE, "agent:alice", ask);
    assert_eq!(
        network.state().tasks[id.as_str()].state,
        TaskState::AwaitingInput
    );
    // The requester's answer continues the task.
    let answer = json!({"task": id, "parts": [{"text": "from Paris"}]});
    let effects = alice.send(&mut network, "task.message", "agent:bob", answer);
    assert_eq!(delivered_to(&effects), vec!["agent:bob"]);
    assert_eq!(network.state().tasks[id.as_str()].state, TaskState::Working);

    let art = json!({"task": id, "artifact": {"name": "ticket", "parts": [{"text": "AF123"}]}});
    let effects = bob.send(&mut network, "task.artifact", "agent:alice", art);
    let rows = stored_rows(&effects);
    let file = rows.iter().find_map(|r| match r {
        Row::Resource(r) => Some(r.clone()),
        _ => None,
    });
    let file = file.unwrap_or_else(|| panic!("no file in {rows:#?}"));
    assert_eq!(
        file.address.to_string(),
        format!("resource/file/tasks/{id}/artifact-1")
    );
    assert!(network.state().may(
        &addr("agent:alice"),
        &file,
        crate::model::access::Permission::Read
    ));
    join(&mut network, "agent:carol");
    assert!(!network.state().may(
        &addr("agent:carol"),
        &file,
        crate::model::access::Permission::Read
    ));

    let done = json!({"task": id, "state": "completed"});
    let effects = bob.send(&mut network, TASK_UPDATE, "agent:alice", done);
    assert_eq!(acked(&effects).payload["state"], "completed");
    let task = &network.state().tasks[id.as_str()];
    assert_eq!(task.state, TaskState::Completed);
    assert_eq!(task.history.len(), 3);
    assert_eq!(task.artifacts.len(), 1);
}

#[test]
fn illegal_moves_are_refused_with_stable_codes_and_change_nothing() {
    let (mut network, mut alice, mut bob) = two();
    let mut carol = join(&mut network, "agent:carol");
    let id = task_id(&alice.send(&mut network, TASK_CREATE, "agent:bob", json!({})));
    let before = network.state().tasks[id.as_str()].clone();

    let done = json!({"task": id, "state": "completed"});
    let working = json!({"task": id, "state": "working"});
    let e = bob.send(&mut network, TASK_UPDATE, "agent:alice", done);
    assert_eq!(error_code(&e), ErrorCode::InvalidTransition);
    let e = alice.send(&mut network, TASK_UPDATE, "agent:bob", working.clone());
    assert_eq!(error_code(&e), ErrorCode::Forbidden);
    let e = carol.send(
        &mut network,
        TASK_CANCEL,
        "agent:alice",
        json!({"task": id}),
    );
    assert_eq!(error_code(&e), ErrorCode::Forbidden);
    let e = bob.send(&mut network, TASK_UPDATE, "agent:carol", working);
    assert_eq!(error_code(&e), ErrorCode::InvalidRequest);
    let unknown_state = json!({"task": id, "state": "done"});
    let e = bob.send(&mut network, TASK_UPDATE, "agent:alice", unknown_state);
    assert_eq!(error_code(&e), ErrorCode::InvalidRequest);
    let unknown_task = json!({"task": "nope"});
    let e = bob.send(&mut network, TASK_CANCEL, "agent:alice", unknown_task);
    assert_eq!(error_code(&e), ErrorCode::NotFound);
    let e = alice.send(&mut network, TASK_CREATE, "agent:nobody", json!({}));
    assert_eq!(error_code(&e), ErrorCode::UnknownTarget);
    assert_eq!(network.state().tasks[id.as_str()], before);

    // Cancelled is final: no more messages, updates or artifacts.
    alice.send(&mut network, TASK_CANCEL, "agent:bob", json!({"task": id}));
    assert_eq!(
        network.state().tasks[id.as_str()].state,
        TaskState::Canceled
    );
    for (kind, payload) in [
        (
            "task.message",
            json!({"task": id, "parts": [{"text": "hi"}]}),
        ),
        ("task.update", json!({"task": id, "state": "working"})),
        (
            "task.artifact",
            json!({"task": id, "parts": [{"text": "x"}]}),
        ),
        ("task.cancel", json!({"task": id})),
    ] {
        let e = bob.send(&mut network, kind, "agent:alice", payload);
        assert_eq!(error_code(&e), ErrorCode::InvalidTransition, "{kind}");
    }
}

#[test]
fn group_and_hybrid_tasks_go_through_their_channel() {
    let (mut network, mut alice, mut bob) = two();
    let mut carol = join(&mut network, "agent:carol");
    alice.ask(&mut network, CHANNEL_CREATE, json!({"channel": "team"}));
    bob.ask(&mut network, CHANNEL_JOIN, json!({"channel": "team"}));
    carol.ask(&mut network, CHANNEL_JOIN, json!({"channel": "team"}));

    let effects = alice.send(&mut network, TASK_CREATE, "channel/team", json!({}));
    assert_eq!(delivered_to(&effects), vec!["agent:bob", "agent:carol"]);
    let id = task_id(&effects);
    let task = &network.state().tasks[id.as_str()];
    assert_eq!(task.mode, TaskMode::Group);
    assert_eq!(task.partners, vec![addr("agent:bob"), addr("agent:carol")]);
    let effects = carol.send(
        &mut network,
        TASK_UPDATE,
        "channel/team",
        json!({"task": id, "state": "working"}),
    );
    assert_eq!(delivered_to(&effects), vec!["agent:alice", "agent:bob"]);

    let hybrid = json!({"partners": ["agent:bob"]});
    let id = task_id(&alice.send(&mut network, TASK_CREATE, "channel/team", hybrid));
    assert_eq!(network.state().tasks[id.as_str()].mode, TaskMode::Hybrid);
    // Carol hears the task's messages but is not its partner.
    let working = json!({"task": id, "state": "working"});
    let e = carol.send(&mut network, TASK_UPDATE, "channel/team", working);
    assert_eq!(error_code(&e), ErrorCode::Forbidden);
    let outsider = json!({"partners": ["agent:dave"]});
    let e = alice.send(&mut network, TASK_CREATE, "channel/team", outsider);
    assert_eq!(error_code(&e), ErrorCode::InvalidRequest);
}

#[test]
fn tasks_survive_a_restore_from_their_rows() {
    let (mut network, mut alice, mut bob) = two();
    let mut rows = Vec::new();
    let effects = alice.send(
        &mut network,
        TASK_CREATE,
        "agent:bob",
        json!({"parts": [{"text": "go"}]}),
    );
    let id = task_id(&effects);
    rows.extend(stored_rows(&effects));
    let working = json!({"task": id, "state": "working"});
    rows.extend(stored_rows(&bob.send(
        &mut network,
        TASK_UPDATE,
        "agent:alice",
        working,
    )));
    let art = json!({"task": id, "parts": [{"text": "result"}]});
    rows.extend(stored_rows(&bob.send(
        &mut network,
        "task.artifact",
        "agent:alice",
        art,
    )));
    for row in network_rows(&network) {
        rows.push(row);
    }
    let restored = Network::new(network.config().clone(), rows, 99, [1; 32]);
    assert_eq!(
        restored.state().tasks[id.as_str()],
        network.state().tasks[id.as_str()]
    );
    assert_eq!(
        restored.state().tasks[id.as_str()].state,
        TaskState::Working
    );
    let artifact = &restored.state().tasks[id.as_str()].artifacts[0].resource;
    assert!(restored.state().resources.contains_key(artifact));
}

fn network_rows(network: &Network) -> Vec<Row> {
    network
        .state()
        .members
        .values()
        .map(|m| Row::Member(m.clone()))
        .collect()
}

#[test]
fn a_member_lists_its_own_tasks_newest_first_without_push_targets() {
    let (mut network, mut alice, mut bob) = two();
    let mut carol = join(&mut network, "agent:carol");
    let first = task_id(&alice.send(&mut network, TASK_CREATE, "agent:bob", json!({})));
    let second = task_id(&alice.send(&mut network, TASK_CREATE, "agent:bob", json!({})));
    let theirs = task_id(&carol.send(&mut network, TASK_CREATE, "agent:bob", json!({})));
    // The first task changes last: it is listed first.
    let working = json!({"task": first, "state": "working"});
    bob.send(&mut network, TASK_UPDATE, "agent:alice", working);
    let changed = network.state.tasks.get_mut(first.as_str()).unwrap();
    changed.updated_at = Timestamp::from(20);
    changed.push.push(crate::model::push::PushTarget {
        id: "p1".into(),
        url: "https://hooks.example/secret".into(),
        token: Some("secret-token".into()),
        scheme: None,
        credentials: None,
        version: "1.0".into(),
        owner: addr("agent:alice"),
    });

    let effects = alice.ask(&mut network, "task.list", json!({}));
    let answer = reply_of_type(&effects, "task.list.response");
    let ids: Vec<&str> = answer.payload["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [first.as_str(), second.as_str()],
        "alice's only, newest change first"
    );
    assert_eq!(answer.payload["total"], 2);
    assert_eq!(answer.payload["more"], false);
    assert_eq!(answer.payload["tasks"][0]["state"], "working");
    assert!(
        !answer.payload.to_string().contains("secret"),
        "push targets are never listed: {}",
        answer.payload
    );
    assert!(
        delivered_to(&effects).is_empty(),
        "a read goes to nobody else"
    );

    // The partner sees every task it works on; a state and a limit filter.
    let effects = bob.ask(&mut network, "task.list", json!({"state": "accepted"}));
    let answer = reply_of_type(&effects, "task.list.response");
    let mut ids: Vec<&str> = answer.payload["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    let mut want = [theirs.as_str(), second.as_str()];
    want.sort_unstable();
    assert_eq!(ids, want);
    let effects = bob.ask(&mut network, "task.list", json!({"limit": 1}));
    let answer = reply_of_type(&effects, "task.list.response");
    assert_eq!(answer.payload["tasks"].as_array().unwrap().len(), 1);
    assert_eq!(
        (
            answer.payload["total"].as_u64(),
            answer.payload["more"].as_bool()
        ),
        (Some(3), Some(true))
    );
}

#[test]
fn a_bad_task_listing_is_refused_with_a_stable_code() {
    let (mut network, mut alice, _bob) = two();
    for bad in [
        json!({"state": "sleeping"}),
        json!({"state": 3}),
        json!({"limit": 0}),
        json!({"limit": 100_000}),
        json!({"limit": "ten"}),
    ] {
        let e = alice.ask(&mut network, "task.list", bad.clone());
        assert_eq!(error_code(&e), ErrorCode::InvalidRequest, "{bad}");
    }
    let e = alice.send(&mut network, "task.list", "agent:bob", json!({}));
    assert_eq!(
        error_code(&e),
        ErrorCode::InvalidRequest,
        "a listing goes to core"
    );
}

#[test]
fn a_task_asked_for_a_person_is_listed_to_them_who_take_no_part_in_it() {
    let (mut network, mut alice, mut bob) = two();
    let [mut ann, mut carol] = join_all(&mut network, ["human:ann", "agent:carol"]);
    let asked = json!({"parts": [{"text": "book a table"}], "on_behalf_of": "human:ann"});
    let id = task_id(&alice.send(&mut network, TASK_CREATE, "agent:bob", asked));
    assert_eq!(
        network.state().tasks[id.as_str()].on_behalf_of,
        Some(addr("human:ann"))
    );
    let listed = |peer: &mut Peer, network: &mut Network| -> Vec<String> {
        let effects = peer.send(network, "task.list", "core", json!({}));
        reply_of_type(&effects, "task.list.response").payload["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(listed(&mut ann, &mut network), std::slice::from_ref(&id));
    assert!(listed(&mut carol, &mut network).is_empty(), "nobody else");
    // Ann reads it; she does not act in it.
    let answer = json!({"task": id, "parts": [{"text": "4"}]});
    let e = ann.send(&mut network, "task.message", "agent:bob", answer);
    assert_eq!(error_code(&e), ErrorCode::Forbidden);
    let working = json!({"task": id, "state": "working"});
    let e = bob.send(&mut network, TASK_UPDATE, "agent:alice", working);
    assert_eq!(
        delivered_to(&e),
        vec!["agent:alice"],
        "its events go to its parties only"
    );

    for bad in [json!("human:nobody"), json!("not an address"), json!(7)] {
        let e = alice.send(
            &mut network,
            TASK_CREATE,
            "agent:bob",
            json!({"on_behalf_of": bad}),
        );
        assert_eq!(error_code(&e), ErrorCode::InvalidRequest, "{bad}");
    }
}
