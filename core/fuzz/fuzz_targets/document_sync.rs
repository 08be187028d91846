//! Any bytes as a peer's Automerge sync message (or saved document) against a
//! document with history: decoding, merging and answering never panic, and
//! the text stays readable — received by a copy that has sent the peer
//! nothing (the core's receive path) and by one that has (Automerge's). The
//! same bytes as stored rows (a stored chunk after a sound snapshot, and a
//! snapshot alone) restored into a replica and opened: loading them whole or,
//! when that fails, piece by piece never panics either.
#![no_main]

use agentnet_core::documents::{DocumentRow, Part, TextDocument, decode_sync, encode_sync};
use agentnet_core::replica::{Replica, ReplicaRow};
use automerge::sync::State;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut doc = TextDocument::with_genesis([1; 16]);
    doc.splice(0, 0, "shared text", 0).unwrap();
    let mut state = State::new();
    let _ = doc.generate_sync_message(&mut state);
    let wire = base64_encode(data);
    if let Ok(message) = decode_sync(&wire) {
        // With nothing sent to this peer yet: the core's own receive path.
        let mut fresh = doc.clone();
        let _ = fresh.receive_sync_message(&mut State::new(), message.clone());
        let _ = fresh.text();
        // With the history sent: Automerge's path, which trims what was sent.
        let _ = doc.receive_sync_message(&mut state, message);
        if let Some(answer) = doc.generate_sync_message(&mut state) {
            let _ = decode_sync(&encode_sync(answer));
        }
    }
    let _ = TextDocument::load(data, [2; 16]).map(|d| d.text());
    let _ = doc.text();
    let snapshot = base64_encode(&doc.save());
    open_stored(&[
        (Part::Snapshot(0), snapshot),
        (Part::Chunk(0), wire.clone()),
    ]);
    open_stored(&[(Part::Snapshot(0), wire)]);
});

/// Restores `pieces` as one writer's rows of a file and opens it.
fn open_stored(pieces: &[(Part, String)]) {
    let address = "resource/file/fuzz.md".parse().unwrap();
    let mut replica = Replica::new(
        "agent:fuzz".parse().unwrap(),
        "fuzz".parse().unwrap(),
        [3; 32],
    );
    let rows: Vec<ReplicaRow> = pieces
        .iter()
        .map(|(part, data)| {
            ReplicaRow::Document(DocumentRow {
                address: "resource/file/fuzz.md".parse().unwrap(),
                writer: "w".into(),
                part: *part,
                data: data.clone(),
            })
        })
        .collect();
    replica.restore(rows);
    let _ = replica.open_document(&address, [4; 16], 1);
    let _ = replica.document_text(&address);
}

fn base64_encode(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
