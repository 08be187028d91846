//! Every AIP transition, legal and illegal; who may make it; the A2A mapping.

use super::*;
use TaskState::*;

fn agent(name: &str) -> Address {
    name.parse().unwrap_or_else(|_| Address::core())
}

fn task(state: TaskState, confirm: bool) -> Task {
    Task {
        id: "01J0000000000000000000TASK".parse().unwrap(),
        context: "ctx".parse().ok(),
        requester: agent("agent:alice"),
        partners: vec![agent("agent:bob")],
        mode: TaskMode::Direct,
        channel: None,
        skill: None,
        state,
        status: None,
        confirm,
        history: Vec::new(),
        artifacts: Vec::new(),
        external: None,
        answered_by_message: false,
        on_behalf_of: None,
        push: Vec::new(),
        created_at: Timestamp::from(1),
        updated_at: Timestamp::from(1),
    }
}

/// AIP's table (plus a partner's refusal of a task it has not started).
const LEGAL: &[(TaskState, TaskState)] = &[
    (Accepted, Working),
    (Accepted, Canceled),
    (Accepted, Rejected),
    (Working, AwaitingInput),
    (Working, AwaitingCompletion),
    (Working, Failed),
    (Working, Canceled),
    (AwaitingInput, Working),
    (AwaitingInput, Canceled),
    (AwaitingCompletion, Completed),
    (AwaitingCompletion, Working),
    (AwaitingCompletion, Canceled),
];

