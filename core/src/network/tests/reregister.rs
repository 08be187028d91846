//! Registering a file again (an agent's restart) keeps the
//! shared document and everyone's edits in it; only `replace: true` changes
//! its text, and then as an edit in the same document's history.

use super::*;
use crate::documents::{TextDocument, decode_sync, encode_sync};
use automerge::sync::{self, State};

const FILE: &str = "resource/file/notes.md";

/// A member's copy of the file, synced through the network.
struct Copy {
    doc: TextDocument,
    state: State,
}

impl Copy {
    /// Takes in the sync messages `effects` deliver to `member`.
    fn take(&mut self, effects: &[Effect], member: &str) {
        for effect in effects {
            let Effect::Deliver { to, event, .. } = effect else {
                continue;
            };
            if !to.contains(&addr(member)) {
                continue;
            }
            if let Some(text) = event.payload["sync"].as_str() {
                let message: sync::Message = decode_sync(text).unwrap();
                self.doc
                    .receive_sync_message(&mut self.state, message)
                    .unwrap();
            }
        }
    }

    /// Exchanges sync messages with the network until neither side has more.
    fn settle(&mut self, network: &mut Network, peer: &mut Peer) {
        for _ in 0..6 {
            let Some(message) = self.doc.generate_sync_message(&mut self.state) else {
                continue;
            };
            let payload = json!({"sync": encode_sync(message), "session": "s1"});
            let effects = peer.send(network, "network.resource.update", FILE, payload);
            for reply in effects.iter().filter_map(Effect::reply) {
                assert_ne!(
                    reply.event_type.as_str(),
                    core_types::EVENT_ERROR,
                    "{reply:?}"
                );
                if let Some(text) = reply.payload["sync"].as_str() {
                    let message: sync::Message = decode_sync(text).unwrap();
                    self.doc
                        .receive_sync_message(&mut self.state, message)
                        .unwrap();
                }
            }
        }
    }
}

fn read(network: &mut Network, peer: &mut Peer) -> String {
    let effects = peer.send(network, "network.resource.read", FILE, json!({}));
    let reply = effects.iter().find_map(Effect::reply).unwrap();
    reply.payload["content"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn register(network: &mut Network, owner: &mut Peer, payload: Value) -> Vec<Effect> {
    let mut payload = payload;
    payload["address"] = json!(FILE);
    payload["permissions"] = json!({"write": "network"});
    owner.register(network, payload)
}

fn document_rows(effects: &[Effect]) -> usize {
    effects
        .iter()
        .filter(|e| matches!(e, Effect::Store(Row::Document(_))))
        .count()
}

#[test]
fn registering_a_file_again_keeps_a_collaborators_edit() {
    let mut network = network_with(vec![ModConfig::AccessControl]);
    let [mut owner, mut collab] = join_all(&mut network, ["agent:owner", "agent:collab"]);
    acked(&register(
        &mut network,
        &mut owner,
        json!({"content": "# Notes\n"}),
    ));

    let mut copy = Copy {
        doc: TextDocument::new([5; 16]),
        state: State::new(),
    };
    copy.settle(&mut network, &mut collab);
    assert_eq!(copy.doc.text(), "# Notes\n");
    let end = copy.doc.len();
    copy.doc
        .splice(end, 0, "- collab line\n", Timestamp::from(2_000))
        .unwrap();
    copy.settle(&mut network, &mut collab);
    let edited = "# Notes\n- collab line\n";
    assert_eq!(read(&mut network, &mut owner), edited);

    // The owner restarts and registers its file again, with the same text.
    let again = register(&mut network, &mut owner, json!({"content": "# Notes\n"}));
    assert_eq!(acked(&again).payload["kept"], json!(true));
    assert_eq!(document_rows(&again), 0, "no change to the document");
    assert_eq!(read(&mut network, &mut owner), edited);
    // Other text without `replace` is no edit either.
    let other = register(&mut network, &mut owner, json!({"content": "# Other\n"}));
    assert_eq!(acked(&other).payload["kept"], json!(true));
    assert_eq!(read(&mut network, &mut owner), edited);

    // `replace: true` is explicit: an edit in the same document's history,
    // which the collaborator's copy takes as such.
    let replaced = register(
        &mut network,
        &mut owner,
        json!({"content": "# Fresh\n", "replace": true}),
    );
    assert!(acked(&replaced).payload.get("kept").is_none());
    assert_eq!(read(&mut network, &mut owner), "# Fresh\n");
    copy.take(&replaced, "agent:collab");
    copy.settle(&mut network, &mut collab);
    assert_eq!(copy.doc.text(), "# Fresh\n");
}

#[test]
fn structured_context_registered_again_keeps_its_value_unless_replaced() {
    let (mut network, mut owner) = bare_with("agent:owner");
    let ctx = "resource/context/settings";
    acked(&owner.register(&mut network, json!({"address": ctx, "content": {"v": 1}})));
    acked(&owner.register(&mut network, json!({"address": ctx, "content": {"v": 2}})));
    let address = addr(ctx);
    assert_eq!(
        network.state().resources[&address].content,
        Some(json!({"v": 1}))
    );
    let payload = json!({"address": ctx, "content": {"v": 3}, "replace": true});
    acked(&owner.register(&mut network, payload));
    assert_eq!(
        network.state().resources[&address].content,
        Some(json!({"v": 3}))
    );
}
