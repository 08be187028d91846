//! The payloads read the exact JSON the web workspace and the npm package
//! send, and write the exact JSON the network wrote before they were types.

use super::agents::{ActivityState, AgentActivity, AgentStop};
use super::approvals::{ApprovalDecision, ApprovalRequest, Decision};
use super::invitations::{InvitationCreated, InvitationNews};
use super::messages::{
    MessageDelegated, MessageDeleted, MessageEdited, MessagePosted, Reaction, Step,
};
use super::presence::{MemberUpdated, PresenceChanged, TypingNotice};
use super::sessions::{Session, SessionCreated, SessionStatus, SessionUpdated};
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::model::membership::Presence;
use crate::model::payloads::Payload;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

const ID: &str = "01J0000000000000000000000A";

fn id() -> EventId {
    ID.parse().unwrap()
}

/// `wire` reads as `expected`, and `expected` writes `wire` back.
fn both_ways<T: Payload + PartialEq + std::fmt::Debug>(wire: Value, expected: &T) {
    assert_eq!(
        &serde_json::from_value::<T>(wire.clone()).unwrap(),
        expected
    );
    assert_eq!(expected.to_json(), wire);
}

fn reads<T: DeserializeOwned>(wire: Value) -> T {
    serde_json::from_value(wire).unwrap()
}

#[test]
fn messages_read_and_write_as_the_web_and_the_sdks_send_them() {
    // The web's composer: content, and attachments when files go with it.
    let posted: MessagePosted = reads(json!({"content": "hi", "attachments": [
        {"resource": "resource/file/attachments/a1/plan.pdf", "name": "plan.pdf",
         "mime": "application/pdf", "size": 3}]}));
    assert_eq!(posted.attachments.len(), 1);
    both_ways(
        json!({"content": "hi"}),
        &MessagePosted {
            content: "hi".into(),
            ..MessagePosted::default()
        },
    );
    // A hosted agent's answer.
    let step = Step::new("search", &json!({"q": "x"}), &Ok(json!("found")));
    both_ways(
        json!({"content": "done", "answers": ID, "failed": true,
               "steps": [{"tool": "search", "arguments": {"q": "x"}, "ok": true, "result": "found"}]}),
        &MessagePosted {
            answers: Some(id()),
            attachments: Vec::new(),
            content: "done".into(),
            failed: true,
            steps: vec![step],
        },
    );
    both_ways(
        json!({"message": ID, "content": "new"}),
        &MessageEdited {
            content: "new".into(),
            message: id(),
        },
    );
    both_ways(json!({"message": ID}), &MessageDeleted { message: id() });
    // The npm package's `delegate`: message, and content and note when known.
    both_ways(
        json!({"message": ID, "content": "q?", "note": "yours"}),
        &MessageDelegated {
            content: Some("q?".into()),
            message: id(),
            note: Some("yours".into()),
        },
    );
    both_ways(
        json!({"message": ID, "emoji": "👍"}),
        &Reaction {
            emoji: "👍".into(),
            message: id(),
        },
    );
    assert!(serde_json::from_value::<MessageDeleted>(json!({"message": "x"})).is_err());
}

#[test]
fn presence_profile_and_typing() {
    let ann = "human:ann".parse().unwrap();
    both_ways(
        json!({"address": "human:ann", "status": "online"}),
        &PresenceChanged::of(ann, Presence::Online),
    );
    let away: PresenceChanged = reads(json!({"address": "agent:eve", "status": "away"}));
    assert_eq!(away.presence(), None);
    let news: MemberUpdated = reads(json!({"address": "agent:a", "profile": {"name": "A"}}));
    assert_eq!(news.profile.name.as_deref(), Some("A"));
    both_ways(json!({}), &TypingNotice {});
}

#[test]
fn agent_activity_and_stop() {
    both_ways(
        json!({"state": "calling_tool", "tool": "search", "message": ID}),
        &AgentActivity {
            tool: Some("search".into()),
            ..AgentActivity::new(id(), ActivityState::CallingTool)
        },
    );
    both_ways(
        json!({"state": "writing", "text": "so far", "message": ID, "thread": ID}),
        &AgentActivity {
            text: Some("so far".into()),
            thread: Some(id()),
            ..AgentActivity::new(id(), ActivityState::Writing)
        },
    );
    for state in ["idle", "thinking", "awaiting_approval"] {
        reads::<AgentActivity>(json!({"state": state, "message": ID}));
    }
    both_ways(json!({"message": ID}), &AgentStop { message: id() });
}

#[test]
fn invitations() {
    // The web's Admin form sends any of the three, the SDKs none.
    let asked: InvitationCreated =
        reads(json!({"invitee": "human:bo", "ttl_ms": 60000, "max_uses": 1}));
    assert_eq!(asked.max_uses, Some(1));
    both_ways(json!({}), &InvitationCreated::default());
    both_ways(
        json!({"invitee": null, "expires_at": 5}),
        &InvitationNews {
            expires_at: Timestamp::from_millis(5),
            invitee: None,
        },
    );
}

#[test]
fn sessions_as_sent_and_as_delivered() {
    // The SDKs' createSession and the web's header form.
    let update: SessionUpdated =
        reads(json!({"session": "channel/session-p", "title": "Plan", "status": "closed"}));
    assert_eq!(update.status, Some(SessionStatus::Closed));
    assert_eq!(update.master, None);
    let cleared: SessionUpdated = reads(json!({"session": "p", "master": null}));
    assert_eq!(cleared.master, Some(None));
    let created = SessionCreated {
        channel: "channel/session-p".into(),
        master: None,
        session: "p".parse().unwrap(),
        status: SessionStatus::Open,
        title: Some("Plan".into()),
    };
    both_ways(
        json!({"session": "p", "channel": "channel/session-p", "status": "open", "master": null, "title": "Plan"}),
        &created,
    );
    let mut session = Session::open("human:ann".parse().unwrap());
    session.apply(&SessionUpdated::from(&created));
    session.apply(&cleared);
    assert_eq!(session.title.as_deref(), Some("Plan"));
    assert!(
        serde_json::from_value::<SessionCreated>(json!({"session": "a b",
        "channel": "c", "status": "open", "master": null}))
        .is_err()
    );
}

#[test]
fn approvals_as_the_sdks_send_them() {
    let request: ApprovalRequest = reads(json!({"approvers": ["human:ann"],
        "action": {"kind": "tool_call", "subject": "deploy", "summary": "Deploy", "detail": {}},
        "expires_at": 10}));
    assert_eq!(request.expires_at, Timestamp::from_millis(10));
    both_ways(
        json!({"approval": ID, "decision": "expired"}),
        &ApprovalDecision {
            approval: id(),
            decision: Decision::Expired,
            edited: None,
            reason: None,
        },
    );
}
