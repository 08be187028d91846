//! Asks and answers cross from the network's object to the documents' keeper
//! as JSON: each reads back as written, in the shape the keeper expects, and
//! a host that keeps no documents refuses only syncs.

use super::*;
use serde_json::json;

fn address(text: &str) -> Address {
    text.parse().unwrap()
}

fn request() -> EventId {
    "01J00000000000000000000001".parse().unwrap()
}

fn sync_ask() -> DocumentAsk {
    DocumentAsk {
        now: Timestamp::from(7),
        op: DocumentOp::Sync {
            address: address("resource/file/plan.md"),
            member: address("agent:ann"),
            session: "tab-1".into(),
            sync: "QgA=".into(),
            may_write: false,
            request: request(),
            initial: "draft".into(),
        },
    }
}

#[test]
fn every_ask_reads_back_as_written() {
    let file = address("resource/file/plan.md");
    let asks = [
        DocumentOp::Create {
            address: file.clone(),
            text: Some("hello".into()),
        },
        DocumentOp::Create {
            address: file.clone(),
            text: None,
        },
        DocumentOp::SetText {
            address: file.clone(),
            text: "whole".into(),
            initial: "before".into(),
        },
        DocumentOp::Delete {
            address: file.clone(),
        },
        DocumentOp::Close {
            address: file.clone(),
            member: address("agent:ann"),
            session: "tab-1".into(),
            initial: String::new(),
        },
        DocumentOp::Leave {
            member: address("human:bo"),
        },
    ]
    .into_iter()
    .map(|op| DocumentAsk {
        now: Timestamp::from(3),
        op,
    })
    .chain([sync_ask()]);
    for ask in asks {
        let text = serde_json::to_string(&ask).unwrap();
        let back: DocumentAsk = serde_json::from_str(&text).unwrap();
        assert_eq!(back, ask, "{text}");
    }
}

#[test]
fn a_sync_ask_is_tagged_by_its_op_with_the_members_rights() {
    let wire = serde_json::to_value(sync_ask()).unwrap();
    assert_eq!(
        wire,
        json!({"now": 7, "op": {"op": "sync", "address": "resource/file/plan.md",
            "member": "agent:ann", "session": "tab-1", "sync": "QgA=", "may_write": false,
            "request": "01J00000000000000000000001", "initial": "draft"}})
    );
    // A registration without content leaves `text` out; an op the keeper does not know is refused.
    let create = DocumentOp::Create {
        address: address("resource/context/brief"),
        text: None,
    };
    assert_eq!(
        serde_json::to_value(create).unwrap(),
        json!({"op": "create", "address": "resource/context/brief"})
    );
    let unknown = json!({"now": 1, "op": {"op": "format", "address": "resource/file/a"}});
    assert!(serde_json::from_value::<DocumentAsk>(unknown).is_err());
}

#[test]
fn an_answer_reads_back_as_written_and_an_empty_one_is_an_empty_object() {
    let answer = DocumentAnswer {
        messages: vec![DocumentMessage {
            address: address("resource/file/plan.md"),
            member: address("agent:ann"),
            session: "tab-1".into(),
            sync: None,
            editors: vec![address("agent:ann"), address("human:bo")],
            in_reply_to: Some(request()),
        }],
        texts: vec![DocumentText {
            address: address("resource/file/plan.md"),
            text: "merged".into(),
        }],
        refused: Some(DocumentRefusal {
            member: address("agent:ann"),
            request: request(),
            code: ErrorCode::Forbidden,
            message: "no".into(),
        }),
    };
    let text = serde_json::to_string(&answer).unwrap();
    assert_eq!(
        serde_json::from_str::<DocumentAnswer>(&text).unwrap(),
        answer
    );
    assert_eq!(
        serde_json::to_value(DocumentAnswer::default()).unwrap(),
        json!({})
    );
    assert_eq!(
        serde_json::from_value::<DocumentAnswer>(json!({})).unwrap(),
        DocumentAnswer::default()
    );
}

#[test]
fn a_host_without_documents_refuses_a_sync_and_nothing_else() {
    let refused = DocumentAnswer::unavailable(&sync_ask())
        .refused
        .expect("a sync is refused");
    assert_eq!(refused.member, address("agent:ann"));
    assert_eq!(refused.request, request());
    assert_eq!(refused.rejection().code, ErrorCode::NotSupported);
    let leave = DocumentAsk {
        now: Timestamp::from(1),
        op: DocumentOp::Leave {
            member: address("agent:ann"),
        },
    };
    assert_eq!(
        DocumentAnswer::unavailable(&leave),
        DocumentAnswer::default()
    );
}
