//! A time per event id, ordered by time as well as by id.
//!
//! The replica keeps one for the events it has sent and awaits an answer to
//! (when each went out) and one for its requests (when each times out). Its
//! host asks for the earliest time after every call
//! ([`super::Replica::poll_timeout`]): the earliest is the first entry of an
//! ordered set, and a timer finds what is due without looking at anything else.

use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use std::collections::{BTreeMap, BTreeSet};

/// Times by event id, also ordered by time.
#[derive(Debug, Default, Clone)]
pub(crate) struct Deadlines {
    by_id: BTreeMap<EventId, Timestamp>,
    by_time: BTreeSet<(Timestamp, EventId)>,
}

impl Deadlines {
    /// Sets the time of `id`, replacing any earlier one.
    pub fn insert(&mut self, id: EventId, at: Timestamp) {
        if let Some(old) = self.by_id.insert(id, at) {
            self.by_time.remove(&(old, id));
        }
        self.by_time.insert((at, id));
    }

    /// Forgets `id`; returns its time if it had one.
    pub fn remove(&mut self, id: &EventId) -> Option<Timestamp> {
        let at = self.by_id.remove(id)?;
        self.by_time.remove(&(at, *id));
        Some(at)
    }

    /// Forgets every id.
    pub fn clear(&mut self) {
        self.by_id.clear();
        self.by_time.clear();
    }

    /// The earliest time held.
    pub fn earliest(&self) -> Option<Timestamp> {
        self.by_time.first().map(|(at, _)| *at)
    }

    /// The ids whose time is `up_to` or earlier, earliest first.
    pub fn up_to(&self, up_to: Timestamp) -> Vec<EventId> {
        self.by_time
            .iter()
            .take_while(|(at, _)| *at <= up_to)
            .map(|(_, id)| *id)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u8, u64),
        Remove(u8),
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => (0u8..16, 0u64..50).prop_map(|(id, at)| Op::Insert(id, at)),
            3 => (0u8..16).prop_map(Op::Remove),
            1 => Just(Op::Clear),
        ]
    }

    proptest! {
        /// Against one plain map: the same times, the same earliest, the same ids due.
        #[test]
        fn behaves_like_a_map_searched_in_full(ops in proptest::collection::vec(op(), 1..200), probe in 0u64..60) {
            let mut deadlines = Deadlines::default();
            let mut model: BTreeMap<EventId, Timestamp> = BTreeMap::new();
            let id = |n: u8| EventId::from_parts(1, u128::from(n));
            for op in ops {
                match op {
                    Op::Insert(n, at) => {
                        let at = Timestamp::from_millis(at);
                        deadlines.insert(id(n), at);
                        model.insert(id(n), at);
                    }
                    Op::Remove(n) => prop_assert_eq!(deadlines.remove(&id(n)), model.remove(&id(n))),
                    Op::Clear => {
                        deadlines.clear();
                        model.clear();
                    }
                }
                prop_assert_eq!(deadlines.earliest(), model.values().min().copied());
                let probe = Timestamp::from_millis(probe);
                let mut due = deadlines.up_to(probe);
                due.sort();
                let expected: Vec<EventId> =
                    model.iter().filter(|(_, at)| **at <= probe).map(|(id, _)| *id).collect();
                prop_assert_eq!(due, expected);
                prop_assert_eq!(deadlines.by_time.len(), model.len());
            }
        }
    }
}
