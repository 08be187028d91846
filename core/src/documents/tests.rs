//! The text document, its sync and its rows.

use super::*;
use crate::Timestamp;
use crate::ids::address::Address;
use automerge::sync::State;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

fn actor(n: u8) -> [u8; 16] {
    [n; 16]
}

/// Runs the sync protocol between two documents until neither has anything to say.
fn sync_pair(a: &mut TextDocument, b: &mut TextDocument) -> usize {
    let (mut a_state, mut b_state) = (State::new(), State::new());
    sync_states(a, &mut a_state, b, &mut b_state)
}

/// A copy with nothing yet (typed by `actor(2)`) says hello to `full`: the
/// copy, `full`'s and the copy's sync states, and `full`'s answer.
fn hello_from_an_empty_copy(
    full: &mut TextDocument,
) -> (TextDocument, (State, State), automerge::sync::Message) {
    let mut fresh = TextDocument::new(actor(2));
    let (mut full_state, mut fresh_state) = (State::new(), State::new());
    let hello = fresh.generate_sync_message(&mut fresh_state).unwrap();
    full.receive_sync_message(&mut full_state, hello).unwrap();
    let answer = full.generate_sync_message(&mut full_state).unwrap();
    (fresh, (full_state, fresh_state), answer)
}

/// [`sync_pair`] from the sync states the two already hold; returns the rounds.
fn sync_states(
    a: &mut TextDocument,
    a_state: &mut State,
    b: &mut TextDocument,
    b_state: &mut State,
) -> usize {
    let mut rounds = 0;
    loop {
        let to_b = a.generate_sync_message(a_state);
        let to_a = b.generate_sync_message(b_state);
        if to_b.is_none() && to_a.is_none() {
            return rounds;
        }
        if let Some(m) = to_b {
            let m = decode_sync(&encode_sync(m)).unwrap();
            b.receive_sync_message(b_state, m).unwrap();
        }
        if let Some(m) = to_a {
            a.receive_sync_message(a_state, m).unwrap();
        }
        rounds += 1;
        assert!(rounds < 20, "sync did not settle");
    }
}

/// A document typed by `actor(n)`: `edits` changes appending "0 1 2 …".
fn numbered(n: u8, edits: usize) -> TextDocument {
    let mut doc = TextDocument::new(actor(n));
    for i in 0..edits {
        doc.splice(doc.len(), 0, &format!("{i} "), Timestamp::from(0))
            .unwrap();
    }
    doc
}

#[test]
fn the_genesis_text_id_names_the_genesis_actor() {
    assert_eq!(
        super::text::GENESIS_TEXT,
        format!("1@{}", crate::crypto::to_hex(&super::text::GENESIS_ACTOR))
    );
}

#[test]
fn splice_and_set_text_edit_in_utf16_units() {
    let mut doc = TextDocument::new(actor(1));
    assert_eq!(doc.text(), "");
    doc.splice(0, 0, "héllo 🌍", Timestamp::from(1_000))
        .unwrap();
    // 🌍 is two UTF-16 units, as in JavaScript.
    assert_eq!(doc.len(), 8);
    doc.splice(6, 2, "world", Timestamp::from(2_000)).unwrap();
    assert_eq!(doc.text(), "héllo world");
    doc.set_text("hello, world!", Timestamp::from(3_000))
        .unwrap();
    assert_eq!(doc.text(), "hello, world!");
}

#[test]
fn an_edit_past_the_end_is_refused_and_changes_nothing() {
    let mut doc = TextDocument::new(actor(1));
    doc.splice(0, 0, "abc", Timestamp::from(0)).unwrap();
    let error = doc.splice(2, 5, "x", Timestamp::from(0)).unwrap_err();
    assert_eq!(
        error,
        DocumentError::OutOfRange {
            index: 2,
            delete: 5,
            length: 3
        }
    );
    assert!(doc.splice(usize::MAX, 1, "", Timestamp::from(0)).is_err());
    assert_eq!(doc.text(), "abc");
}

