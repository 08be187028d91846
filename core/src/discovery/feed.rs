//! DRC — registry → discovery synchronisation (ACPs DRC, docs/protocols.md):
//! the registry's changes as a numbered log.
//!
//! Every change to a listed object is a [`Change`] `{seq, ts, op, type, id,
//! version, payload}` with `seq` strictly increasing (sent as a decimal
//! string) and `version` counting that object's changes. The log keeps the
//! last [`Feed::retention`] changes; [`Feed::since`] answers what follows a
//! caller's seq, or [`DiscoveryError::BehindRetention`] (410) when changes
//! it needs were dropped, so it must take a new snapshot. A snapshot
//! ([`snapshot_page`]) is every live object as an `upsert` at the log's
//! current seq, paged by object id; applying the changes after that seq to
//! it gives the registry's state ([`Replica`] does exactly that).

use super::error::DiscoveryError;
use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, VecDeque};

/// The object type the registry publishes (an agent with its ACS).
pub const ACS_TYPE: &str = "acs";
/// Changes kept unless the deployment says otherwise.
pub const DEFAULT_RETENTION: usize = 10_000;
/// Most changes or snapshot objects in one response.
pub const MAX_PAGE: usize = 1_000;

/// Whether an object was put or removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// Created or replaced: `payload` is the whole object.
    Upsert,
    /// Removed: `payload` is null.
    Delete,
}

/// One change (the DRC change envelope).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// Its place in the log (a decimal string on the wire).
    #[serde(with = "seq_text")]
    pub seq: u64,
    /// When it happened.
    pub ts: Timestamp,
    /// Upsert or delete.
    pub op: Op,
    /// The object's type ([`ACS_TYPE`]).
    #[serde(rename = "type")]
    pub kind: String,
    /// The object's id (an AIC).
    pub id: String,
    /// How many changes the object has had, this one included.
    pub version: u64,
    /// The object, or null for a delete.
    pub payload: Value,
}

mod seq_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(seq: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&seq.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Change {
    /// One NDJSON line.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The change log.
#[derive(Debug, Clone)]
pub struct Feed {
    changes: VecDeque<Change>,
    retention: usize,
    last_seq: u64,
    versions: BTreeMap<String, u64>,
}

impl Feed {
    /// An empty log keeping `retention` changes (at least one).
    pub fn new(retention: usize) -> Self {
        Self {
            changes: VecDeque::new(),
            retention: retention.max(1),
            last_seq: 0,
            versions: BTreeMap::new(),
        }
    }

    /// How many changes it keeps.
    pub fn retention(&self) -> usize {
        self.retention
    }

    /// The seq of the newest change (0 before any).
    pub fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// The current version of object `id` (0 when it never changed).
    pub fn version_of(&self, id: &str) -> u64 {
        self.versions.get(id).copied().unwrap_or(0)
    }

    /// Puts back a stored change (in seq order); returns the seqs to forget.
    pub fn load(&mut self, change: Change) -> Vec<u64> {
        self.last_seq = self.last_seq.max(change.seq);
        let version = self.versions.entry(change.id.clone()).or_insert(0);
        *version = (*version).max(change.version);
        self.changes.push_back(change);
        self.prune()
    }

    /// Puts back an object's version when its changes were pruned.
    pub fn load_version(&mut self, id: &str, version: u64) {
        let known = self.versions.entry(id.to_owned()).or_insert(0);
        *known = (*known).max(version);
    }

    fn prune(&mut self) -> Vec<u64> {
        let mut dropped = Vec::new();
        while self.changes.len() > self.retention {
            if let Some(old) = self.changes.pop_front() {
                dropped.push(old.seq);
            }
        }
        dropped
    }

    /// Records a change of object `id`; returns it and the seqs pruned from the log.
    pub fn record(
        &mut self,
        op: Op,
        id: &str,
        payload: Value,
        now: Timestamp,
    ) -> (Change, Vec<u64>) {
        self.last_seq += 1;
        let version = self.versions.entry(id.to_owned()).or_insert(0);
        *version += 1;
        let change = Change {
            seq: self.last_seq,
            ts: now,
            op,
            kind: ACS_TYPE.to_owned(),
            id: id.to_owned(),
            version: *version,
            payload: if op == Op::Delete {
                Value::Null
            } else {
                payload
            },
        };
        self.changes.push_back(change.clone());
        (change, self.prune())
    }

    /// The changes after `seq`, at most `limit`; an empty answer means nothing
    /// is new (204 with `X-Next-Seq`). Refused when a change after `seq` is no longer kept.
    pub fn since(&self, seq: u64, limit: usize) -> Result<Vec<&Change>, DiscoveryError> {
        if seq > self.last_seq {
            return Err(DiscoveryError::BadParameter {
                name: "seq",
                detail: format!("{seq} is ahead of the log (last {})", self.last_seq),
            });
        }
        let oldest = self.changes.front().map_or(self.last_seq + 1, |c| c.seq);
        if seq.saturating_add(1) < oldest {
            return Err(DiscoveryError::BehindRetention { seq, oldest });
        }
        Ok(self
            .changes
            .iter()
            .filter(|c| c.seq > seq)
            .take(limit.clamp(1, MAX_PAGE))
            .collect())
    }
}

/// One page of a snapshot: every object in `objects` (id → payload, in id
/// order) after `after`, at most `limit`, as upserts at `seq`; and the id to
/// continue after when more remain.
pub fn snapshot_page<'a>(
    objects: impl Iterator<Item = (&'a String, &'a Value)>,
    feed: &Feed,
    seq: u64,
    after: Option<&str>,
    limit: usize,
) -> (Vec<Change>, Option<String>) {
    let limit = limit.clamp(1, MAX_PAGE);
    let mut page: Vec<Change> = objects
        .filter(|(id, _)| after.is_none_or(|a| id.as_str() > a))
        .take(limit + 1)
        .map(|(id, payload)| Change {
            seq,
            ts: Timestamp::EPOCH,
            op: Op::Upsert,
            kind: ACS_TYPE.to_owned(),
            id: id.clone(),
            version: feed.version_of(id),
            payload: payload.clone(),
        })
        .collect();
    let more = page.len() > limit;
    page.truncate(limit);
    let next = more.then(|| page.last().map(|c| c.id.clone())).flatten();
    (page, next)
}

/// A discovery service's copy built only from the feed: snapshot lines, then changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replica {
    /// Objects by id: (version, payload).
    pub objects: BTreeMap<String, (u64, Value)>,
    /// The seq it has applied up to.
    pub seq: u64,
}

impl Replica {
    /// Applies one change (a snapshot line or a feed change); older versions are ignored.
    pub fn apply(&mut self, change: &Change) {
        let newer = self
            .objects
            .get(&change.id)
            .is_none_or(|(v, _)| change.version > *v);
        if newer {
            match change.op {
                Op::Upsert => {
                    self.objects
                        .insert(change.id.clone(), (change.version, change.payload.clone()));
                }
                Op::Delete => {
                    self.objects.remove(&change.id);
                }
            }
        }
        self.seq = self.seq.max(change.seq);
    }
}

#[cfg(test)]
#[path = "feed_tests.rs"]
mod tests;
