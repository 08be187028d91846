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
    let effects = network.handle_event(Some(&peer.address.clone()), event, 10);
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
    let mut ann = join(&mut network, "human:ann");
    let mut bob = join(&mut network, "agent:bob");
    let mut boss = join(&mut network, "agent:boss"); // a master of the network
    let first = post(&mut network, &mut ann, "helo");

    // Someone else may neither edit nor delete it.
    let edit = json!({"message": first, "content": "hijacked"});
    let refused = bob.send(&mut network, EDITED, "agent:broadcast", edit);
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
    let refused = bob.send(
        &mut network,
        DELETED,
        "agent:broadcast",
        json!({"message": first}),
    );
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
    // Not even a master edits another's words.
    let refused = boss.send(
        &mut network,
        EDITED,
        "agent:broadcast",
        json!({"message": first, "content": "x"}),
    );
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);

    // The author edits it, where it went; everyone sees the change.
    let edited = ann.send(
        &mut network,
        EDITED,
        "agent:broadcast",
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
    let deleted = ann.send(
        &mut network,
        DELETED,
        "agent:broadcast",
        json!({"message": first}),
    );
    assert!(delivered_kind(&deleted, DELETED), "{deleted:#?}");
    let refused = ann.send(
        &mut network,
        EDITED,
        "agent:broadcast",
        json!({"message": first, "content": "back"}),
    );
    assert_eq!(error_code(&refused), ErrorCode::NotFound);

    // A master deletes someone else's message.
    let second = post(&mut network, &mut bob, "spam");
    let removed = boss.send(
        &mut network,
        DELETED,
        "agent:broadcast",
        json!({"message": second}),
    );
    assert!(delivered_kind(&removed, DELETED), "{removed:#?}");
}