#[test]
fn documents_created_apart_merge_both_edits() {
    // Both start from the shared genesis, so neither text replaces the other.
    let mut a = TextDocument::new(actor(1));
    let mut b = TextDocument::new(actor(2));
    a.splice(0, 0, "alpha ", Timestamp::from(0)).unwrap();
    b.splice(0, 0, "beta", Timestamp::from(0)).unwrap();
    sync_pair(&mut a, &mut b);
    assert_eq!(a.text(), b.text());
    assert!(a.text().contains("alpha ") && a.text().contains("beta"));
    assert_eq!(a.heads(), b.heads());
}

#[test]
fn a_copy_with_nothing_receives_the_whole_document_in_one_message() {
    let mut full = numbered(1, 500);
    let (mut empty, (mut full_state, mut empty_state), answer) =
        hello_from_an_empty_copy(&mut full);
    // One compressed document, not 500 changes, and no Bloom filter of
    // what `full` has: the copy is about to have all of it.
    assert_eq!(answer.changes.len(), 1);
    assert!(answer.have.is_empty());
    assert!(
        empty
            .receive_sync_message(&mut empty_state, answer)
            .unwrap()
    );
    assert_eq!(empty.text(), full.text());
    // The copy asks for nothing more, and the two go on editing and merging.
    let reply = empty.generate_sync_message(&mut empty_state).unwrap();
    assert!(reply.changes.is_empty() && reply.need.is_empty());
    full.receive_sync_message(&mut full_state, reply).unwrap();
    assert!(full.generate_sync_message(&mut full_state).is_none());
    full.splice(0, 0, "A", Timestamp::from(0)).unwrap();
    empty
        .splice(empty.len(), 0, "Z", Timestamp::from(0))
        .unwrap();
    sync_pair(&mut full, &mut empty);
    assert_eq!(empty.text(), full.text());
    assert!(full.text().starts_with('A') && full.text().ends_with('Z'));
}

#[test]
fn edits_made_while_the_whole_document_is_on_its_way_still_merge_at_once() {
    let mut network = numbered(1, 300);
    let (mut fresh, (mut n_state, mut f_state), whole) = hello_from_an_empty_copy(&mut network);
    assert!(whole.have.is_empty());
    // Fifty edits typed before the document arrives.
    for i in 0..50 {
        fresh
            .splice(0, 0, &format!("t{i}"), Timestamp::from(0))
            .unwrap();
    }
    fresh.receive_sync_message(&mut f_state, whole).unwrap();
    let rounds = sync_states(&mut network, &mut n_state, &mut fresh, &mut f_state);
    assert_eq!(network.text(), fresh.text());
    assert!(network.text().starts_with("t49") && network.text().contains("299 "));
    // Two exchanges more than with the Bloom filter sent (2), not one per edit.
    assert!(rounds <= 4, "{rounds} rounds");
}

#[test]
fn a_copy_holding_changes_of_its_own_still_learns_what_the_other_has() {
    let mut network = numbered(1, 300);
    let mut member = TextDocument::new(actor(2));
    sync_pair(&mut network, &mut member);
    // Apart: each writes a lot the other lacks, then they meet with fresh states.
    for i in 0..300 {
        network
            .splice(0, 0, &format!("n{i}"), Timestamp::from(0))
            .unwrap();
        member
            .splice(member.len(), 0, &format!("m{i}"), Timestamp::from(0))
            .unwrap();
    }
    let (mut n_state, mut m_state) = (State::new(), State::new());
    let hello = member.generate_sync_message(&mut m_state).unwrap();
    network.receive_sync_message(&mut n_state, hello).unwrap();
    let answer = network.generate_sync_message(&mut n_state).unwrap();
    assert!(
        !answer.have.is_empty(),
        "a peer with a copy gets the Bloom filter"
    );
    sync_pair(&mut network, &mut member);
    assert_eq!(network.text(), member.text());
    assert!(network.text().contains("n299") && network.text().contains("m299"));
}

