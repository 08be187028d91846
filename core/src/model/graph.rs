//! The message graph (IOA v0.1, docs/protocols.md): events in a channel linked to their
//! parents by `metadata.refs.messages`, addressed to members by
//! `metadata.refs.nodes`.
//!
//! The network never holds the graph. Each logged event of a channel is
//! indexed under a few *link keys* the host stores as `(key, seq)` rows next
//! to the log ([`Placement::links`]); every read is then a few indexed
//! lookups ([`GraphIndex`]), never a scan of the log:
//!
//! | key | rows |
//! |---|---|
//! | `ioa/all` | every message of every channel |
//! | `ioa/space:{channel}` | every message of the channel |
//! | `ioa/root:{channel}` | its root messages (no parents, no recipients) |
//! | `ioa/child:{seq}` | the children of message `seq` |
//! | `ioa/parent:{seq}` | the parents of message `seq` |
//! | `ioa/to:{address}` | the messages whose `refs.nodes` names `address` |
//!
//! [`related`] walks the graph from one message: its ancestors, its
//! descendants or both (with the message itself), in append order;
//! [`window`] applies IOA's `after`/`limit`.

use crate::event::Event;
use crate::ids::address::Address;
use std::collections::BTreeSet;

/// Rows one graph lookup reads at most per key (a message has at most
/// [`crate::event::metadata::MAX_REFS`] parents; children are unbounded).
pub const UNBOUNDED: usize = usize::MAX;

/// The key of every message of `channel` (its name, `general` for `channel/general`).
pub fn space_key(channel: &str) -> String {
    format!("ioa/space:{channel}")
}

/// The key of every message of every channel.
pub const ALL_KEY: &str = "ioa/all";

/// The key of the root messages of `channel`.
pub fn root_key(channel: &str) -> String {
    format!("ioa/root:{channel}")
}

/// The key of the children of message `seq`.
pub fn child_key(seq: u64) -> String {
    format!("ioa/child:{seq}")
}

/// The key of the parents of message `seq`.
pub fn parent_key(seq: u64) -> String {
    format!("ioa/parent:{seq}")
}

/// The key of the messages addressed to `node`.
pub fn recipient_key(node: &Address) -> String {
    format!("ioa/to:{node}")
}

/// Which end of a key's rows a bounded lookup keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The first rows after the cursor.
    Oldest,
    /// The last rows after the cursor.
    Newest,
}

/// The host's index of link rows and its log, read synchronously.
pub trait GraphIndex {
    /// The `seq`s stored under `key` strictly between `after` and `before`,
    /// ascending: at most `limit` of them, the first or the last as `end` says.
    fn linked(&self, key: &str, after: u64, before: u64, limit: usize, end: End) -> Vec<u64>;
    /// How many rows `key` has.
    fn count(&self, key: &str) -> u64;
    /// Every `seq` stored under any of `keys`, ascending, each once (one
    /// lookup for a whole frontier of a walk).
    fn linked_all(&self, keys: &[String]) -> Vec<u64> {
        let mut all: Vec<u64> = keys
            .iter()
            .flat_map(|key| self.linked(key, 0, u64::MAX, UNBOUNDED, End::Oldest))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
    /// True when `seq` is stored under `key`.
    fn contains(&self, key: &str, seq: u64) -> bool;
    /// The logged events at `seqs` (those the log still has), ascending.
    fn events(&self, seqs: &[u64]) -> Vec<(u64, Event)>;
}

/// Where an accepted event sits in the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The channel's name.
    pub space: String,
    /// The parents' `seq`s.
    pub parents: Vec<u64>,
    /// The recipients (`refs.nodes`).
    pub recipients: Vec<Address>,
}

impl Placement {
    /// The `(key, seq)` rows that index the message at `seq`.
    pub fn links(&self, seq: u64) -> Vec<(String, u64)> {
        let mut links = vec![(ALL_KEY.to_owned(), seq), (space_key(&self.space), seq)];
        if self.parents.is_empty() && self.recipients.is_empty() {
            links.push((root_key(&self.space), seq));
        }
        for parent in &self.parents {
            links.push((child_key(*parent), seq));
            links.push((parent_key(seq), *parent));
        }
        for node in &self.recipients {
            links.push((recipient_key(node), seq));
        }
        links
    }
}

/// Which part of a message's related subgraph a read wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Ancestors and descendants.
    Both,
    /// Ancestors only (every one, however far).
    Upstream,
    /// Descendants only.
    Downstream,
}

impl Direction {
    /// IOA's `direction`: empty for both, `upstream`, `downstream`; anything else is `None`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "" => Some(Self::Both),
            "upstream" => Some(Self::Upstream),
            "downstream" => Some(Self::Downstream),
            _ => None,
        }
    }
}

/// Every message reachable from `start` along `key`'s rows, with `start`:
/// a walk a frontier at a time, one lookup per frontier.
fn reach(index: &dyn GraphIndex, start: u64, key: fn(u64) -> String, into: &mut BTreeSet<u64>) {
    let mut seen = BTreeSet::from([start]);
    into.insert(start);
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        let keys: Vec<String> = frontier.iter().map(|seq| key(*seq)).collect();
        frontier = index
            .linked_all(&keys)
            .into_iter()
            .filter(|next| seen.insert(*next))
            .collect();
        into.extend(&frontier);
    }
}

/// The message at `seq` with its ancestors, its descendants or both, in append order.
pub fn related(index: &dyn GraphIndex, seq: u64, direction: Direction) -> Vec<u64> {
    let mut found = BTreeSet::new();
    if direction != Direction::Downstream {
        reach(index, seq, parent_key, &mut found);
    }
    if direction != Direction::Upstream {
        reach(index, seq, child_key, &mut found);
    }
    found.into_iter().collect()
}

/// IOA's window over `seqs` (ascending): without `after`, the last `limit`;
/// with it, the first `limit` after it. No `limit` keeps them all.
pub fn window(seqs: Vec<u64>, after: Option<u64>, limit: Option<usize>) -> Vec<u64> {
    let mut seqs: Vec<u64> = match after {
        Some(after) => seqs.into_iter().filter(|s| *s > after).collect(),
        None => seqs,
    };
    match (after, limit) {
        (Some(_), Some(limit)) => seqs.truncate(limit),
        (None, Some(limit)) if seqs.len() > limit => {
            seqs.drain(..seqs.len() - limit);
        }
        _ => {}
    }
    seqs
}

#[cfg(test)]
#[path = "graph_tests.rs"]
mod tests;
