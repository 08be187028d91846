//! Bounded memory of recently logged event ids, for deduplication.
//!
//! The window keeps the last [`DEDUPE_WINDOW`] logged ids with their `seq`
//! and forgets the *smallest* beyond that (ULIDs sort by time, so those are
//! the oldest by their own clock); everything forgotten is older than what
//! is kept, which [`DedupeWindow::may_be_outside`] relies on.
//!
//! Ids nearly always arrive in increasing order (each sender's ULIDs are
//! monotonic and clocks roughly agree), so the window is two parts: a
//! sorted run in a ring buffer, which takes an id greater than all before it
//! in O(1) and finds one by binary search over contiguous memory, and an
//! ordered map for the rare id that arrives out of order. Every operation
//! stays O(log n) whatever order ids come in, so a sender choosing its ids
//! cannot make the window slow.

use crate::ids::ulid::EventId;
use crate::network::delivery::DEDUPE_WINDOW;
use std::collections::{BTreeMap, VecDeque};

/// Recently logged ids and their `seq`.
#[derive(Debug, Default, Clone)]
pub struct DedupeWindow {
    /// Ids in increasing order, as they nearly always arrive.
    in_order: VecDeque<(EventId, u64)>,
    /// Ids that arrived smaller than the newest in `in_order`.
    out_of_order: BTreeMap<EventId, u64>,
    /// Ids with a timestamp up to this may be logged without being in the
    /// window (forgotten, or logged before a restart); later ones cannot.
    outside_up_to: Option<u64>,
}

impl DedupeWindow {
    /// Remembers a logged id, forgetting the smallest beyond [`DEDUPE_WINDOW`].
    pub fn insert(&mut self, id: EventId, seq: u64) {
        match self.in_order.back() {
            Some((newest, _)) if id <= *newest => {
                if let Ok(at) = self.position(&id) {
                    // Already remembered (the network never logs an id twice): update.
                    if let Some(entry) = self.in_order.get_mut(at) {
                        entry.1 = seq;
                    }
                } else {
                    self.out_of_order.insert(id, seq);
                }
            }
            _ => self.in_order.push_back((id, seq)),
        }
        while self.len() > DEDUPE_WINDOW {
            self.forget_smallest();
        }
    }

    /// How many ids the window holds.
    fn len(&self) -> usize {
        self.in_order.len() + self.out_of_order.len()
    }

    fn forget_smallest(&mut self) {
        let from_run = self.in_order.front().map(|(id, _)| *id);
        let from_map = self.out_of_order.first_key_value().map(|(id, _)| *id);
        let forgotten = match (from_run, from_map) {
            (Some(run), Some(map)) if map < run => self.out_of_order.pop_first().map(|(id, _)| id),
            (Some(_), _) => self.in_order.pop_front().map(|(id, _)| id),
            (None, Some(_)) => self.out_of_order.pop_first().map(|(id, _)| id),
            (None, None) => None,
        };
        self.note_outside(forgotten.map(|id| id.timestamp_ms()));
    }

    /// Where `id` is (or would go) in the sorted run.
    fn position(&self, id: &EventId) -> Result<usize, usize> {
        self.in_order.binary_search_by(|(held, _)| held.cmp(id))
    }

    /// Notes that ids up to `timestamp` may be logged outside the window.
    pub fn note_outside(&mut self, timestamp: Option<u64>) {
        self.outside_up_to = self.outside_up_to.max(timestamp);
    }

    /// True when an id absent from the window may still be in the log, so the
    /// host's index must be asked.
    pub fn may_be_outside(&self, id: &EventId) -> bool {
        self.outside_up_to
            .is_some_and(|up_to| id.timestamp_ms() <= up_to)
    }

    /// The `seq` of a remembered id.
    pub fn seq_of(&self, id: &EventId) -> Option<u64> {
        // A new event's id is greater than every id remembered (each one out
        // of order arrived smaller than the run's newest): no search needed.
        if self.in_order.back().is_some_and(|(newest, _)| id > newest) {
            return None;
        }
        match self.position(id) {
            Ok(at) => self.in_order.get(at).map(|(_, seq)| *seq),
            Err(_) => self.out_of_order.get(id).copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn window_forgets_the_oldest() {
        let mut w = DedupeWindow::default();
        for i in 0..(DEDUPE_WINDOW as u128 + 10) {
            w.insert(EventId::from_parts(1, i), i as u64);
        }
        assert_eq!(w.len(), DEDUPE_WINDOW);
        assert_eq!(w.seq_of(&EventId::from_parts(1, 0)), None);
        assert_eq!(w.seq_of(&EventId::from_parts(1, 10)), Some(10));
        // Evicted ids were from time 1: older or equal ids may be in the log, later ones not.
        assert!(w.may_be_outside(&EventId::from_parts(1, 0)));
        assert!(!w.may_be_outside(&EventId::from_parts(2, 0)));
        assert!(!DedupeWindow::default().may_be_outside(&EventId::from_parts(0, 0)));
    }

    #[test]
    fn ids_out_of_order_are_remembered_and_the_smallest_forgotten_first() {
        let mut w = DedupeWindow::default();
        let id = |t: u64| EventId::from_parts(t, 0);
        w.insert(id(10), 1);
        w.insert(id(20), 2);
        w.insert(id(5), 3); // a sender with a slow clock
        w.insert(id(15), 4);
        assert_eq!(w.len(), 4);
        for (t, seq) in [(10, 1), (20, 2), (5, 3), (15, 4)] {
            assert_eq!(w.seq_of(&id(t)), Some(seq));
        }
        assert_eq!(w.seq_of(&id(7)), None);
        w.forget_smallest();
        assert_eq!(w.seq_of(&id(5)), None, "the smallest goes first");
        assert!(w.may_be_outside(&id(5)) && !w.may_be_outside(&id(6)));
        w.forget_smallest();
        assert_eq!(w.seq_of(&id(10)), None);
        assert_eq!(w.seq_of(&id(15)), Some(4));
    }

    proptest! {
        /// Against the obvious model (one ordered map, smallest forgotten
        /// first), with a small window so eviction happens: the same ids are
        /// remembered with the same seqs and the same may be outside.
        #[test]
        fn behaves_like_one_ordered_map(ops in proptest::collection::vec((0u64..200, 0u128..4), 1..400)) {
            let mut window = DedupeWindow::default();
            let mut model = BTreeMap::new();
            let mut outside = None;
            let limit = 64;
            for (seq, (t, r)) in ops.into_iter().enumerate() {
                let id = EventId::from_parts(t, r);
                let seq = seq as u64;
                window.insert(id, seq);
                model.insert(id, seq);
                while window.len() > limit {
                    window.forget_smallest();
                }
                while model.len() > limit {
                    if let Some((old, _)) = model.pop_first() {
                        outside = outside.max(Some(old.timestamp_ms()));
                    }
                }
                prop_assert_eq!(window.len(), model.len());
                for (held, seq) in &model {
                    prop_assert_eq!(window.seq_of(held), Some(*seq));
                }
                // Older than the newest, around it, and newer than every id.
                for probe in [EventId::from_parts(t / 2, r), EventId::from_parts(t + 1, r), EventId::from_parts(200, 0)] {
                    prop_assert_eq!(window.seq_of(&probe), model.get(&probe).copied());
                    prop_assert_eq!(window.may_be_outside(&probe), outside.is_some_and(|up| probe.timestamp_ms() <= up));
                }
            }
        }
    }
}
