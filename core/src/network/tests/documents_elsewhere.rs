//! A network that keeps its shared documents elsewhere (as the edge's
//! network object does without Automerge): each document change is one
//! [`Effect::Document`] ask, the network stores no document rows, and the
//! keeper's answer comes back as content, messages and refusals. Compiled
//! with and without the feature `documents`.

use super::*;
use crate::network::documents::ask::*;

const FILE: &str = "resource/file/plan.md";

/// A network kept elsewhere that `agent:owner` and `agent:reader` joined,
/// with the owner's file `FILE` holding "draft" (write stays the owner's).
fn shared() -> (Network, Peer, Peer) {
    let mut network = bare();
    network.keep_documents_elsewhere();
    let [mut owner, reader] = join_all(&mut network, ["agent:owner", "agent:reader"]);
    let effects = owner.register(&mut network, json!({"address": FILE, "content": "draft"}));
    assert_eq!(
        asks(&effects),
        vec![DocumentOp::Create {
            address: addr(FILE),
            text: Some("draft".into()),
        }]
    );
    (network, owner, reader)
}

fn asks(effects: &[Effect]) -> Vec<DocumentOp> {
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Store(Row::Document(_)))),
        "a network kept elsewhere stores no document rows: {effects:#?}"
    );
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Document(ask) => Some(ask.op.clone()),
            _ => None,
        })
        .collect()
}

fn read_content(network: &mut Network, peer: &mut Peer) -> Value {
    let effects = peer.send(network, RESOURCE_READ, FILE, json!({}));
    reply_of_type(&effects, core_types::RESOURCE_READ_RESPONSE).payload["content"].clone()
}

#[test]
fn a_sync_is_asked_of_the_keeper_with_the_senders_right_to_write() {
    let (mut network, mut owner, mut reader) = shared();
    for (peer, may) in [(&mut owner, true), (&mut reader, false)] {
        let event = peer.event(
            RESOURCE_UPDATE,
            FILE,
            json!({"sync": "QgA=", "session": "s1"}),
        );
        let id = event.id;
        let effects = network.handle_event(Some(&peer.address.clone()), event, Timestamp::from(10));
        assert_eq!(
            asks(&effects),
            vec![DocumentOp::Sync {
                address: addr(FILE),
                member: peer.address.clone(),
                session: "s1".into(),
                sync: "QgA=".into(),
                may_write: may,
                request: id,
                initial: "draft".into(),
            }]
        );
        assert!(effects.iter().all(|e| !matches!(e, Effect::Ack(_))));
    }
    // A session the network cannot name is refused before anything is asked.
    let effects = reader.send(
        &mut network,
        RESOURCE_UPDATE,
        FILE,
        json!({"sync": "QgA=", "session": "a b"}),
    );
    assert_eq!(error_code(&effects), ErrorCode::InvalidRequest);
    assert!(asks(&effects).is_empty());
}

#[test]
fn the_keepers_answer_becomes_the_content_its_messages_and_its_refusal() {
    let (mut network, mut owner, mut reader) = shared();
    let request: crate::ids::ulid::EventId = "01J00000000000000000000001".parse().unwrap();
    let answer = DocumentAnswer {
        messages: vec![DocumentMessage {
            address: addr(FILE),
            member: addr("agent:owner"),
            session: "s1".into(),
            sync: Some("QgA=".into()),
            editors: vec![addr("agent:owner")],
            in_reply_to: Some(request),
        }],
        texts: vec![DocumentText {
            address: addr(FILE),
            text: "merged".into(),
        }],
        refused: Some(DocumentRefusal {
            member: addr("agent:reader"),
            request,
            code: ErrorCode::Forbidden,
            message: "agent:reader lacks the write permission".into(),
        }),
    };
    let effects = network.answer_document(answer, Timestamp::from(20));
    assert!(effects.iter().any(|e| matches!(e,
        Effect::Store(Row::Resource(r)) if r.content == Some(json!("merged")))));
    let delivered: Vec<(String, Event)> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Deliver { to, event, .. } => Some((to[0].to_string(), (**event).clone())),
            _ => None,
        })
        .collect();
    let [(refused_to, error), (synced_to, sync)] = &delivered[..] else {
        panic!("a refusal and a message: {delivered:#?}")
    };
    assert_eq!(
        (refused_to.as_str(), error.event_type.as_str()),
        ("agent:reader", core_types::EVENT_ERROR)
    );
    assert_eq!(error.payload["code"], "forbidden");
    assert_eq!(error.metadata["in_reply_to"], json!(request));
    assert_eq!(
        (synced_to.as_str(), sync.event_type.as_str()),
        ("agent:owner", RESOURCE_UPDATE)
    );
    assert_eq!(
        sync.payload,
        json!({"address": FILE, "session": "s1", "sync": "QgA=", "editors": ["agent:owner"]})
    );
    assert_eq!(sync.metadata["in_reply_to"], json!(request));
    // Reads answer with the text the keeper last reported, without asking it.
    assert_eq!(read_content(&mut network, &mut owner), json!("merged"));
    assert_eq!(read_content(&mut network, &mut reader), json!("merged"));
}

