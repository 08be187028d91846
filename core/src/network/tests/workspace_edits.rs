//! `mod/workspace` edits and deletions through the network: the author
//! edits and deletes a message, a master deletes one, anyone else is
//! refused, a change goes where the message went, and a deleted message can
//! no longer be changed.

use super::*;
use crate::EventId;

const POSTED: &str = "workspace.message.posted";
const EDITED: &str = "workspace.message.edited";
const DELETED: &str = "workspace.message.deleted";

fn workspace() -> Network {
    network_with(vec![ModConfig::Workspace(WorkspaceSettings::default())])
}

/// `peer` posts `content` to everyone: the message's id.
fn post(network: &mut Network, peer: &mut Peer, content: &str) -> String {
    let event = peer.event(POSTED, "agent:broadcast", json!({ "content": content }));
    let id = event.id.to_string();
    let effects = network.handle_event(Some(&peer.address.clone()), event, Timestamp::from(10));
    assert!(!delivered_to(&effects).is_empty(), "{effects:#?}");
    id
}

fn delivered_kind(effects: &[Effect], kind: &str) -> bool {
    effects
        .iter()
        .any(|e| matches!(e, Effect::Deliver { event, .. } if event.event_type.as_str() == kind))
}

#[test]
fn only_the_author_edits_and_the_author_or_a_master_deletes() {
    let mut network = workspace();
    let [mut ann, mut bob] = join_all(&mut network, ["human:ann", "agent:bob"]);
    let mut boss = join(&mut network, "agent:boss"); // a master of the network
    let first = post(&mut network, &mut ann, "helo");

    // Someone else may neither edit nor delete it.
    let edit = json!({"message": first, "content": "hijacked"});
    let refused = bob.broadcast(&mut network, EDITED, edit);
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
    let refused = bob.broadcast(&mut network, DELETED, json!({"message": first}));
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
    // Not even a master edits another's words.
    let refused = boss.broadcast(
        &mut network,
        EDITED,
        json!({"message": first, "content": "x"}),
    );
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);

    // The author edits it, where it went; everyone sees the change.
    let edited = ann.broadcast(
        &mut network,
        EDITED,
        json!({"message": first, "content": "hello"}),
    );
    assert!(delivered_kind(&edited, EDITED), "{edited:#?}");
    assert!(delivered_to(&edited).contains(&"agent:bob".to_owned()));

    // Bad changes get codes.
    for (kind, target, payload, code) in [
        (
            EDITED,
            "agent:broadcast",
            json!({"message": first}),
            ErrorCode::InvalidRequest,
        ),
        (
            EDITED,
            "agent:broadcast",
            json!({"message": first, "content": "  "}),
            ErrorCode::InvalidRequest,
        ),
        (
            DELETED,
            "agent:broadcast",
            json!({"message": "nope"}),
            ErrorCode::InvalidRequest,
        ),
        (
            DELETED,
            "agent:bob",
            json!({"message": first}),
            ErrorCode::InvalidRequest,
        ),
        (
            DELETED,
            "agent:broadcast",
            json!({"message": EventId::from_parts(1, 1).to_string()}),
            ErrorCode::NotFound,
        ),
    ] {
        let refused = ann.send(&mut network, kind, target, payload.clone());
        assert_eq!(error_code(&refused), code, "{kind} {target} {payload}");
    }

    // The author deletes it; then nobody changes it any more.
    let deleted = ann.broadcast(&mut network, DELETED, json!({"message": first}));
    assert!(delivered_kind(&deleted, DELETED), "{deleted:#?}");
    let refused = ann.broadcast(
        &mut network,
        EDITED,
        json!({"message": first, "content": "back"}),
    );
    assert_eq!(error_code(&refused), ErrorCode::NotFound);

    // A master deletes someone else's message.
    let second = post(&mut network, &mut bob, "spam");
    let removed = boss.broadcast(&mut network, DELETED, json!({"message": second}));
    assert!(delivered_kind(&removed, DELETED), "{removed:#?}");
}

const NOT_THE_AUTHOR: &str = "only the person who wrote a message may edit it";
const ALREADY_DELETED: &str = "the message was deleted, so it can no longer be changed";

