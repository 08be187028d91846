//! The shared documents' fuzz target: any bytes as a peer's Automerge sync
//! message, as a saved document, and as stored rows.

use crate::Timestamp;
use crate::documents::{DocumentRow, Part, TextDocument, decode_sync, encode_sync};
use crate::ids::address::Address;
use crate::replica::{Replica, ReplicaRow, SyncedDocuments};
use automerge::sync::State;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// The text of the document the bytes are received into.
const SHARED_TEXT: &str = "shared text";

/// The actor that wrote [`SHARED_TEXT`] (its genesis and its one edit).
const WRITER: [u8; 16] = [1; 16];

/// The file the stored rows belong to.
const FILE: &str = "resource/file/fuzz.md";

/// Any bytes as a peer's sync message against a document with history:
/// decoding, merging and answering never panic, and the text stays
/// readable — received by a copy that has sent the peer nothing (the core's
/// receive path) and by one that has (Automerge's). The same bytes as a saved
/// document, and as stored rows (a chunk after a sound snapshot, and a
/// snapshot alone) restored into a replica and opened: loading them whole
/// or, when that fails, piece by piece never panics either.
///
/// Returns how many of the paths accepted the bytes (a message a fresh copy
/// applied, a document that loaded, a stored chunk that changed the text).
pub fn document_sync(data: &[u8]) -> usize {
    let mut doc = shared();
    let mut state = State::new();
    let _ = doc.generate_sync_message(&mut state);
    let wire = STANDARD.encode(data);
    let mut accepted = 0;
    if let Ok(message) = decode_sync(&wire) {
        // With nothing sent to this peer yet: the core's own receive path.
        let mut fresh = doc.clone();
        if fresh
            .receive_sync_message(&mut State::new(), message.clone())
            .is_ok()
        {
            accepted += 1;
        }
        let _ = fresh.text();
        // With the history sent: Automerge's path, which trims what was sent.
        let _ = doc.receive_sync_message(&mut state, message);
        if let Some(answer) = doc.generate_sync_message(&mut state) {
            assert!(
                decode_sync(&encode_sync(answer)).is_ok(),
                "our own answer does not decode"
            );
        }
    }
    if let Ok(loaded) = TextDocument::load(data, [2; 16]) {
        accepted += 1;
        let _ = loaded.text();
    }
    let text = doc.text();
    let snapshot = STANDARD.encode(doc.save());
    let stored = [
        (Part::Snapshot(0), snapshot),
        (Part::Chunk(0), wire.clone()),
    ];
    if open_stored(&stored).is_some_and(|opened| opened != text) {
        accepted += 1;
    }
    let _ = open_stored(&[(Part::Snapshot(0), wire)]);
    accepted
}

/// The document the bytes are received into: [`SHARED_TEXT`] written by
/// [`WRITER`] at time 0.
pub(super) fn shared() -> TextDocument {
    let mut doc = TextDocument::with_genesis(WRITER);
    assert!(
        doc.splice(0, 0, SHARED_TEXT, Timestamp::from(0)).is_ok(),
        "the setup's edit"
    );
    doc
}

/// Restores `pieces` as one writer's rows of [`FILE`] and opens it; returns
/// its text.
fn open_stored(pieces: &[(Part, String)]) -> Option<String> {
    let (Ok(address), Ok(me), Ok(network)) = (
        FILE.parse::<Address>(),
        "agent:fuzz".parse(),
        "fuzz".parse(),
    ) else {
        return None;
    };
    let mut replica = Replica::new(me, network, [3; 32]);
    replica.restore(pieces.iter().map(|(part, data)| {
        ReplicaRow::Document(DocumentRow {
            address: address.clone(),
            writer: "w".into(),
            part: *part,
            data: data.clone(),
        })
    }));
    replica.install_documents(SyncedDocuments::boxed());
    let _ = replica.open_document(&address, [4; 16], Timestamp::from(1));
    replica.document_text(&address)
}
