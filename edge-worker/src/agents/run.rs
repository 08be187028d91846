//! The hosted agents' loops fed and their I/O done: committed deliveries
//! drained into the runtime, model calls started, turns noted and ended,
//! and, once per object instance, the turns a restart cut short reported.

use crate::agents::HostedLive;
use crate::agents::store;
use crate::host::{now, now_ms};
use crate::network::component::Component;
use crate::network::object::NetworkHost;
use agentnet_core::bindings::hosted::HostedIo;
use agentnet_core::network::Effect;
use agentnet_core::{Address, Event, Network, Timestamp};
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

/// Feeds every queued delivery to its agent's loop, until none is left.
fn drain_hosted(host: &NetworkHost) -> Result<()> {
    // (Called from a task of its own: the network is not borrowed here.)
    if host.network.borrow().is_none() {
        return Ok(());
    }
    if !host.live.hosted.recovered.get() {
        report_lost_turns(host)?;
        host.live.hosted.recovered.set(true);
    }
    loop {
        {
            let mut runtime = host.live.hosted.runtime.borrow_mut();
            for agent in host.live.hosted.take_stale() {
                runtime.forget(&agent);
            }
        }
        let queued = host.live.hosted.take();
        if queued.is_empty() {
            return Ok(());
        }
        // What is being delivered now is news, not memory, though the log has it.
        let news: Vec<agentnet_core::EventId> = queued.iter().map(|(_, e)| e.id).collect();
        for (agent, event) in queued {
            deliver_queued(host, &agent, &event, &news)?;
        }
    }
}

/// One queued event to its hosted agent (woken first with what it has seen,
/// less `news`). A function of its own (`#[inline(never)]`): every network
/// object runs [`drain_hosted`] when it loads, and V8 then compiles only
/// this much of it for a network without hosted agents (BENCHMARKS.md,
/// "Memory at the peer's").
#[inline(never)]
fn deliver_queued(
    host: &NetworkHost,
    agent: &Address,
    event: &Event,
    news: &[agentnet_core::EventId],
) -> Result<()> {
    let sql = host.state.storage().sql();
    let io = host.with_network(|io, network| {
        let mut runtime = host.live.hosted.runtime.borrow_mut();
        if !runtime.is_awake(agent) {
            let mut history = seen_by(network, agent, store::recent_messages(&sql)?);
            history.retain(|e| !news.contains(&e.id));
            runtime.wake(network, agent, &history);
        }
        runtime.delivered(io, network, agent, event)
    })?;
    host.live.hosted.hosted_io(host, io)
}

/// The turns noted as under way when this instance began were cut short
/// (a restart or deploy): each is said once where its answer would go.
fn report_lost_turns(host: &NetworkHost) -> Result<()> {
    let sql = host.state.storage().sql();
    for (agent, answers, place) in store::turns(&sql)? {
        host.with_network(|io, network| {
            host.live
                .hosted
                .runtime
                .borrow_mut()
                .interrupted(io, network, &agent, answers, &place)
        })?;
        store::turn_ended(&sql, &agent, answers)?;
    }
    Ok(())
}

impl Component<NetworkHost> for HostedLive {
    /// A delivery to a hosted agent is taken at commit: it counts as
    /// acknowledged as written. A changed configuration changes the agents.
    fn observe(&self, effect: &Effect, taken: &mut Vec<Address>) {
        match effect {
            Effect::Deliver { to, event, .. } => taken.extend(self.queue(to, event)),
            Effect::StoreConfig(config) => self.set_configs(&config.hosted_agents),
            _ => {}
        }
    }

    /// Hosted agents take what was delivered to them.
    fn committed(&self, host: &NetworkHost) {
        host.live.hosted.start_hosted(host);
    }
}