/// The text of the one error reply among `effects`.
fn refusal(effects: &[Effect]) -> String {
    let [Effect::Reply(error)] = effects else {
        panic!("expected one error reply, got {effects:#?}")
    };
    error.payload["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Asserts that `effects` are one refusal with `code` and `message`.
fn assert_refused(effects: &[Effect], code: ErrorCode, message: &str) {
    assert_eq!(error_code(effects), code);
    assert_eq!(refusal(effects), message);
}

#[test]
fn a_message_is_edited_reacted_to_and_deleted_after_the_network_restarts() {
    let host = durable::Durable::default();
    let mods = vec![
        ModConfig::Persistence,
        ModConfig::Workspace(WorkspaceSettings::default()),
    ];
    let mut network = host.network(mods);
    let mut ann = host.join(&mut network, "human:ann");
    let mut bob = host.join(&mut network, "agent:bob");
    let event = ann.event(POSTED, "agent:broadcast", json!({"content": "helo"}));
    let first = event.id.to_string();
    host.applied(network.handle_event(Some(&ann.address.clone()), event, Timestamp::from(10)));

    // The object slept: nothing in memory survives, the log does.
    let mut network = host.restart(&network);
    let edit = json!({"message": first, "content": "hello"});
    let edited = host.applied(ann.broadcast(&mut network, EDITED, edit));
    assert!(delivered_kind(&edited, EDITED), "{edited:#?}");
    let forged = json!({"message": first, "content": "FORGED"});
    let refused = bob.broadcast(&mut network, EDITED, forged);
    assert_refused(&refused, ErrorCode::Forbidden, NOT_THE_AUTHOR);
    let reaction = json!({"message": first, "emoji": "👍"});
    let reacted = host.applied(bob.broadcast(&mut network, "workspace.reaction.added", reaction));
    assert!(
        delivered_kind(&reacted, "workspace.reaction.added"),
        "{reacted:#?}"
    );
    let gone = json!({"message": first});
    let deleted = host.applied(ann.broadcast(&mut network, DELETED, gone));
    assert!(delivered_kind(&deleted, DELETED), "{deleted:#?}");

    // And after another sleep the deletion holds.
    let mut network = host.restart(&network);
    let again = json!({"message": first, "content": "back"});
    let refused = ann.broadcast(&mut network, EDITED, again);
    assert_refused(&refused, ErrorCode::NotFound, ALREADY_DELETED);
    // A message the log never had is refused in words, without its id.
    let unknown = EventId::from_parts(1, 1).to_string();
    let refused = ann.broadcast(&mut network, DELETED, json!({"message": unknown}));
    assert!(!refusal(&refused).contains(&unknown), "{refused:#?}");
}

#[test]
fn without_mod_workspace_nobody_changes_another_s_message() {
    let mut network = bare();
    let [mut ann, mut bob] = join_all(&mut network, ["human:ann", "agent:bob"]);
    let first = post(&mut network, &mut ann, "mine");
    for (kind, payload) in [
        (EDITED, json!({"message": first, "content": "FORGED"})),
        (DELETED, json!({"message": first})),
    ] {
        let refused = bob.broadcast(&mut network, kind, payload);
        assert_eq!(error_code(&refused), ErrorCode::Forbidden, "{kind}");
    }
    let edited = ann.broadcast(
        &mut network,
        EDITED,
        json!({"message": first, "content": "still mine"}),
    );
    assert!(delivered_kind(&edited, EDITED), "{edited:#?}");
}

#[test]
fn the_network_stamps_the_time_and_its_own_marks() {
    let mut network = workspace();
    let mut ann = join(&mut network, "human:ann");
    join(&mut network, "agent:bob");
    let mut event = ann.event("chat.reply", "agent:broadcast", json!({"content": "hi"}));
    event.timestamp = Timestamp::from_millis(978_307_200_000);
    event
        .metadata
        .insert("delegation".into(), json!({"from": "human:boss"}));
    event
        .metadata
        .insert("first_responder".into(), json!("agent:bob"));
    let effects = network.handle_event(
        Some(&ann.address.clone()),
        event,
        Timestamp::from(1_700_000_000_000),
    );
    let delivered = first_delivered(&effects);
    assert_eq!(
        delivered.timestamp,
        Timestamp::from_millis(1_700_000_000_000)
    );
    assert!(delivered.metadata.get("delegation").is_none());
    assert!(delivered.metadata.get("first_responder").is_none());
}
