//! Hosted agents at work, sans-I/O: the agent loops of the LLM agents a
//! network hosts ([`crate::agent::hosted`]), fed what the network delivers
//! to them and acting as their members through the whole pipeline.
//!
//! The host (the edge's network object) hands every event delivered to a
//! hosted agent to [`HostedRuntime::delivered`] once it is committed, and
//! does the I/O the runtime returns ([`HostedIo`]): model calls with `fetch`
//! (the key put in the slot the call names, from the agent's own secret or
//! the deployment's), and a record of each turn under way, so a turn a
//! restart cut short is reported once ([`HostedRuntime::interrupted`]) and
//! never answered twice. Everything else — posts, activity, tool calls,
//! approvals — is an event the runtime sends as the agent ([`apply`]).
//!
//! * [`apply`] — one agent effect carried out as the agent's events
//! * [`admin`] — `v1/admin/agents`: add, change, remove and list them; the key kept aside

pub mod admin;
pub mod apply;
pub mod io;

pub use io::HostedIo;
use io::Loop;

use crate::agent::approve::ApprovalOutcome;
use crate::agent::hosted::{HostedAgent, tools_for};
use crate::agent::{Agent, AgentEffect, ModelResponse, Place, RequestId};
use crate::bindings::exchange::BindingHost;
use crate::event::metadata::ProtocolMetadata;
use crate::ids::address::Address;
use crate::ids::event_type::core_types;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::vocabulary::agents::AgentStop;
use crate::vocabulary::approvals::ApprovalDecision;
use crate::vocabulary::event_types::{AGENT_STOP, APPROVAL_DECIDED};
use crate::{Event, Network};
use serde::Deserialize;
use std::collections::BTreeMap;

/// How often a hosted agent's tools are read from the network again (ms).
const TOOLS_FRESH_MS: u64 = 10_000;

/// The loops of a network's hosted agents, made when first needed.
#[derive(Debug, Default)]
pub struct HostedRuntime {
    loops: BTreeMap<Address, Loop>,
}

/// The hosted agent at `address`, if the network hosts one there.
pub fn hosted<'a>(network: &'a Network, address: &Address) -> Option<&'a HostedAgent> {
    network
        .config()
        .hosted_agents
        .iter()
        .find(|h| &h.config.address == address)
}

impl HostedRuntime {
    /// Forgets `agent`'s loop (its configuration changed, or it left): the
    /// next event makes it anew.
    pub fn forget(&mut self, agent: &Address) {
        self.loops.remove(agent);
    }

    /// Whether `agent` has a loop in memory (events reached it since the host woke).
    pub fn is_awake(&self, agent: &Address) -> bool {
        self.loops.contains_key(agent)
    }

    /// Wakes `agent`'s loop with `history` (its conversations' messages from
    /// the log, oldest first), unless it is awake; false when it is not hosted.
    pub fn wake(&mut self, network: &Network, agent: &Address, history: &[Event]) -> bool {
        if self.loops.contains_key(agent) {
            return true;
        }
        let Some(hosted) = hosted(network, agent) else {
            return false;
        };
        let mut loop_ = Loop {
            agent: Agent::new(hosted.config.clone()),
            tool_names: BTreeMap::new(),
            tools_read_at: None,
            invocations: BTreeMap::new(),
            approvals: BTreeMap::new(),
            turns: BTreeMap::new(),
            streamed_at: BTreeMap::new(),
            posted: Vec::new(),
        };
        for event in history {
            loop_.agent.remember(event);
        }
        self.loops.insert(agent.clone(), loop_);
        true
    }

