//! A [`GraphIndex`] held in memory: the link rows and the events of a log,
//! for hosts without storage (tests, the memory host) and for checking the
//! traversal against a plain walk of the log.

use super::graph::{End, GraphIndex, Placement};
use crate::event::Event;
use std::collections::{BTreeMap, BTreeSet};

/// Link rows and logged events in memory.
#[derive(Debug, Default, Clone)]
pub struct MemoryGraph {
    links: BTreeMap<String, BTreeSet<u64>>,
    log: BTreeMap<u64, Event>,
}

impl MemoryGraph {
    /// Stores the event at `seq` and the rows of its `placement`, if it has one.
    pub fn append(&mut self, seq: u64, event: Event, placement: Option<&Placement>) {
        if let Some(placement) = placement {
            self.add_links(&placement.links(seq));
        }
        self.log.insert(seq, event);
    }

    /// The `seq` of the logged event with this id (a scan: tests only need it).
    pub fn seq_of(&self, id: &crate::ids::ulid::EventId) -> Option<u64> {
        self.log
            .iter()
            .find_map(|(seq, event)| (event.id == *id).then_some(*seq))
    }

    /// Stores `(key, seq)` link rows.
    pub fn add_links(&mut self, links: &[(String, u64)]) {
        for (key, seq) in links {
            self.links.entry(key.clone()).or_default().insert(*seq);
        }
    }
}

impl GraphIndex for MemoryGraph {
    fn linked(&self, key: &str, after: u64, before: u64, limit: usize, end: End) -> Vec<u64> {
        let Some(rows) = self.links.get(key) else {
            return Vec::new();
        };
        if before <= after.saturating_add(1) {
            return Vec::new();
        }
        let after = rows.range(after.saturating_add(1)..before);
        match end {
            End::Oldest => after.take(limit).copied().collect(),
            End::Newest => {
                let mut last: Vec<u64> = after.rev().take(limit).copied().collect();
                last.reverse();
                last
            }
        }
    }

    fn count(&self, key: &str) -> u64 {
        self.links.get(key).map_or(0, |rows| rows.len() as u64)
    }

    fn contains(&self, key: &str, seq: u64) -> bool {
        self.links.get(key).is_some_and(|rows| rows.contains(&seq))
    }

    fn events(&self, seqs: &[u64]) -> Vec<(u64, Event)> {
        let mut found: Vec<(u64, Event)> = seqs
            .iter()
            .filter_map(|seq| self.log.get(seq).map(|e| (*seq, e.clone())))
            .collect();
        crate::sorting::sort_by_key(&mut found, |(seq, _)| *seq);
        found
    }
}
