//! A host that keeps everything in memory: the reference for what a real
//! host (the edge's Durable Object) does with the network's effects.
//!
//! It stores log rows and state rows, and answers `Backlog` and `Query`
//! effects at once from its log. Tests, the conformance runner and the
//! simulation drive networks through it.

use crate::event::Event;
use crate::network::{Effect, Network, Row, RowKind};
use std::collections::BTreeMap;
use std::rc::Rc;

/// One log row as a host stores it.
#[derive(Debug, Clone)]
pub struct LogRow {
    /// Sequence number.
    pub seq: u64,
    /// The event.
    pub event: Rc<Event>,
    /// Audiences it is indexed under.
    pub audiences: Vec<String>,
    /// Kept as history.
    pub retain: bool,
}

/// Log and state rows in memory.
#[derive(Debug, Default, Clone)]
pub struct MemoryHost {
    /// The log in `seq` order.
    pub log: Vec<LogRow>,
    /// State rows by kind and key.
    pub rows: BTreeMap<(RowKind, String), Row>,
}

impl MemoryHost {
    /// Applies `effects`: stores what is stored, answers backlog and history
    /// reads at once, and returns every effect in the order it happened
    /// (answers right after the effect that asked for them).
    pub fn apply(&mut self, network: &mut Network, effects: Vec<Effect>, now: u64) -> Vec<Effect> {
        let mut done = Vec::new();
        let mut queue: std::collections::VecDeque<Effect> = effects.into();
        while let Some(effect) = queue.pop_front() {
            let follow_up = match &effect {
                Effect::Append {
                    seq,
                    event,
                    retain,
                    audiences,
                } => {
                    self.log.push(LogRow {
                        seq: *seq,
                        event: Rc::clone(event),
                        audiences: audiences.clone(),
                        retain: *retain,
                    });
                    Vec::new()
                }
                Effect::Store(row) => {
                    self.rows.insert((row.kind(), row.key()), row.clone());
                    Vec::new()
                }
                Effect::Remove { kind, key } => {
                    self.rows.remove(&(*kind, key.clone()));
                    Vec::new()
                }
                Effect::Backlog(request) => {
                    let rows: Vec<(u64, Event)> = self
                        .log
                        .iter()
                        .filter(|r| {
                            r.seq > request.after
                                && r.audiences.iter().any(|a| request.audiences.contains(a))
                        })
                        .take(request.limit)
                        .map(|r| (r.seq, (*r.event).clone()))
                        .collect();
                    let exhausted = rows.len() < request.limit;
                    network.answer_backlog(request, rows, exhausted, now)
                }
                Effect::Query(request) => {
                    let rows: Vec<(u64, Event)> = self
                        .log
                        .iter()
                        .filter(|r| r.retain && r.seq > request.after)
                        .map(|r| (r.seq, (*r.event).clone()))
                        .collect();
                    network.answer_query(request, rows, true, now)
                }
                Effect::Reply(_)
                | Effect::Ack(_)
                | Effect::Deliver { .. }
                | Effect::Bind(_)
                | Effect::Unbind => Vec::new(),
            };
            done.push(effect);
            for (i, extra) in follow_up.into_iter().enumerate() {
                queue.insert(i, extra);
            }
        }
        done
    }

    /// The stored rows, as `Network::new` takes them after a restart.
    pub fn state_rows(&self) -> Vec<Row> {
        self.rows.values().cloned().collect()
    }

    /// The last logged `seq`.
    pub fn last_seq(&self) -> u64 {
        self.log.last().map_or(0, |r| r.seq)
    }
}
