//! Resource exhaustion in shared documents: how many sync
//! sessions one member may hold, and what a sync message may expand to —
//! each refused with a stable code, the document still served afterwards.

use super::*;
use crate::documents::{MAX_DOCUMENT_SESSIONS_PER_MEMBER, MAX_SESSIONS_PER_MEMBER};
use crate::documents::{TextDocument, encode_sync};
use automerge::sync::{self, State};

const FILE: &str = "resource/file/plan.md";

/// A network where agent:owner has registered the file with "draft".
fn with_file() -> (Network, Peer) {
    let (mut network, mut owner) = bare_with("agent:owner");
    let effects = owner.register(&mut network, json!({"address": FILE, "content": "draft"}));
    acked(&effects);
    (network, owner)
}

/// A sync session of a member's copy of one document.
struct Copy {
    doc: TextDocument,
    state: State,
    session: String,
}

impl Copy {
    fn new(session: &str) -> Self {
        Self {
            doc: TextDocument::new([7; 16]),
            state: State::new(),
            session: session.to_owned(),
        }
    }

    /// Sends `message` (else this copy's next one) to the file; returns the effects.
    fn sync(
        &mut self,
        network: &mut Network,
        peer: &mut Peer,
        message: Option<sync::Message>,
    ) -> Vec<Effect> {
        let Some(message) = message.or_else(|| self.doc.generate_sync_message(&mut self.state))
        else {
            return Vec::new();
        };
        let payload = json!({"sync": encode_sync(message), "session": self.session});
        let effects = peer.send(network, "network.resource.update", FILE, payload);
        // Take in what the network answers on this session.
        for reply in effects.iter().filter_map(Effect::reply) {
            if let Some(text) = reply.payload["sync"].as_str() {
                let message = crate::documents::decode_sync(text).unwrap();
                self.doc
                    .receive_sync_message(&mut self.state, message)
                    .unwrap();
            }
        }
        effects
    }

    /// Syncs until the network has nothing more to say.
    fn settle(&mut self, network: &mut Network, peer: &mut Peer) {
        for _ in 0..5 {
            let effects = self.sync(network, peer, None);
            assert!(
                !effects
                    .iter()
                    .filter_map(Effect::reply)
                    .any(|r| r.event_type.as_str() == core_types::EVENT_ERROR),
                "{effects:#?}"
            );
        }
    }
}

fn refused(effects: &[Effect]) -> Option<ErrorCode> {
    effects
        .iter()
        .filter_map(Effect::reply)
        .find(|r| r.event_type.as_str() == core_types::EVENT_ERROR)
        .map(|r| serde_json::from_value(r.payload["code"].clone()).unwrap())
}

#[test]
fn one_member_cannot_hold_all_the_sessions_of_a_document() {
    let (mut network, mut owner) = with_file();
    let mut bob = join(&mut network, "agent:bob");
    let mut copies: Vec<Copy> = (0..=MAX_SESSIONS_PER_MEMBER)
        .map(|n| Copy::new(&format!("tab-{n}")))
        .collect();
    for copy in &mut copies[..MAX_SESSIONS_PER_MEMBER] {
        assert_eq!(refused(&copy.sync(&mut network, &mut bob, None)), None);
    }
    let last = MAX_SESSIONS_PER_MEMBER;
    assert_eq!(
        refused(&copies[last].sync(&mut network, &mut bob, None)),
        Some(ErrorCode::LimitReached)
    );
    // Bob's open sessions go on; others open theirs; a closed one frees a place.
    copies[0].settle(&mut network, &mut bob);
    assert_eq!(copies[0].doc.text(), "draft");
    let mut owners = Copy::new("owner");
    owners.settle(&mut network, &mut owner);
    let close = json!({"close": true, "session": "tab-1"});
    bob.send(&mut network, "network.resource.update", FILE, close);
    assert_eq!(
        refused(&copies[last].sync(&mut network, &mut bob, None)),
        None
    );
}

#[test]
fn one_member_holds_a_bounded_number_of_sessions_over_all_documents() {
    let mut network = bare();
    let [mut owner, mut bob] = join_all(&mut network, ["agent:owner", "agent:bob"]);
    let files = MAX_DOCUMENT_SESSIONS_PER_MEMBER / MAX_SESSIONS_PER_MEMBER + 1;
    let mut opened = 0;
    let mut codes = Vec::new();
    for f in 0..files {
        let address = format!("resource/file/f{f}.md");
        owner.register(&mut network, json!({"address": address}));
        for s in 0..MAX_SESSIONS_PER_MEMBER {
            let mut doc = TextDocument::new([7; 16]);
            let message = doc.generate_sync_message(&mut State::new()).unwrap();
            let payload = json!({"sync": encode_sync(message), "session": format!("s{s}")});
            let effects = bob.send(&mut network, "network.resource.update", &address, payload);
            match refused(&effects) {
                None => opened += 1,
                Some(code) => codes.push(code),
            }
        }
    }
    assert_eq!(opened, MAX_DOCUMENT_SESSIONS_PER_MEMBER);
    assert_eq!(
        codes,
        vec![ErrorCode::LimitReached; MAX_SESSIONS_PER_MEMBER]
    );
}

#[test]
fn a_compression_bomb_is_refused_and_the_document_survives() {
    let (mut network, mut owner) = with_file();
    let mut bob = join(&mut network, "agent:bob");
    // The owner may write: its bomb passes the permission check and meets the bound.
    let mut attacker = Copy::new("bomb");
    let mut message = TextDocument::new([9; 16])
        .generate_sync_message(&mut State::new())
        .unwrap();
    message.changes = vec![crate::documents::expansion::bomb(64 * 1024 * 1024)].into();
    let effects = attacker.sync(&mut network, &mut owner, Some(message));
    assert_eq!(refused(&effects), Some(ErrorCode::TooLarge));
    // The document is as it was, and still edited and read by everyone.
    let mut owners = Copy::new("owner");
    owners.settle(&mut network, &mut owner);
    assert_eq!(owners.doc.text(), "draft");
    owners.doc.splice(5, 0, " two", Timestamp::from(2)).unwrap();
    owners.settle(&mut network, &mut owner);
    let mut readers = Copy::new("reader");
    readers.settle(&mut network, &mut bob);
    assert_eq!(readers.doc.text(), "draft two");
}