/// The binding's entries, called by the object (`crate::network::http`, `object`) and its other files.
impl HostedLive {
    /// Does what the runtime asked.
    pub(crate) fn hosted_io(&self, host: &NetworkHost, io: Vec<HostedIo>) -> Result<()> {
        let sql = host.state.storage().sql();
        for step in io {
            match step {
                HostedIo::CallModel {
                    agent,
                    request,
                    url,
                    headers,
                    key,
                    body,
                } => crate::agents::model::start_model_call(
                    host, agent, request, url, headers, key, body,
                ),
                HostedIo::AbortModel { agent, request } => {
                    if let Some(call) = host
                        .live
                        .hosted
                        .calls
                        .borrow_mut()
                        .remove(&(agent, request.0))
                    {
                        call.abort();
                    }
                }
                HostedIo::TurnStarted {
                    agent,
                    answers,
                    place,
                } => {
                    store::turn_started(&sql, &agent, answers, &place, now_ms())?;
                    host.live.hosted.turns.set(host.live.hosted.turns.get() + 1);
                    // An alarm watches the turn, so a restart is noticed without any traffic.
                    if let Some(me) = host.me.upgrade() {
                        worker::wasm_bindgen_futures::spawn_local(async move {
                            if let Err(err) = me.schedule_alarm().await {
                                worker::console_error!(
                                    "setting a hosted turn's alarm failed: {err}"
                                );
                            }
                        });
                    }
                }
                HostedIo::TurnEnded { agent, answers } => {
                    store::turn_ended(&sql, &agent, answers)?;
                    host.live
                        .hosted
                        .turns
                        .set(host.live.hosted.turns.get().saturating_sub(1));
                }
            }
        }
        Ok(())
    }

    /// The provider key `agent` calls with: its own, else the deployment's.
    pub(crate) fn provider_key(
        &self,
        host: &NetworkHost,
        agent: &Address,
    ) -> Result<Option<String>> {
        if let Some(own) = store::key(&host.state.storage().sql(), agent)? {
            return Ok(Some(own));
        }
        Ok(host.live.hosted.deployment_key(host))
    }

    /// Hands committed deliveries to the hosted agents (at each commit, and
    /// at an alarm): in a task of its own, after the work at hand.
    pub(crate) fn start_hosted(&self, host: &NetworkHost) {
        let hosted = &host.live.hosted;
        if hosted.draining.get() || (hosted.recovered.get() && !hosted.has_queued()) {
            return;
        }
        let Some(me) = host.me.upgrade() else {
            return;
        };
        hosted.draining.set(true);
        worker::wasm_bindgen_futures::spawn_local(async move {
            if let Err(err) = drain_hosted(&me) {
                worker::console_error!("a hosted agent's work failed: {err}");
            }
            me.live.hosted.draining.set(false);
        });
    }

    /// Expired approvals of the hosted agents (at an alarm).
    pub(crate) fn hosted_alarm(&self, host: &NetworkHost) -> Result<()> {
        let io = host.with_network(|io, network| {
            host.live.hosted.runtime.borrow_mut().on_alarm(io, network)
        })?;
        host.live.hosted.hosted_io(host, io)?;
        host.live.hosted.start_hosted(host);
        Ok(())
    }

    /// When the hosted agents need the object next: an approval's expiry,
    /// or a look at a turn under way (which a restart would have cut short).
    pub(crate) fn hosted_wakeup(&self, host: &NetworkHost) -> Option<Timestamp> {
        let watch = (host.live.hosted.turns.get() > 0)
            .then(|| now().plus_millis(crate::agents::TURN_WATCH_MS));
        [host.live.hosted.runtime.borrow().next_wakeup(), watch]
            .into_iter()
            .flatten()
            .min()
    }

    /// The deployment's provider key (the Worker secret), if set.
    pub(crate) fn deployment_key(&self, host: &NetworkHost) -> Option<String> {
        let var = agentnet_core::agent::hosted::DEPLOYMENT_KEY_VAR;
        host.env
            .secret(var)
            .map(|s| s.to_string())
            .or_else(|_| host.env.var(var).map(|v| v.to_string()))
            .ok()
            .filter(|k| !k.is_empty())
    }
}
