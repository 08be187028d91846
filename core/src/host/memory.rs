//! A host that keeps everything in memory: the reference for what a real
//! host (the edge's Durable Object) does with the network's effects.
//!
//! It stores log rows and state rows and answers reads from its log, through
//! the same [`apply_effects`] loop as every host. Tests,
//! the conformance runner and the simulation drive networks through it.

use crate::event::Event;
use crate::host::apply::{Host, apply_effects};
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::model::state::{Row, RowKind};
use crate::network::{
    DiscoveryAsk, DocumentAnswer, DocumentAsk, Effect, LogFilter, Network, ReadRequest, ReadRows,
    RegistryAnswer,
};
use std::collections::BTreeMap;
use std::convert::Infallible;
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
    /// The configuration last stored ([`Effect::StoreConfig`]), if it changed.
    pub config: Option<crate::model::config::NetworkConfig>,
    /// What its registry answers every `network.discovery.query` with (the
    /// `agents` of `GET /registry/v1/discover`); empty unless a test sets it.
    pub registry: Vec<serde_json::Value>,
    /// The keeper of the network's shared documents when the network keeps
    /// them elsewhere ([`Network::keep_documents_elsewhere`]), as the edge's
    /// documents object does; its rows are kept apart in `document_rows`.
    #[cfg(feature = "documents")]
    pub documents: Option<crate::documents::DocumentHost>,
    /// The rows that keeper wrote, by key.
    #[cfg(feature = "documents")]
    pub document_rows: BTreeMap<String, crate::documents::DocumentRow>,
}

/// A [`MemoryHost`] applying one batch of effects, recording them in order.
struct Recording<'a> {
    host: &'a mut MemoryHost,
    done: Vec<Effect>,
}

impl Host for Recording<'_> {
    type Error = Infallible;

    fn apply(&mut self, effect: Effect) -> Result<Vec<(Address, u64)>, Infallible> {
        self.host.apply_one(&effect);
        self.done.push(effect);
        Ok(Vec::new())
    }

    fn read(&mut self, request: &ReadRequest) -> Result<ReadRows, Infallible> {
        Ok(self.host.read_rows(request))
    }

    fn catch_up_failed(&mut self, _: &ReadRequest, error: Infallible) {
        match error {}
    }

    fn discover(&mut self, _: &DiscoveryAsk) -> Result<Option<RegistryAnswer>, Infallible> {
        Ok(Some(RegistryAnswer {
            agents: Ok(self.host.registry.clone()),
            origin: MEMORY_ORIGIN.to_owned(),
        }))
    }

    fn documents(&mut self, ask: &DocumentAsk) -> Result<Option<DocumentAnswer>, Infallible> {
        #[cfg(feature = "documents")]
        if let Some(keeper) = &mut self.host.documents {
            let done = keeper.handle(ask);
            for write in done.writes {
                match write {
                    crate::documents::DocumentWrite::Store(row) => {
                        self.host.document_rows.insert(row.key(), row);
                    }
                    crate::documents::DocumentWrite::Remove(key) => {
                        self.host.document_rows.remove(&key);
                    }
                }
            }
            return Ok(Some(done.answer));
        }
        Ok(Some(DocumentAnswer::unavailable(ask)))
    }
}

/// The origin a [`MemoryHost`] answers discovery with.
pub const MEMORY_ORIGIN: &str = "https://memory.invalid";

impl MemoryHost {
    /// Stores what one effect stores; other effects change nothing here.
    pub(crate) fn apply_one(&mut self, effect: &Effect) {
        match effect {
            Effect::Append {
                seq,
                event,
                retain,
                audiences,
                links: _,
            } => self.log.push(LogRow {
                seq: *seq,
                event: Rc::clone(event),
                audiences: audiences.clone(),
                retain: *retain,
            }),
            Effect::Store(row) => {
                self.rows.insert((row.kind(), row.key()), row.clone());
            }
            Effect::Remove { kind, key } => {
                self.rows.remove(&(*kind, key.clone()));
            }
            Effect::PruneLog {
                transient_through,
                history_through,
            } => self.log.retain(|r| {
                let through = if r.retain {
                    history_through
                } else {
                    transient_through
                };
                r.seq > *through
            }),
            Effect::Read(_)
            | Effect::Discover(_)
            | Effect::Document(_)
            | Effect::Page(_)
            | Effect::Reply(_)
            | Effect::Ack(_)
            | Effect::Deliver { .. }
            | Effect::Bind(_)
            | Effect::Unbind
            | Effect::EndCredentials(_) => {}
            Effect::StoreConfig(config) => self.config = Some((**config).clone()),
        }
    }

    /// The rows a read asks for, from the log in memory, and whether there are no more.
    pub(crate) fn read_rows(&self, request: &ReadRequest) -> ReadRows {
        let mut rows = self
            .log
            .iter()
            .filter(|r| {
                r.seq > request.after && request.filter.admits(&r.event, &r.audiences, r.retain)
            })
            .map(|r| (r.seq, (*r.event).clone()));
        // A history query filters visibility in the core: it gets every candidate row.
        let limit = match request.filter {
            LogFilter::Audiences { .. } => request.limit,
            LogFilter::History { .. } => usize::MAX,
        };
        let page: Vec<(u64, Event)> = rows.by_ref().take(limit).collect();
        let exhausted = rows.next().is_none();
        (page, exhausted)
    }

    /// Applies `effects`: stores what is stored, answers reads at once from the
    /// log, and returns every effect in the order it was applied (the effects
    /// a read or a delivery led to right after it).
    pub fn apply(
        &mut self,
        network: &mut Network,
        effects: Vec<Effect>,
        now: Timestamp,
    ) -> Vec<Effect> {
        let mut recording = Recording {
            host: self,
            done: Vec::new(),
        };
        let Ok(()) = apply_effects(network, effects, now, &mut recording);
        recording.done
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
