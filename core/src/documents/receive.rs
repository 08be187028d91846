//! Receiving a sync message without walking the whole history.
//!
//! Automerge's `receive_sync_message` trims the hashes it has sent the peer
//! (`State::sent_hashes`) to those the peer's heads do not already cover. It
//! does that by visiting every ancestor of those heads — the document's whole
//! history, into a fresh ordered set — on every message, even when there is
//! nothing to trim. For a document of 100,000 changes that is a quarter of
//! the time two up-to-date copies take to agree after one edit.
//!
//! When every hash we have sent is itself one of the peer's heads (always so
//! when we sent nothing, and in the steady state of live editing: we send an
//! edit, the peer answers with it as its head) the walk would remove exactly
//! those hashes, so [`receive`] does the same steps as Automerge without it.
//! Any other message goes through Automerge's own receive. A test checks that
//! both paths leave the document and the sync state identical.

use automerge::sync::{self, MessageFlags, SyncDoc};
use automerge::{AutoCommit, AutomergeError, ChangeHash};
use std::collections::HashSet;

/// Applies `message` from the peer whose sync state is `state`, as
/// Automerge's `receive_sync_message` does.
pub fn receive(
    doc: &mut AutoCommit,
    state: &mut sync::State,
    message: sync::Message,
) -> Result<(), AutomergeError> {
    let resets = message
        .flags
        .is_some_and(|f| f.contains(MessageFlags::SYNC_RESET));
    let nothing_to_trim = resets || state.sent_hashes.iter().all(|h| message.heads.contains(h));
    if !nothing_to_trim {
        return doc.sync().receive_sync_message(state, message);
    }
    receive_without_trimming(doc, state, message)
}

/// Automerge 0.12's receive, step for step, where trimming `sent_hashes`
/// against the peer's heads empties it (every hash in it is one of those heads).
fn receive_without_trimming(
    doc: &mut AutoCommit,
    state: &mut sync::State,
    message: sync::Message,
) -> Result<(), AutomergeError> {
    state.in_flight = false;
    let before_heads = doc.get_heads();
    let sync::Message {
        heads: message_heads,
        changes: message_changes,
        need: message_need,
        have: message_have,
        flags: message_flags,
        ..
    } = message;

    if let Some(flags) = message_flags {
        let mut capabilities = vec![sync::Capability::MessageV2];
        if flags.contains(MessageFlags::SUPPORTS_SYNC_RESET) {
            capabilities.push(sync::Capability::SyncReset);
        }
        state.their_capabilities = Some(capabilities);
        if flags.contains(MessageFlags::SYNC_RESET) {
            state.sent_hashes.clear();
        }
        state.peer_read_only = flags.contains(MessageFlags::READ_ONLY);
    }

    let changes_is_empty = message_changes.is_empty();
    if !changes_is_empty && !state.read_only {
        let mut joined = Vec::new();
        for chunk in message_changes.iter() {
            joined.extend_from_slice(chunk);
        }
        doc.load_incremental(&joined)?;
        let after_heads = doc.get_heads();
        state.shared_heads = advance_heads(&before_heads, &after_heads, &state.shared_heads);
    }

    // Every sent hash is one of the peer's heads: the ancestor walk would remove them all.
    state.sent_hashes.clear();

    if changes_is_empty && message_heads == before_heads {
        state.last_sent_heads.clone_from(&message_heads);
    }

    let known_heads: Vec<ChangeHash> = message_heads
        .iter()
        .filter(|head| doc.get_change_meta_by_hash(head).is_some())
        .copied()
        .collect();
    if known_heads.len() == message_heads.len() {
        state.shared_heads.clone_from(&message_heads);
        if message_heads.is_empty() {
            state.last_sent_heads = Vec::new();
            state.sent_hashes = Default::default();
        }
    } else {
        let mut shared: Vec<ChangeHash> = state.shared_heads.clone();
        shared.extend(known_heads);
        shared.sort();
        shared.dedup();
        state.shared_heads = shared;
    }

    state.their_have = Some(message_have);
    state.their_heads = Some(message_heads);
    state.their_need = Some(message_need);
    Ok(())
}