#[test]
fn bad_sync_messages_and_documents_are_errors_not_panics() {
    assert!(matches!(
        decode_sync("not base64!"),
        Err(DocumentError::InvalidMessage(_))
    ));
    assert!(matches!(
        decode_sync("AAAA"),
        Err(DocumentError::InvalidMessage(_))
    ));
    assert!(!carries_changes("AAAA"));
    let garbage = TextDocument::load(b"garbage", actor(1));
    assert_eq!(garbage.map(|d| d.text()).unwrap_or_default(), "");
    let mut doc = TextDocument::new(actor(1));
    let mut state = State::new();
    let mut bytes = {
        let mut other = TextDocument::new(actor(2));
        other.splice(0, 0, "x", Timestamp::from(0)).unwrap();
        let mut s = State::new();
        let _ = other.generate_sync_message(&mut s);
        other.save()
    };
    bytes.truncate(bytes.len() / 2);
    // A truncated document loads what it can (here nothing), without panicking.
    let _ = doc.load_incremental(&bytes);
    assert!(
        decode_sync(&base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            [0x42, 0xff]
        ))
        .is_err()
    );
    assert_eq!(doc.text(), "");
    let _ = doc.generate_sync_message(&mut state);
}

#[test]
fn a_hostile_root_text_does_not_replace_the_genesis_text() {
    use automerge::transaction::Transactable;
    let mut good = TextDocument::new(actor(1));
    good.splice(0, 0, "kept", Timestamp::from(0)).unwrap();
    let mut evil = good.clone();
    evil.doc.set_actor(automerge::ActorId::from([0xff; 16]));
    evil.doc
        .put(automerge::ROOT, "text", "overwritten")
        .unwrap();
    sync_pair(&mut good, &mut evil);
    assert_eq!(good.text(), "kept");
}

#[test]
fn rewinding_drops_changes_the_other_side_lacks() {
    let mut network = TextDocument::new(actor(1));
    network.splice(0, 0, "shared", Timestamp::from(0)).unwrap();
    let mut member = TextDocument::new(actor(2));
    sync_pair(&mut network, &mut member);
    let shared = member.heads();
    member.splice(0, 0, "refused ", Timestamp::from(0)).unwrap();
    member.rewind(&shared, actor(3));
    assert_eq!(member.text(), "shared");
    member.splice(6, 0, "!", Timestamp::from(0)).unwrap();
    sync_pair(&mut network, &mut member);
    assert_eq!(network.text(), "shared!");
}

fn load_rows(rows: &BTreeMap<String, DocumentRow>, actor_id: u8) -> TextDocument {
    let mut loader = Loader::default();
    for row in rows.values() {
        loader.add(row);
    }
    let address: Address = "resource/file/any".parse().unwrap();
    loader.load(&address, "reader", actor(actor_id)).0
}

use std::collections::BTreeMap;

fn apply(rows: &mut BTreeMap<String, DocumentRow>, address: &Address, writes: Writes) {
    for (writer, part) in writes.remove {
        rows.remove(&DocumentRow::key_of(address, &writer, part));
    }
    for row in writes.store {
        assert!(
            row.data.len() < 2 * 1024 * 1024,
            "a row over the 2 MB limit"
        );
        rows.insert(row.key(), row);
    }
}

#[test]
fn rows_hold_snapshot_and_chunks_and_compact_when_chunks_outgrow_it() {
    let address: Address = "resource/file/notes.md".parse().unwrap();
    let mut doc = TextDocument::new(actor(1));
    doc.splice(0, 0, "start", Timestamp::from(0)).unwrap();
    let (mut persistence, writes) = Persistence::initial_with_limit(&address, "w", &mut doc, 8192);
    let mut rows = BTreeMap::new();
    apply(&mut rows, &address, writes);
    assert_eq!(rows.len(), 1);
    let mut saw_chunks = false;
    let mut compactions = 0;
    for i in 0..1_000 {
        doc.splice(doc.len(), 0, &format!(" {i}"), Timestamp::from(0))
            .unwrap();
        let writes = persistence.after_change(&address, &mut doc);
        if !writes.remove.is_empty() {
            compactions += 1;
        }
        apply(&mut rows, &address, writes);
        saw_chunks |= rows.keys().any(|k| k.contains("#c"));
    }
    assert!(saw_chunks && compactions > 0);
    assert_eq!(load_rows(&rows, 2).text(), doc.text());
    // Deleting the document removes every row it has.
    for (writer, part) in persistence.pieces() {
        rows.remove(&DocumentRow::key_of(&address, &writer, part));
    }
    assert!(rows.is_empty());
}

