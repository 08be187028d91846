//! Shared-document figures (a bench script that prints them; run with
//! `cargo bench -p agentnet-core --features documents --bench documents`):
//!
//! * initial sync of a document with 100,000 edits to an empty replica —
//!   every message of the sync protocol, encoded, base64'd and decoded as on
//!   the wire, until both sides have nothing more to say — and the replica
//!   storing its new copy;
//! * two up-to-date replicas agreeing again after one edit;
//! * loading the stored rows of that document (what a reload does).
//!
//! Each figure is the median of several runs.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use agentnet_core::Timestamp;
use agentnet_core::documents::{TextDocument, decode_sync, encode_sync};
use automerge::sync::State;
use std::time::{Duration, Instant};

const EDITS: usize = 100_000;

/// Sends `from`'s next sync message, if it has one, to `to` through the wire
/// encoding; the message's size on the wire.
fn send_one(
    from: &mut TextDocument,
    from_state: &mut State,
    to: &mut TextDocument,
    to_state: &mut State,
) -> Option<usize> {
    let wire = encode_sync(from.generate_sync_message(from_state)?);
    to.receive_sync_message(to_state, decode_sync(&wire).unwrap())
        .unwrap();
    Some(wire.len())
}

/// Runs the protocol between `a` and `b` until quiet; returns messages and bytes exchanged.
fn sync(
    a: &mut TextDocument,
    a_state: &mut State,
    b: &mut TextDocument,
    b_state: &mut State,
) -> (usize, usize) {
    let (mut messages, mut bytes) = (0, 0);
    loop {
        let sent = [
            send_one(a, a_state, b, b_state),
            send_one(b, b_state, a, a_state),
        ];
        if sent.iter().all(Option::is_none) {
            return (messages, bytes);
        }
        for size in sent.into_iter().flatten() {
            messages += 1;
            bytes += size;
        }
    }
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

/// Prints how long `what` took (the median of `times`), and the messages
/// and bytes the last of its syncs sent (`wire`).
fn report_sync(what: &str, times: Vec<Duration>, (messages, bytes): (usize, usize)) {
    let runs = times.len();
    println!(
        "{what}: {:.2?} median of {runs} ({messages} messages, {bytes} bytes on the wire)",
        median(times)
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let edits = if quick { 1_000 } else { EDITS };
    let started = Instant::now();
    let mut full = TextDocument::new([1; 16]);
    for i in 0..edits {
        // Typing: one character per change, with an occasional deletion.
        let len = full.len();
        if i % 10 == 9 {
            full.splice(len - 1, 1, "", Timestamp::from(i as u64))
                .unwrap();
        } else {
            let c = char::from(b'a' + (i % 26) as u8).to_string();
            full.splice(len, 0, &c, Timestamp::from(i as u64)).unwrap();
        }
    }
    let saved = full.save();
    println!(
        "document: {edits} edits, {} characters, saved {} bytes (built in {:.1?})",
        full.len(),
        saved.len(),
        started.elapsed()
    );

    let runs = if quick { 1 } else { 5 };
    let mut initial = Vec::new();
    let mut wire = (0, 0);
    for _ in 0..runs {
        let mut source = full.clone();
        let mut empty = TextDocument::new([2; 16]);
        let (mut s, mut e) = (State::new(), State::new());
        let t = Instant::now();
        wire = sync(&mut empty, &mut e, &mut source, &mut s);
        // What a replica does next: store its new copy (as one snapshot).
        assert!(empty.never_saved());
        empty.save();
        initial.push(t.elapsed());
        assert_eq!(empty.text(), source.text());
    }
    report_sync(
        "initial sync to an empty replica, and storing its copy",
        initial,
        wire,
    );

    let mut a = full.clone();
    let mut b = TextDocument::new([3; 16]);
    let (mut a_state, mut b_state) = (State::new(), State::new());
    sync(&mut a, &mut a_state, &mut b, &mut b_state);
    let mut one_edit = Vec::new();
    for i in 0..(if quick { 3 } else { 50 }) {
        a.splice(0, 0, "x", Timestamp::from(1_000_000 + i)).unwrap();
        let t = Instant::now();
        wire = sync(&mut a, &mut a_state, &mut b, &mut b_state);
        one_edit.push(t.elapsed());
    }
    assert_eq!(a.text(), b.text());
    report_sync("agreement after one edit", one_edit, wire);

    let mut loads = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let mut loaded = TextDocument::load(&saved, [4; 16]).unwrap();
        loads.push(t.elapsed());
        // Ready for the next edit: nothing loaded counts as unsaved.
        assert!(loaded.save_incremental().is_empty());
        assert_eq!(loaded.len(), full.len());
    }
    println!(
        "load from the stored snapshot: {:.1?} median",
        median(loads)
    );
}