/// The shared heads after our heads moved from `old` to `new`: our new heads
/// plus the old shared heads that are still heads, sorted, without repeats.
fn advance_heads(old: &[ChangeHash], new: &[ChangeHash], shared: &[ChangeHash]) -> Vec<ChangeHash> {
    let old: HashSet<&ChangeHash> = old.iter().collect();
    let new_set: HashSet<&ChangeHash> = new.iter().collect();
    let mut advanced: Vec<ChangeHash> = new
        .iter()
        .filter(|head| !old.contains(head))
        .chain(shared.iter().filter(|head| new_set.contains(head)))
        .copied()
        .collect();
    advanced.sort();
    advanced.dedup();
    advanced
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use automerge::transaction::Transactable;
    use automerge::{ActorId, ObjType, ROOT, ReadDoc};

    /// A small deterministic generator (xorshift), so failures replay.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn replica(actor: u8, genesis: &mut AutoCommit) -> AutoCommit {
        let mut doc = genesis.fork();
        doc.set_actor(ActorId::from([actor; 16]));
        doc
    }

    /// Receives `message` both ways and checks they agree; keeps the fast result.
    fn receive_both(doc: &mut AutoCommit, state: &mut sync::State, message: sync::Message) {
        let mut slow_doc = doc.fork();
        let mut slow_state = state.clone();
        slow_doc
            .sync()
            .receive_sync_message(&mut slow_state, message.clone())
            .unwrap();
        receive(doc, state, message).unwrap();
        assert_eq!(*state, slow_state);
        assert_eq!(doc.get_heads(), slow_doc.get_heads());
    }

    #[test]
    fn matches_automerge_on_random_edits_losses_and_reorders() {
        for seed in 1..=40_u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut genesis = AutoCommit::new();
            let text = genesis.put_object(ROOT, "text", ObjType::Text).unwrap();
            genesis.commit();
            let mut docs = [replica(1, &mut genesis), replica(2, &mut genesis)];
            let mut states = [sync::State::new(), sync::State::new()];
            // Messages on the way to docs[0] and docs[1].
            let mut wires: [Vec<sync::Message>; 2] = [Vec::new(), Vec::new()];
            for _ in 0..60 {
                let side = rng.below(2) as usize;
                match rng.below(5) {
                    0 | 1 => {
                        let doc = &mut docs[side];
                        let len = doc.length(&text);
                        let at = rng.below(len as u64 + 1) as usize;
                        doc.splice_text(&text, at, 0, "ab").unwrap();
                        doc.commit();
                    }
                    2 | 3 => {
                        if let Some(m) = docs[side].sync().generate_sync_message(&mut states[side])
                        {
                            wires[1 - side].push(m);
                        }
                    }
                    _ => {
                        let wire = &mut wires[side];
                        if wire.is_empty() {
                            continue;
                        }
                        // Mostly in order; sometimes the newest first; sometimes lost.
                        let message = if rng.below(4) == 0 {
                            wire.pop()
                        } else {
                            Some(wire.remove(0))
                        };
                        if rng.below(6) == 0 {
                            continue;
                        }
                        if let Some(message) = message {
                            let (doc, state) = (&mut docs[side], &mut states[side]);
                            receive_both(doc, state, message);
                        }
                    }
                }
            }
            // Lost messages leave a sync state waiting for an answer that never
            // comes; a reconnect starts both states afresh. Then run to quiet.
            states = [sync::State::new(), sync::State::new()];
            for _ in 0..20 {
                for side in [0, 1] {
                    let message = docs[side].sync().generate_sync_message(&mut states[side]);
                    if let Some(m) = message {
                        let (doc, state) = (&mut docs[1 - side], &mut states[1 - side]);
                        receive_both(doc, state, m);
                    }
                }
            }
            let [a, b] = &mut docs;
            assert_eq!(a.get_heads(), b.get_heads(), "seed {seed}");
            assert_eq!(
                a.text(&text).unwrap(),
                b.text(&text).unwrap(),
                "seed {seed}"
            );
        }
    }
}