    /// An event the network delivered to the hosted agent `to` (committed):
    /// a message it may answer, a tool's result, an approval's decision, a
    /// Stop. Wake the loop first ([`Self::wake`]).
    pub fn delivered<H: BindingHost>(
        &mut self,
        host: &mut H,
        network: &mut Network,
        to: &Address,
        event: &Event,
    ) -> Result<Vec<HostedIo>, H::Error> {
        let Some(loop_) = self.loops.get_mut(to) else {
            return Ok(Vec::new());
        };
        let now = host.now();
        let kind = event.event_type.as_str();
        let effects = if kind == core_types::RESOURCE_INVOKE_RESULT {
            let answered = ProtocolMetadata::read(&event.metadata)
                .ok()
                .and_then(|m| m.in_reply_to);
            match answered.and_then(|id| loop_.invocations.remove(&id)) {
                Some(call) => {
                    loop_
                        .agent
                        .handle_tool_result(&call, apply::tool_outcome(&event.payload), now)
                }
                None => Vec::new(),
            }
        } else if kind == APPROVAL_DECIDED {
            let Ok(decided) = serde_json::from_value::<ApprovalDecision>(event.payload.clone())
            else {
                return Ok(Vec::new());
            };
            match loop_.approvals.remove(&decided.approval) {
                Some((call, _, _)) => {
                    let outcome = ApprovalOutcome {
                        decision: decided.decision,
                        edited: decided.edited,
                        by: Some(event.source.clone()),
                        reason: decided.reason,
                    };
                    loop_.agent.handle_approval(&call, outcome, now)
                }
                None => Vec::new(),
            }
        } else if kind == AGENT_STOP {
            let stop = AgentStop::deserialize(&event.payload).ok();
            // Only the person who asked stops an answer.
            match stop.and_then(|stop| loop_.turns.get(&stop.message)) {
                Some((place, asker)) if asker == &event.source => loop_.agent.cancel(place),
                _ => Vec::new(),
            }
        } else {
            refresh_tools(loop_, network, to, now);
            loop_.agent.handle_event(event, now)
        };
        let sources = Some((event.id, event.source.clone()));
        apply::all(host, network, to, loop_, effects, sources)
    }

    /// What came back of a model call.
    pub fn model_response<H: BindingHost>(
        &mut self,
        host: &mut H,
        network: &mut Network,
        agent: &Address,
        request: RequestId,
        response: ModelResponse,
    ) -> Result<Vec<HostedIo>, H::Error> {
        let Some(loop_) = self.loops.get_mut(agent) else {
            return Ok(Vec::new());
        };
        let effects = loop_
            .agent
            .handle_model_response(request, response, host.now());
        apply::all(host, network, agent, loop_, effects, None)
    }

    /// Approvals past their expiry: said `expired` where they were asked,
    /// and the loop told so.
    pub fn on_alarm<H: BindingHost>(
        &mut self,
        host: &mut H,
        network: &mut Network,
    ) -> Result<Vec<HostedIo>, H::Error> {
        let now = host.now();
        let mut io = Vec::new();
        for (agent, loop_) in &mut self.loops {
            let due: Vec<EventId> = loop_
                .approvals
                .iter()
                .filter(|(_, (_, _, at))| *at <= now)
                .map(|(id, _)| *id)
                .collect();
            for id in due {
                let Some((call, place, _)) = loop_.approvals.remove(&id) else {
                    continue;
                };
                apply::say_expired(host, network, agent, &place, id)?;
                let outcome = ApprovalOutcome {
                    decision: crate::vocabulary::approvals::Decision::Expired,
                    edited: None,
                    by: None,
                    reason: None,
                };
                let effects = loop_.agent.handle_approval(&call, outcome, now);
                io.extend(apply::all(host, network, agent, loop_, effects, None)?);
            }
        }
        Ok(io)
    }

    /// When the host must wake next for these loops (an approval's expiry).
    pub fn next_wakeup(&self) -> Option<Timestamp> {
        self.loops
            .values()
            .flat_map(|l| l.approvals.values().map(|(_, _, at)| *at))
            .min()
    }

    /// Says, as `agent`, that the turn answering `answers` in `place` was
    /// cut short (its host restarted): once, where the answer would have gone.
    pub fn interrupted<H: BindingHost>(
        &mut self,
        host: &mut H,
        network: &mut Network,
        agent: &Address,
        answers: EventId,
        place: &Place,
    ) -> Result<(), H::Error> {
        if hosted(network, agent).is_none() {
            return Ok(());
        }
        let effect = AgentEffect::Post {
            target: place.target.clone(),
            in_reply_to: place.thread,
            content: crate::agent::hosted::INTERRUPTED.to_owned(),
            answers: Some(answers),
            steps: Vec::new(),
            failed: true,
            task: None,
        };
        apply::post_as(host, network, agent, &effect)
    }
}

/// Reads the tools `agent` may call again when they are old.
fn refresh_tools(loop_: &mut Loop, network: &Network, agent: &Address, now: Timestamp) {
    if loop_
        .tools_read_at
        .is_some_and(|at| now.millis_since(at) < TOOLS_FRESH_MS)
    {
        return;
    }
    loop_.tools_read_at = Some(now);
    let (defs, names) = tools_for(network.state(), agent);
    loop_.tool_names = names;
    loop_.agent.set_tools(defs);
}

#[cfg(test)]
mod tests;
