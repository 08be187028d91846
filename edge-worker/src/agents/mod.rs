//! Hosted agents' I/O inside the network object: the LLM agents a master
//! added run here, with no agent process anywhere
//! (`agentnet_core::bindings::hosted` decides; this folder does the I/O).
//!
//! Deliveries to a hosted agent are noted as they are applied
//! ([`HostedLive::queue`]) and handed to its loop once committed; its model
//! calls are `fetch`es through the outbound policy with the key put in the
//! one header the call names — the agent's own key from [`store`], else the
//! deployment's Worker secret `AGENTNET_MODEL_KEY` — and streamed back in.
//! Between turns nothing runs: the object may sleep. A turn under way is a
//! row until it ends; a woken object finds the rows a restart cut short and
//! says so once in each conversation ([`run`]).
//!
//! * [`store`] — the keys and the turns under way in SQLite
//! * [`run`] — the loops fed, their I/O done, lost turns reported
//! * [`model`] — one model call: fetch, stream, report

pub mod model;
pub mod run;
pub mod store;

use agentnet_core::agent::AgentConfig;
use agentnet_core::agent::hosted::HostedAgent;
use agentnet_core::bindings::hosted::HostedRuntime;
use agentnet_core::{Address, Event};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// How long a turn under way may go without a sign of life before the
/// object checks it is still running (ms): an alarm then, which a restarted
/// object answers by reporting the turn.
pub(crate) const TURN_WATCH_MS: u64 = 20_000;

/// What the object keeps for its hosted agents between events.
#[derive(Default)]
pub(crate) struct HostedLive {
    /// The agents' loops.
    pub(crate) runtime: RefCell<HostedRuntime>,
    /// The hosted agents' configurations (from the network's).
    configs: RefCell<BTreeMap<Address, AgentConfig>>,
    /// Agents whose configuration changed: their loops are made anew.
    stale: RefCell<BTreeSet<Address>>,
    /// Deliveries to hosted agents waiting for their commit.
    queued: RefCell<Vec<(Address, Rc<Event>)>>,
    /// Model calls under way, by agent and call, to abort them.
    pub(crate) calls: RefCell<BTreeMap<(Address, u64), worker::AbortController>>,
    /// Turns under way in this instance.
    pub(crate) turns: Cell<usize>,
    /// The turns a restart cut short were looked for in this instance.
    pub(crate) recovered: Cell<bool>,
    /// A drain of the queue is running.
    pub(crate) draining: Cell<bool>,
}

impl HostedLive {
    /// The network's hosted agents are these (its configuration was loaded
    /// or changed): a changed or removed agent's loop is made anew or dropped
    /// at the next drain ([`Self::take_stale`]).
    pub(crate) fn set_configs(&self, agents: &[HostedAgent]) {
        let configs: BTreeMap<Address, AgentConfig> = agents
            .iter()
            .map(|h| (h.config.address.clone(), h.config.clone()))
            .collect();
        let mut stale = self.stale.borrow_mut();
        for (agent, config) in self.configs.borrow().iter() {
            if configs.get(agent) != Some(config) {
                stale.insert(agent.clone());
            }
        }
        *self.configs.borrow_mut() = configs;
    }

    /// The agents whose loops are out of date.
    pub(crate) fn take_stale(&self) -> BTreeSet<Address> {
        std::mem::take(&mut *self.stale.borrow_mut())
    }

    /// The hosted agents.
    pub(crate) fn addresses(&self) -> Vec<Address> {
        self.configs.borrow().keys().cloned().collect()
    }

    /// Notes a delivery for the hosted agents among `to`; returns them.
    pub(crate) fn queue(&self, to: &[Address], event: &Rc<Event>) -> Vec<Address> {
        let configs = self.configs.borrow();
        if configs.is_empty() {
            return Vec::new();
        }
        let hosted: Vec<Address> = to
            .iter()
            .filter(|a| configs.contains_key(*a))
            .cloned()
            .collect();
        let mut queued = self.queued.borrow_mut();
        for agent in &hosted {
            queued.push((agent.clone(), event.clone()));
        }
        hosted
    }

    /// The deliveries noted so far.
    pub(crate) fn take(&self) -> Vec<(Address, Rc<Event>)> {
        std::mem::take(&mut *self.queued.borrow_mut())
    }

    /// Whether deliveries wait.
    pub(crate) fn has_queued(&self) -> bool {
        !self.queued.borrow().is_empty()
    }
}
