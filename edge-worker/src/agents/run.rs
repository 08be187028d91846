//! The hosted agents' loops fed and their I/O done: committed deliveries
//! drained into the runtime, model calls started, turns noted and ended,
//! and, once per object instance, the turns a restart cut short reported.

use crate::agents::store;
use crate::host::now_ms;
use crate::network::object::NetworkHost;
use agentnet_core::bindings::hosted::HostedIo;
use agentnet_core::{Address, Event, Network};
use worker::Result;

/// The messages of `history` that `agent` saw: to it, from it, or in a channel it is in.
fn seen_by(network: &Network, agent: &Address, history: Vec<Event>) -> Vec<Event> {
    let channels = &network.state().channels;
    history
        .into_iter()
        .filter(|e| {
            &e.target == agent
                || &e.source == agent
                || channels.values().any(|c| {
                    c.members.contains(agent)
                        && e.target.to_string() == format!("channel/{}", c.name)
                })
        })
        .collect()
}

impl NetworkHost {
    /// Hands committed deliveries to the hosted agents (at each commit, and
    /// at an alarm): in a task of its own, after the work at hand.
    pub(crate) fn start_hosted(&self) {
        let hosted = &self.hosted;
        if hosted.draining.get() || (hosted.recovered.get() && !hosted.has_queued()) {
            return;
        }
        if self.network.borrow().is_none() {
            return;
        }
        let Some(me) = self.me.upgrade() else {
            return;
        };
        hosted.draining.set(true);
        worker::wasm_bindgen_futures::spawn_local(async move {
            if let Err(err) = me.drain_hosted() {
                worker::console_error!("a hosted agent's work failed: {err}");
            }
            me.hosted.draining.set(false);
        });
    }

    /// Feeds every queued delivery to its agent's loop, until none is left.
    fn drain_hosted(&self) -> Result<()> {
        if !self.hosted.recovered.replace(true) {
            self.report_lost_turns()?;
        }
        loop {
            {
                let mut runtime = self.hosted.runtime.borrow_mut();
                for agent in self.hosted.take_stale() {
                    runtime.forget(&agent);
                }
            }
            let queued = self.hosted.take();
            if queued.is_empty() {
                return Ok(());
            }
            for (agent, event) in queued {
                let sql = self.state.storage().sql();
                let io = self.with_network(|io, network| {
                    let mut runtime = self.hosted.runtime.borrow_mut();
                    if !runtime.is_awake(&agent) {
                        let history = seen_by(network, &agent, store::recent_messages(&sql)?);
                        runtime.wake(network, &agent, &history);
                    }
                    runtime.delivered(io, network, &agent, &event)
                })?;
                self.hosted_io(io)?;
            }
        }
    }

    /// Does what the runtime asked.
    pub(crate) fn hosted_io(&self, io: Vec<HostedIo>) -> Result<()> {
        let sql = self.state.storage().sql();
        for step in io {
            match step {
                HostedIo::CallModel {
                    agent,
                    request,
                    url,
                    headers,
                    key,
                    body,
                } => self.start_model_call(agent, request, url, headers, key, body),
                HostedIo::AbortModel { agent, request } => {
                    if let Some(call) = self.hosted.calls.borrow_mut().remove(&(agent, request.0)) {
                        call.abort();
                    }
                }
                HostedIo::TurnStarted {
                    agent,
                    answers,
                    place,
                } => {
                    store::turn_started(&sql, &agent, answers, &place, now_ms())?;
                    self.hosted.turns.set(self.hosted.turns.get() + 1);
                }
                HostedIo::TurnEnded { agent, answers } => {
                    store::turn_ended(&sql, &agent, answers)?;
                    self.hosted
                        .turns
                        .set(self.hosted.turns.get().saturating_sub(1));
                }
            }
        }
        Ok(())
    }

    /// The turns noted as under way when this instance began were cut short
    /// (a restart or deploy): each is said once where its answer would go.
    fn report_lost_turns(&self) -> Result<()> {
        let sql = self.state.storage().sql();
        for (agent, answers, place) in store::turns(&sql)? {
            self.with_network(|io, network| {
                self.hosted
                    .runtime
                    .borrow_mut()
                    .interrupted(io, network, &agent, answers, &place)
            })?;
            store::turn_ended(&sql, &agent, answers)?;
        }
        Ok(())
    }

    /// Expired approvals of the hosted agents (at an alarm).
    pub(crate) fn hosted_alarm(&self) -> Result<()> {
        let io = self
            .with_network(|io, network| self.hosted.runtime.borrow_mut().on_alarm(io, network))?;
        self.hosted_io(io)?;
        self.start_hosted();
        Ok(())
    }

    /// When the hosted agents need the object next: an approval's expiry,
    /// or a look at a turn under way (which a restart would have cut short).
    pub(crate) fn hosted_wakeup(&self) -> Option<u64> {
        let watch = (self.hosted.turns.get() > 0).then(|| now_ms() + crate::agents::TURN_WATCH_MS);
        [self.hosted.runtime.borrow().next_wakeup(), watch]
            .into_iter()
            .flatten()
            .min()
    }

    /// The provider key `agent` calls with: its own, else the deployment's.
    pub(crate) fn provider_key(&self, agent: &Address) -> Result<Option<String>> {
        if let Some(own) = store::key(&self.state.storage().sql(), agent)? {
            return Ok(Some(own));
        }
        Ok(self.deployment_key())
    }

    /// The deployment's provider key (the Worker secret), if set.
    pub(crate) fn deployment_key(&self) -> Option<String> {
        let var = agentnet_core::agent::hosted::DEPLOYMENT_KEY_VAR;
        self.env
            .secret(var)
            .map(|s| s.to_string())
            .or_else(|_| self.env.var(var).map(|v| v.to_string()))
            .ok()
            .filter(|k| !k.is_empty())
    }
}
