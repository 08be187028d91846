//! `mod/workspace` approvals through the network: a request to one person
//! is decided by that person and the decision goes back to the requester;
//! a request to a channel is decided by the people it names or, naming
//! none, by a master; a decision comes once, in time, from an approver;
//! only the requester says a request expired, once it has; an edit keeps
//! the step's shape; the network remembers open requests across a restore.

use super::*;

const REQUESTED: &str = "workspace.approval.requested";
const DECIDED: &str = "workspace.approval.decided";
const HOUR: u64 = 3_600_000;

fn workspace() -> Network {
    network_with(vec![ModConfig::Workspace(WorkspaceSettings::default())])
}

fn tool_call(approvers: Value) -> Value {
    json!({
        "approvers": approvers,
        "action": {"kind": "tool_call", "subject": "tool/send_mail",
                   "summary": "Send the offer to ann@example.com",
                   "detail": {"to": "ann@example.com"}},
        "expires_at": 10 + HOUR,
    })
}

/// `peer` sends `kind` to `target` at `now`.
fn send_at(
    network: &mut Network,
    peer: &mut Peer,
    kind: &str,
    target: &str,
    payload: Value,
    now: u64,
) -> Vec<Effect> {
    let event = peer.event(kind, target, payload);
    network.handle_event(Some(&peer.address.clone()), event, Timestamp::from(now))
}

/// Sends a request; its id.
fn request(network: &mut Network, agent: &mut Peer, target: &str, payload: Value) -> String {
    let event = agent.event(REQUESTED, target, payload);
    let id = event.id.to_string();
    let effects = network.handle_event(Some(&agent.address.clone()), event, Timestamp::from(10));
    assert!(!delivered_to(&effects).is_empty(), "{effects:#?}");
    id
}

#[test]
fn a_direct_request_is_decided_by_its_person_and_goes_back_to_the_agent() {
    let mut network = workspace();
    let [mut ann, mut bob, mut agent] =
        join_all(&mut network, ["human:ann", "human:bob", "agent:helper"]);
    let id = request(&mut network, &mut agent, "human:ann", tool_call(json!([])));

    // Someone else, or the wrong place, is refused; the connection goes on.
    let decide = json!({"approval": id, "decision": "approved"});
    let refused = bob.send(&mut network, DECIDED, "agent:helper", decide.clone());
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
    let refused = ann.broadcast(&mut network, DECIDED, decide.clone());
    assert_eq!(error_code(&refused), ErrorCode::InvalidRequest);
    // An edit keeps the step's shape.
    let edited = json!({"approval": id, "decision": "approved", "edited": "text"});
    let refused = ann.send(&mut network, DECIDED, "agent:helper", edited);
    assert_eq!(error_code(&refused), ErrorCode::InvalidRequest);

    let edited =
        json!({"approval": id, "decision": "approved", "edited": {"to": "ann@work.example"}});
    let approved = ann.send(&mut network, DECIDED, "agent:helper", edited);
    assert_eq!(delivered_to(&approved), vec!["agent:helper".to_owned()]);
    // Once only.
    let again = ann.send(
        &mut network,
        DECIDED,
        "agent:helper",
        json!({"approval": id, "decision": "denied"}),
    );
    assert_eq!(error_code(&again), ErrorCode::AlreadyExists);
}

#[test]
fn a_channel_request_is_decided_by_the_people_it_names_or_a_master() {
    let mut network = workspace();
    let [mut ann, mut boss, mut agent] =
        join_all(&mut network, ["human:ann", "agent:boss", "agent:helper"]);
    let named = request(
        &mut network,
        &mut agent,
        "agent:broadcast",
        tool_call(json!(["human:ann"])),
    );
    let unnamed = request(
        &mut network,
        &mut agent,
        "agent:broadcast",
        tool_call(json!([])),
    );

    only_the_decider_denies(&mut network, &mut boss, &mut ann, &named);
    only_the_decider_denies(&mut network, &mut ann, &mut boss, &unnamed);
}

/// `outsider` may not deny approval `id`; `decider` may, and the helper hears of it.
fn only_the_decider_denies(
    network: &mut Network,
    outsider: &mut Peer,
    decider: &mut Peer,
    id: &str,
) {
    let deny = json!({"approval": id, "decision": "denied", "reason": "not today"});
    let refused = outsider.broadcast(network, DECIDED, deny.clone());
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
    let denied = decider.broadcast(network, DECIDED, deny);
    assert!(
        delivered_to(&denied).contains(&"agent:helper".to_owned()),
        "{denied:#?}"
    );
}

#[test]
fn a_request_expires_and_then_only_its_requester_says_so() {
    let mut network = workspace();
    let [mut ann, mut agent] = join_all(&mut network, ["human:ann", "agent:helper"]);
    let id = request(&mut network, &mut agent, "human:ann", tool_call(json!([])));
    // The helper says it expired to ann, or ann decides, at `at`.
    let says_expired = |network: &mut Network, agent: &mut Peer, at: u64| {
        let expired = json!({"approval": id, "decision": "expired"});
        send_at(network, agent, DECIDED, "human:ann", expired, at)
    };
    let decides = |network: &mut Network, ann: &mut Peer, decision: &str, at: u64| {
        let decided = json!({"approval": id, "decision": decision});
        send_at(network, ann, DECIDED, "agent:helper", decided, at)
    };

    let early = says_expired(&mut network, &mut agent, 11);
    assert_eq!(error_code(&early), ErrorCode::Forbidden);
    let late = decides(&mut network, &mut ann, "approved", 10 + HOUR);
    assert_eq!(error_code(&late), ErrorCode::Timeout);
    let said = says_expired(&mut network, &mut agent, 10 + HOUR);
    assert_eq!(delivered_to(&said), vec!["human:ann".to_owned()]);
    let again = decides(&mut network, &mut ann, "denied", 10 + HOUR);
    assert_eq!(error_code(&again), ErrorCode::AlreadyExists);
}

#[test]
fn bad_requests_get_codes_and_the_connection_goes_on() {
    let mut network = workspace();
    let [_ann, mut agent] = join_all(&mut network, ["human:ann", "agent:helper"]);
    let mut bad = tool_call(json!([]));
    bad["expires_at"] = json!(10 + 8 * 24 * HOUR);
    let mut no_summary = tool_call(json!([]));
    no_summary["action"]["summary"] = json!("  ");
    let mut text_args = tool_call(json!([]));
    text_args["action"]["detail"] = json!("rm -rf");
    for (target, payload) in [
        ("human:ann", bad),
        ("human:ann", no_summary),
        ("human:ann", text_args),
        ("human:ann", tool_call(json!(["human:bob"]))),
        ("agent:broadcast", tool_call(json!(["agent:helper"]))),
        ("human:ann", json!({"action": "yes"})),
    ] {
        let refused = agent.send(&mut network, REQUESTED, target, payload.clone());
        assert_eq!(error_code(&refused), ErrorCode::InvalidRequest, "{payload}");
    }
    let unknown =
        json!({"approval": crate::EventId::from_parts(1, 1).to_string(), "decision": "denied"});
    let refused = agent.broadcast(&mut network, DECIDED, unknown);
    assert_eq!(error_code(&refused), ErrorCode::NotFound);
    request(&mut network, &mut agent, "human:ann", tool_call(json!([])));
}