/// A document stored as a snapshot and then one chunk per edit (" 0", " 1", …).
fn snapshot_and_chunks(edits: usize) -> (Address, BTreeMap<String, DocumentRow>, Vec<String>) {
    let address: Address = "resource/file/typed.md".parse().unwrap();
    let mut doc = TextDocument::new(actor(1));
    doc.splice(0, 0, "start", Timestamp::from(0)).unwrap();
    let (mut persistence, writes) = Persistence::initial(&address, "w", &mut doc);
    let mut rows = BTreeMap::new();
    apply(&mut rows, &address, writes);
    let mut texts = vec![doc.text()];
    for i in 0..edits {
        doc.splice(doc.len(), 0, &format!(" {i}"), Timestamp::from(0))
            .unwrap();
        let writes = persistence.after_change(&address, &mut doc);
        assert!(writes.remove.is_empty(), "no compaction yet");
        apply(&mut rows, &address, writes);
        texts.push(doc.text());
    }
    (address, rows, texts)
}

/// The bytes of `snapshot_and_chunks`' rows as a loader joins them: snapshot, then chunks in order.
fn stored_in_order(
    address: &Address,
    rows: &BTreeMap<String, DocumentRow>,
    chunks: u32,
) -> Vec<u8> {
    std::iter::once(Part::Snapshot(0))
        .chain((0..chunks).map(Part::Chunk))
        .flat_map(|part| {
            let row = &rows[&DocumentRow::key_of(address, "w", part)];
            STANDARD.decode(&row.data).unwrap()
        })
        .collect()
}

#[test]
fn stored_pieces_load_in_one_pass_and_a_damaged_chunk_costs_only_what_follows_it() {
    let (address, mut rows, texts) = snapshot_and_chunks(30);
    assert_eq!(rows.len(), 31);
    let whole = stored_in_order(&address, &rows, 30);
    let at_once = TextDocument::load_whole(&whole, actor(2)).unwrap();
    assert_eq!(at_once.text(), texts[30]);
    assert_eq!(load_rows(&rows, 2).text(), texts[30]);
    // Chunk 12 damaged: one pass is refused, and piece by piece the document
    // keeps everything before it (what follows depends on it).
    let damaged = DocumentRow::key_of(&address, "w", Part::Chunk(12));
    rows.get_mut(&damaged).unwrap().data = STANDARD.encode(b"not automerge");
    let whole = stored_in_order(&address, &rows, 30);
    assert!(TextDocument::load_whole(&whole, actor(2)).is_err());
    assert_eq!(load_rows(&rows, 2).text(), texts[12]);
}

#[test]
fn a_snapshot_larger_than_a_row_is_split_and_reassembled() {
    let address: Address = "resource/file/big.txt".parse().unwrap();
    let mut doc = TextDocument::new(actor(1));
    // Incompressible text, so the snapshot really exceeds one part.
    let mut x: u64 = 88172645463325252;
    let text: String = (0..20_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            char::from(b'!' + (x % 90) as u8)
        })
        .collect();
    doc.splice(0, 0, &text, Timestamp::from(0)).unwrap();
    let (_, writes) = Persistence::initial_with_limit(&address, "w", &mut doc, 4096);
    assert!(writes.store.len() > 3);
    let mut rows = BTreeMap::new();
    apply(&mut rows, &address, writes);
    assert_eq!(load_rows(&rows, 2).text(), text);
}