#[test]
fn whole_content_updates_removal_and_leaving_are_told_to_the_keeper() {
    let (mut network, mut owner, _reader) = shared();
    let effects = owner.send(
        &mut network,
        RESOURCE_UPDATE,
        FILE,
        json!({"content": "rewritten"}),
    );
    assert_eq!(
        asks(&effects),
        vec![DocumentOp::SetText {
            address: addr(FILE),
            text: "rewritten".into(),
            initial: "draft".into(),
        }]
    );
    assert_eq!(read_content(&mut network, &mut owner), json!("rewritten"));
    let effects = network.disconnect(&addr("agent:reader"), Timestamp::from(30));
    assert_eq!(
        asks(&effects),
        vec![DocumentOp::Leave {
            member: addr("agent:reader"),
        }]
    );
    let effects = owner.ask(
        &mut network,
        "network.resource.unregister",
        json!({"address": FILE}),
    );
    assert_eq!(
        asks(&effects),
        vec![DocumentOp::Delete {
            address: addr(FILE),
        }]
    );
}

#[test]
fn departures_wake_no_keeper_while_the_network_has_no_documents() {
    let mut network = bare();
    network.keep_documents_elsewhere();
    let [mut owner, _reader] = join_all(&mut network, ["agent:owner", "agent:reader"]);
    let effects = network.disconnect(&addr("agent:reader"), Timestamp::from(20));
    assert_eq!(asks(&effects), vec![], "no files or context yet");
    owner.register(&mut network, json!({"address": FILE, "content": "draft"}));
    owner.ask(
        &mut network,
        "network.resource.unregister",
        json!({"address": FILE}),
    );
    let effects = network.disconnect(&addr("agent:owner"), Timestamp::from(30));
    assert_eq!(asks(&effects), vec![], "its only document was removed");
}

#[test]
fn answers_apply_in_order_and_leave_content_that_reads_the_same() {
    let (mut network, mut owner, _reader) = shared();
    let text = |address: &str, text: &str| DocumentText {
        address: addr(address),
        text: text.into(),
    };
    // A sync answered after a whole-content update: its text, then the update's, last wins.
    owner.send(
        &mut network,
        RESOURCE_UPDATE,
        FILE,
        json!({"content": "rewritten"}),
    );
    for changed in ["merged before the rewrite", "rewritten"] {
        let answer = DocumentAnswer {
            texts: vec![text(FILE, changed)],
            ..DocumentAnswer::default()
        };
        network.answer_document(answer, Timestamp::from(20));
    }
    assert_eq!(read_content(&mut network, &mut owner), json!("rewritten"));
    // Structured content stays as registered while the document's text reads the same.
    let brief = "resource/file/brief.json";
    owner.register(
        &mut network,
        json!({"address": brief, "content": {"goal": "ship"}}),
    );
    let pretty = crate::documents::content_text(&json!({"goal": "ship"}));
    let answer = DocumentAnswer {
        texts: vec![text(brief, &pretty)],
        ..DocumentAnswer::default()
    };
    let effects = network.answer_document(answer, Timestamp::from(21));
    assert!(effects.is_empty(), "{effects:#?}");
    let read = owner.send(&mut network, RESOURCE_READ, brief, json!({}));
    let content = &reply_of_type(&read, core_types::RESOURCE_READ_RESPONSE).payload["content"];
    assert_eq!(content, &json!({"goal": "ship"}));
}

/// Without Automerge and without a keeper, a sync is refused, never taken as
/// an update: a member that may only read cannot change content through one.
#[cfg(not(feature = "documents"))]
#[test]
fn a_network_without_a_keeper_refuses_a_sync_even_one_carrying_content() {
    let mut network = bare();
    let [mut owner, mut reader] = join_all(&mut network, ["agent:owner", "agent:reader"]);
    owner.register(&mut network, json!({"address": FILE, "content": "draft"}));
    let effects = reader.send(
        &mut network,
        RESOURCE_UPDATE,
        FILE,
        json!({"sync": "QgA=", "session": "s1", "content": "defaced"}),
    );
    assert_eq!(error_code(&effects), ErrorCode::NotSupported);
    assert_eq!(read_content(&mut network, &mut owner), json!("draft"));
}
