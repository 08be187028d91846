//! A host that keeps what a Durable Object keeps — state rows, the log and
//! its link rows — so a test can restart the network from them, as after
//! the object slept, was evicted or redeployed: nothing in memory survives.

use super::*;
use crate::model::graph::{self, GraphIndex};
use crate::model::graph_memory::MemoryGraph;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The stored rows and log, shared by the network (as its index) and the test.
#[derive(Clone, Default)]
pub(super) struct Durable {
    log: Rc<RefCell<MemoryGraph>>,
    rows: Rc<RefCell<BTreeMap<(RowKind, String), Row>>>,
    last_seq: Rc<RefCell<u64>>,
}

impl Durable {
    /// A network with these mods (`mod/persistence` among them, to keep its
    /// log), indexed by this host.
    pub(super) fn network(&self, mods: Vec<ModConfig>) -> Network {
        let mut network = network_with(mods);
        network.set_event_index(Box::new(self.clone()));
        network
    }

    /// The same network started again from what was stored.
    pub(super) fn restart(&self, network: &Network) -> Network {
        let rows: Vec<Row> = self.rows.borrow().values().cloned().collect();
        let mut again = Network::new(
            network.config().clone(),
            rows,
            *self.last_seq.borrow(),
            [7; 32],
        );
        again.set_event_index(Box::new(self.clone()));
        again
    }

    /// `name` joins `network`; its member row is stored.
    pub(super) fn join(&self, network: &mut Network, name: &str) -> Peer {
        let (peer, effects) = join_recorded(network, name, json!({}));
        self.applied(effects);
        peer
    }

    /// Stores what `effects` store, as the host applies them; answers them back.
    pub(super) fn applied(&self, effects: Vec<Effect>) -> Vec<Effect> {
        for effect in &effects {
            match effect {
                Effect::Append {
                    seq, event, links, ..
                } => {
                    let mut log = self.log.borrow_mut();
                    log.add_links(links);
                    log.append(*seq, (**event).clone(), None);
                    *self.last_seq.borrow_mut() = *seq;
                }
                Effect::Store(row) => {
                    self.rows
                        .borrow_mut()
                        .insert((row.kind(), row.key()), row.clone());
                }
                Effect::Remove { kind, key } => {
                    self.rows.borrow_mut().remove(&(*kind, key.clone()));
                }
                _ => {}
            }
        }
        effects
    }
}

impl EventIndex for Durable {
    fn seq_of(&self, id: &crate::ids::ulid::EventId) -> Option<u64> {
        self.log.borrow().seq_of(id)
    }
    fn graph(&self) -> Option<&dyn GraphIndex> {
        Some(self)
    }
}

impl GraphIndex for Durable {
    fn linked(
        &self,
        key: &str,
        after: u64,
        before: u64,
        limit: usize,
        end: graph::End,
    ) -> Vec<u64> {
        self.log.borrow().linked(key, after, before, limit, end)
    }
    fn count(&self, key: &str) -> u64 {
        self.log.borrow().count(key)
    }
    fn contains(&self, key: &str, seq: u64) -> bool {
        self.log.borrow().contains(key, seq)
    }
    fn events(&self, seqs: &[u64]) -> Vec<(u64, Event)> {
        self.log.borrow().events(seqs)
    }
}