#[test]
fn every_pair_of_states_is_legal_exactly_when_aip_says_so() {
    let mut checked = 0;
    for from in TaskState::ALL {
        for to in TaskState::ALL {
            let legal = LEGAL.contains(&(from, to));
            assert_eq!(from.may_become(to), legal, "{from:?} -> {to:?}");
            match from.check(to) {
                Ok(()) => assert!(legal),
                Err(err) => {
                    assert!(!legal);
                    assert_eq!(err.code(), ErrorCode::InvalidTransition);
                    assert_eq!(err.code().as_str(), "invalid_transition");
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 64);
}

#[test]
fn terminal_states_have_no_way_out() {
    for from in TaskState::ALL.into_iter().filter(|s| s.is_terminal()) {
        assert!(TaskState::ALL.into_iter().all(|to| !from.may_become(to)));
    }
    let terminal: Vec<_> = TaskState::ALL
        .into_iter()
        .filter(|s| s.is_terminal())
        .collect();
    assert_eq!(terminal, vec![Completed, Canceled, Failed, Rejected]);
}

#[test]
fn the_a2a_mapping_is_one_to_one_in_both_generations() {
    let v1: std::collections::BTreeSet<_> = TaskState::ALL.iter().map(|s| s.to_a2a()).collect();
    let v03: std::collections::BTreeSet<_> =
        TaskState::ALL.iter().map(|s| s.to_a2a_v03()).collect();
    assert_eq!(v1.len(), 8);
    assert_eq!(v03.len(), 8);
    for state in TaskState::ALL {
        assert_eq!(TaskState::from_a2a(state.to_a2a()), Some(state));
        assert_eq!(TaskState::from_a2a(state.to_a2a_v03()), Some(state));
        assert_eq!(TaskState::parse(state.as_str()), Some(state));
        let json = serde_json::to_string(&state).unwrap_or_default();
        assert_eq!(json, format!("\"{}\"", state.as_str()));
    }
    assert_eq!(AwaitingInput.to_a2a(), "TASK_STATE_INPUT_REQUIRED");
    assert_eq!(Accepted.to_a2a_v03(), "submitted");
    assert_eq!(TaskState::from_a2a("TASK_STATE_UNSPECIFIED"), None);
}

#[test]
fn a_partner_completes_through_awaiting_completion_unless_the_requester_confirms() {
    let bob = agent("agent:bob");
    let alice = agent("agent:alice");
    let mut t = task(Working, false);
    assert_eq!(t.advance(&bob, Completed, Timestamp::from(5)), Ok(()));
    assert_eq!((t.state, t.updated_at), (Completed, Timestamp::from(5)));

    let mut t = task(Working, true);
    assert_eq!(
        t.advance(&bob, Completed, Timestamp::from(5)),
        Err(TaskError::NotYours { state: Completed })
    );
    assert_eq!(
        t.advance(&bob, AwaitingCompletion, Timestamp::from(6)),
        Ok(())
    );
    assert_eq!(t.advance(&alice, Completed, Timestamp::from(7)), Ok(()));
    assert_eq!(t.state, Completed);

    // Not from accepted, even without confirmation: the partner starts first.
    let mut t = task(Accepted, false);
    assert!(matches!(
        t.advance(&bob, Completed, Timestamp::from(5)),
        Err(TaskError::Transition { .. })
    ));
    assert_eq!(t.state, Accepted);
}

#[test]
fn each_side_sets_only_its_own_states() {
    let bob = agent("agent:bob");
    let alice = agent("agent:alice");
    for state in [Working, AwaitingInput, AwaitingCompletion, Failed, Rejected] {
        let mut t = task(Accepted, false);
        let err = t.advance(&alice, state, Timestamp::from(2));
        if state == Working {
            assert_eq!(err, Err(TaskError::NotYours { state }));
        } else {
            assert_eq!(err.map_err(|e| e.code()), Err(ErrorCode::Forbidden));
        }
    }
    // The requester continues a task that waits for it; either side cancels.
    let mut t = task(AwaitingInput, false);
    assert_eq!(t.advance(&alice, Working, Timestamp::from(2)), Ok(()));
    assert_eq!(t.advance(&bob, Canceled, Timestamp::from(3)), Ok(()));
    let mut t = task(Accepted, false);
    assert_eq!(t.advance(&alice, Canceled, Timestamp::from(2)), Ok(()));
    assert_eq!(
        t.advance(&alice, Canceled, Timestamp::from(3))
            .map_err(|e| e.code()),
        Err(ErrorCode::InvalidTransition)
    );
}

#[test]
fn history_keeps_the_newest_messages() {
    let mut t = task(Working, false);
    for i in 0..(MAX_HISTORY + 5) {
        t.record(TaskMessage {
            id: format!("m{i}"),
            from: agent("agent:bob"),
            role: TaskRole::Partner,
            parts: vec![],
            at: Timestamp::from(i as u64),
            client_id: None,
        });
    }
    assert_eq!(t.history.len(), MAX_HISTORY);
    assert_eq!(t.history.first().map(|m| m.id.as_str()), Some("m5"));
}

#[test]
fn audiences_follow_the_mode() {
    let t = task(Working, false);
    assert_eq!(
        t.audience_for(&agent("agent:alice")),
        Some(agent("agent:bob"))
    );
    assert_eq!(
        t.audience_for(&agent("agent:bob")),
        Some(agent("agent:alice"))
    );
    let mut g = task(Working, false);
    g.mode = TaskMode::Group;
    g.channel = "channel/team"
        .parse::<Address>()
        .ok()
        .and_then(|a| match a.entity() {
            crate::ids::address::Entity::Channel(n) => Some(n.clone()),
            _ => None,
        });
    assert_eq!(
        g.audience_for(&agent("agent:bob")),
        Some(agent("channel/team"))
    );
}

#[test]
fn a_markdown_artifact_is_stored_as_markdown() {
    use serde_json::json;
    let text = [json!({"kind": "text", "text": "# Report"})];
    assert_eq!(
        TaskArtifact::content_type_of("report.md", &text),
        "text/markdown"
    );
    assert_eq!(
        TaskArtifact::content_type_of("REPORT.MD", &text),
        "text/markdown"
    );
    assert_eq!(TaskArtifact::content_type_of("report", &text), "text/plain");
    let typed = [json!({"kind": "text", "text": "# R", "mediaType": "text/markdown"})];
    assert_eq!(
        TaskArtifact::content_type_of("report", &typed),
        "text/markdown"
    );
    let in_metadata = [json!({"text": "# R", "metadata": {"mimeType": "text/markdown"}})];
    assert_eq!(
        TaskArtifact::content_type_of("", &in_metadata),
        "text/markdown"
    );
}

#[test]
fn an_empty_context_is_none_and_is_written_as_it_came() {
    let mut task = task(Accepted, false);
    assert_eq!(task.context_text(), "ctx");
    task.context = None;
    let json = serde_json::to_value(&task).unwrap();
    assert_eq!(json["context"], "");
    assert_eq!(json["id"], "01J0000000000000000000TASK");
    let back: Task = serde_json::from_value(json).unwrap();
    assert_eq!(back, task);
    assert_eq!(back.context_text(), "");
}
