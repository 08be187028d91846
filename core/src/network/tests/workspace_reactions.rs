//! `mod/workspace` reactions through the network: anyone in the conversation
//! reacts to a message and takes the reaction back; a direct message's
//! reactions go between its two people and nobody else's are accepted; a
//! reaction goes where the conversation is; a deleted or unknown message
//! takes none.

use super::*;
use crate::EventId;

const POSTED: &str = "workspace.message.posted";
const DELETED: &str = "workspace.message.deleted";
const ADDED: &str = "workspace.reaction.added";
const REMOVED: &str = "workspace.reaction.removed";

fn workspace() -> Network {
    network_with(vec![ModConfig::Workspace(WorkspaceSettings::default())])
}

/// `peer` posts `content` to `target`: the message's id.
fn post(network: &mut Network, peer: &mut Peer, target: &str, content: &str) -> String {
    let event = peer.event(POSTED, target, json!({ "content": content }));
    let id = event.id.to_string();
    let effects = network.handle_event(Some(&peer.address.clone()), event, Timestamp::from(10));
    assert!(!delivered_to(&effects).is_empty(), "{effects:#?}");
    id
}

fn delivered(effects: &[Effect], kind: &str) -> Vec<String> {
    effects
        .iter()
        .flat_map(|e| match e {
            Effect::Deliver { event, to, .. } if event.event_type.as_str() == kind => {
                to.iter().map(ToString::to_string).collect()
            }
            _ => Vec::new(),
        })
        .collect()
}

#[test]
fn everyone_reacts_to_a_message_to_everyone_and_takes_it_back() {
    let mut network = workspace();
    let [mut ann, mut bob] = join_all(&mut network, ["human:ann", "agent:bob"]);
    let message = post(&mut network, &mut ann, "agent:broadcast", "ship it?");

    let reaction = json!({"message": message, "emoji": "👍"});
    let added = bob.broadcast(&mut network, ADDED, reaction.clone());
    assert!(
        delivered(&added, ADDED).contains(&"human:ann".to_owned()),
        "{added:#?}"
    );
    let removed = bob.broadcast(&mut network, REMOVED, reaction.clone());
    assert!(!delivered(&removed, REMOVED).is_empty(), "{removed:#?}");

    // Bad reactions get codes, and the connection goes on.
    let unknown = EventId::from_parts(1, 1).to_string();
    for (target, payload, code) in [
        (
            "agent:broadcast",
            json!({"message": message}),
            ErrorCode::InvalidRequest,
        ),
        (
            "agent:broadcast",
            json!({"message": message, "emoji": "a b"}),
            ErrorCode::InvalidRequest,
        ),
        (
            "agent:broadcast",
            json!({"message": "nope", "emoji": "👍"}),
            ErrorCode::InvalidRequest,
        ),
        (
            "agent:broadcast",
            json!({"message": unknown, "emoji": "👍"}),
            ErrorCode::NotFound,
        ),
        ("human:ann", reaction.clone(), ErrorCode::InvalidRequest),
    ] {
        let refused = bob.send(&mut network, ADDED, target, payload.clone());
        assert_eq!(error_code(&refused), code, "{target} {payload}");
    }

    // A deleted message takes no more reactions.
    let deleted = ann.broadcast(&mut network, DELETED, json!({"message": message}));
    assert!(!delivered(&deleted, DELETED).is_empty());
    let refused = bob.broadcast(&mut network, ADDED, reaction);
    assert_eq!(error_code(&refused), ErrorCode::NotFound);
}

#[test]
fn a_direct_message_s_reactions_go_between_its_two_people() {
    let mut network = workspace();
    let [mut ann, mut bob, mut eve] =
        join_all(&mut network, ["human:ann", "agent:bob", "agent:eve"]);
    let message = post(&mut network, &mut ann, "agent:bob", "just between us");
    let reaction = json!({"message": message, "emoji": "🎉"});

    // The one it went to reacts to its author; the author to the one it went to.
    let from_bob = bob.send(&mut network, ADDED, "human:ann", reaction.clone());
    assert_eq!(delivered(&from_bob, ADDED), vec!["human:ann".to_owned()]);
    let from_ann = ann.send(&mut network, ADDED, "agent:bob", reaction.clone());
    assert_eq!(delivered(&from_ann, ADDED), vec!["agent:bob".to_owned()]);
    // Either way round is the only way.
    let refused = bob.broadcast(&mut network, ADDED, reaction.clone());
    assert_eq!(error_code(&refused), ErrorCode::InvalidRequest);
    // A third never learns of it through a reaction.
    let refused = eve.send(&mut network, ADDED, "human:ann", reaction);
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
}