#[test]
fn copies_sharing_one_store_keep_their_own_rows_and_a_loader_takes_them_over() {
    // Two tabs of one browser share IndexedDB: each edits offline, both store rows.
    let address: Address = "resource/file/shared.md".parse().unwrap();
    let mut rows = BTreeMap::new();
    let mut tab_a = TextDocument::new(actor(1));
    let mut tab_b = TextDocument::new(actor(2));
    let (mut pa, writes) = Persistence::initial(&address, "aaaa", &mut tab_a);
    apply(&mut rows, &address, writes);
    let (mut pb, writes) = Persistence::initial(&address, "bbbb", &mut tab_b);
    apply(&mut rows, &address, writes);
    for i in 0..50 {
        tab_a
            .splice(tab_a.len(), 0, &format!("a{i} "), Timestamp::from(0))
            .unwrap();
        apply(&mut rows, &address, pa.after_change(&address, &mut tab_a));
        tab_b
            .splice(0, 0, &format!("b{i} "), Timestamp::from(0))
            .unwrap();
        apply(&mut rows, &address, pb.after_change(&address, &mut tab_b));
    }
    apply(&mut rows, &address, pa.compact(&address, &mut tab_a));
    // A reload merges both tabs' edits, then keeps them under its own writer only.
    let mut loader = Loader::default();
    for row in rows.values() {
        loader.add(row);
    }
    let (mut merged, _, writes) = loader.load(&address, "cccc", actor(3));
    for i in 0..50 {
        assert!(
            merged.text().contains(&format!("a{i} ")) && merged.text().contains(&format!("b{i} "))
        );
    }
    apply(&mut rows, &address, writes);
    assert!(
        rows.values().all(|r| r.writer == "cccc"),
        "the other writers' rows are gone"
    );
    assert_eq!(load_rows(&rows, 4).text(), merged.text());
    merged.splice(0, 0, "!", Timestamp::from(0)).unwrap();
}

/// Crashers found by `cargo fuzz run document_sync`, kept as regression tests.
#[test]
fn fuzz_crashers_are_refused_not_panics() {
    use base64::Engine as _;
    let crashers: [&[u8]; 1] = [
        // A Bloom filter with one entry and zero bits per entry: Automerge divides by zero.
        &[
            0x43, 0x00, 0x00, 0x01, 0x00, 0x04, 0xb5, 0x01, 0x00, 0x00, 0x00,
        ],
    ];
    for bytes in crashers {
        let wire = base64::engine::general_purpose::STANDARD.encode(bytes);
        let mut doc = TextDocument::with_genesis(actor(1));
        doc.splice(0, 0, "shared text", Timestamp::from(0)).unwrap();
        let mut state = State::new();
        let _ = doc.generate_sync_message(&mut state);
        if let Ok(message) = decode_sync(&wire) {
            let _ = doc.receive_sync_message(&mut state, message);
            let _ = doc.generate_sync_message(&mut state);
        }
        assert_eq!(doc.text(), "shared text");
    }
}

#[test]
fn a_loaded_document_saves_only_what_came_after_the_load() {
    let address: Address = "resource/file/loaded.md".parse().unwrap();
    let mut doc = numbered(1, 200);
    let (_, writes) = Persistence::initial(&address, "w", &mut doc);
    let mut rows = BTreeMap::new();
    apply(&mut rows, &address, writes);
    let mut loaded = load_rows(&rows, 2);
    // Nothing was re-encoded: the 200 stored changes are not "new".
    assert!(loaded.save_incremental().is_empty());
    let mut from_snapshot = TextDocument::load(&doc.save(), actor(4)).unwrap();
    assert!(from_snapshot.save_incremental().is_empty());
    loaded.splice(0, 0, "x", Timestamp::from(0)).unwrap();
    let chunk = loaded.save_incremental();
    assert!(
        !chunk.is_empty() && chunk.len() < 200,
        "{} bytes",
        chunk.len()
    );
    let reloaded = TextDocument::load(&loaded.save(), actor(3)).unwrap();
    assert_eq!(reloaded.text(), loaded.text());
}

#[test]
fn a_document_received_whole_is_stored_as_one_snapshot() {
    let address: Address = "resource/file/received.md".parse().unwrap();
    let mut source = numbered(1, 200);
    let mut copy = TextDocument::new(actor(2));
    let (mut persistence, writes) = Persistence::initial(&address, "w", &mut copy);
    let mut rows = BTreeMap::new();
    apply(&mut rows, &address, writes);
    sync_pair(&mut source, &mut copy);
    assert!(copy.never_saved());
    let writes = persistence.after_change(&address, &mut copy);
    apply(&mut rows, &address, writes);
    assert!(!copy.never_saved());
    assert_eq!(
        rows.len(),
        1,
        "one snapshot row, no chunks: {:?}",
        rows.keys()
    );
    assert!(rows.keys().all(|k| !k.contains("#c")));
    assert_eq!(load_rows(&rows, 3).text(), source.text());
}
