//! Member agents installed as mods ([`crate::model::agent_mod`]) in the pipeline.
//!
//! After the built-in guards, an event that agent guards or transforms
//! intercept is parked: the network sends the first of them (guards, then
//! transforms, each by priority) a `network.mod.intercept`
//! `{intercept, mode, event, deadline}` and waits. The agent answers
//! `network.mod.verdict` `{intercept, verdict: "allow" | "reject" |
//! "rewrite", reason?, event?: {payload, metadata?}}`; guards allow or
//! reject, transforms allow or rewrite. The next mod gets the event as it
//! now stands; after the last, the pipeline goes on ([`Network::complete`])
//! and the sender gets its ack or error as a delivered event.
//!
//! An agent offline when its turn comes, or whose deadline passes first
//! (the host's alarm calls [`Network::on_alarm`] at [`Network::next_wakeup`]),
//! is handled by its policy: fail open goes on as if it allowed, fail closed
//! refuses the event with `mod_unavailable`. Observers get a
//! `network.mod.intercept` `{mode: "observe", event}` of each accepted event
//! and nobody waits for them. Parked events live in memory: a host restart
//! drops them unanswered, as it drops a connection.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::event::metadata::ProtocolMetadata;
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
use crate::model::agent_mod::{AgentMod, LatePolicy, ModMode, Verdict};
use crate::model::membership::Member;
use crate::network::effects::Effect;
use crate::network::engine::Network;
use serde_json::json;
use std::rc::Rc;

use super::parked::{Carried, Parked};
pub use super::parked::{INTERCEPT, MAX_PARKED, VERDICT};
use crate::ids::time::Timestamp;

impl Network {
    /// The agent guards and transforms that intercept `event`, in pipeline
    /// order; `None` when there are none. An agent's own events skip it.
    pub(crate) fn agent_chain(&self, event: &Event) -> Option<Vec<AgentMod>> {
        let mut chain: Vec<AgentMod> = self
            .config
            .agent_mods
            .iter()
            .filter(|m| m.mode != ModMode::Observe && m.agent != event.source)
            .filter(|m| m.intercepts(&event.event_type))
            .cloned()
            .collect();
        crate::sorting::sort_by_key(&mut chain, |m| (m.mode, m.priority));
        (!chain.is_empty()).then_some(chain)
    }

    /// Parks `event` and asks the first mod of `chain`.
    pub(crate) fn park(
        &mut self,
        event: Event,
        carried: Carried,
        chain: Vec<AgentMod>,
        now: Timestamp,
    ) -> Vec<Effect> {
        // A client resending while its event waits: the answer to the first is coming.
        if self
            .parked
            .by_intercept
            .values()
            .any(|p| p.event.id == event.id)
        {
            return Vec::new();
        }
        let parked = Parked {
            event,
            carried,
            chain,
            deadline: now,
        };
        self.ask_next(parked, now)
    }

    /// Asks the next mod in the chain, or goes on when none is left.
    fn ask_next(&mut self, mut parked: Parked, now: Timestamp) -> Vec<Effect> {
        loop {
            let Some(next) = parked.chain.first() else {
                return self.resume(parked, now);
            };
            let online = self
                .state
                .members
                .get(&next.agent)
                .is_some_and(Member::is_online);
            if online && self.parked.by_intercept.len() < MAX_PARKED {
                let agent = next.agent.clone();
                let deadline = now.plus_millis(next.deadline_ms);
                let mut intercept = self.core_event(INTERCEPT, &agent, None, json!({}), now);
                intercept.payload = json!({
                    "intercept": intercept.id,
                    "mode": next.mode,
                    "event": parked.event,
                    "deadline": deadline,
                });
                parked.deadline = deadline;
                self.parked.by_intercept.insert(intercept.id, parked);
                return vec![Effect::Deliver {
                    to: vec![agent],
                    event: Rc::new(intercept),
                    order: None,
                }];
            }
            match next.on_late {
                LatePolicy::FailOpen => {
                    parked.chain.remove(0);
                }
                LatePolicy::FailClosed => {
                    let message = format!("{} is offline: it decides on this event", next.agent);
                    return self.refuse(&parked, ErrorCode::ModUnavailable, message, now);
                }
            }
        }
    }

    /// The mods decided: the rest of the pipeline, its answer delivered to the sender.
    fn resume(&mut self, parked: Parked, now: Timestamp) -> Vec<Effect> {
        let sender = parked.event.source.clone();
        let id = parked.event.id;
        let result = ProtocolMetadata::read(&parked.event.metadata)
            .map_err(|e| Rejection::from(&e))
            .and_then(|metadata| {
                self.complete(
                    parked.event,
                    None,
                    &metadata,
                    Vec::new(),
                    parked.carried,
                    now,
                )
            });
        let effects = match result {
            Ok(effects) => effects,
            Err(rejection) => vec![Effect::Reply(self.error_event(
                &sender,
                Some(id),
                &rejection,
                now,
            ))],
        };
        // The input that led here is a verdict or the alarm: the sender's answer is delivered.
        effects
            .into_iter()
            .map(|effect| match effect.reply() {
                Some(reply) => Effect::Deliver {
                    to: vec![sender.clone()],
                    event: Rc::new(reply.into_owned()),
                    order: None,
                },
                None => effect,
            })
            .collect()
    }

    /// The event is refused: its sender gets the error.
    fn refuse(
        &mut self,
        parked: &Parked,
        code: ErrorCode,
        message: String,
        now: Timestamp,
    ) -> Vec<Effect> {
        let sender = parked.event.source.clone();
        let error = self.error_event(
            &sender,
            Some(parked.event.id),
            &Rejection::new(code, message),
            now,
        );
        vec![Effect::Deliver {
            to: vec![sender],
            event: Rc::new(error),
            order: None,
        }]
    }

    /// `network.mod.verdict` from the agent asked.
    pub(crate) fn verdict(
        &mut self,
        event: &Event,
        now: Timestamp,
    ) -> Result<Vec<Effect>, Rejection> {
        let intercept = event
            .payload
            .get("intercept")
            .and_then(|v| v.as_str())
            .and_then(|v| v.parse::<EventId>().ok())
            .ok_or_else(|| {
                Rejection::new(
                    ErrorCode::InvalidRequest,
                    "payload.intercept names the intercept",
                )
            })?;
        let asked = self
            .parked
            .by_intercept
            .get(&intercept)
            .and_then(|p| p.chain.first());
        let Some(asked) = asked.filter(|m| m.agent == event.source) else {
            return Err(Rejection::new(
                ErrorCode::NotFound,
                "no event waits for this verdict (decided, late or never asked)",
            ));
        };
        let verdict = Verdict::parse(&event.payload)
            .map_err(|m| Rejection::new(ErrorCode::InvalidRequest, m))?;
        let fits = matches!(
            (asked.mode, &verdict),
            (_, Verdict::Allow)
                | (ModMode::Guard, Verdict::Reject(_))
                | (ModMode::Transform, Verdict::Rewrite { .. })
        );
        if !fits {
            return Err(Rejection::new(
                ErrorCode::InvalidRequest,
                "guards allow or reject; transforms allow or rewrite",
            ));
        }
        let Some(mut parked) = self.parked.by_intercept.remove(&intercept) else {
            return Ok(Vec::new());
        };
        let agent = parked.chain.remove(0).agent;
        match verdict {
            Verdict::Allow => {}
            Verdict::Reject(reason) => {
                let message = format!("{agent} rejected it: {reason}");
                return Ok(self.refuse(&parked, ErrorCode::RejectedByMod, message, now));
            }
            Verdict::Rewrite { payload, metadata } => {
                let mut rewritten = parked.event.clone();
                rewritten.payload = payload;
                if let Some(metadata) = metadata {
                    rewritten.metadata = metadata;
                    rewritten.metadata.remove("delivery");
                    for key in crate::event::enrichment::ENRICHMENT_KEYS {
                        rewritten.metadata.remove(key);
                    }
                }
                // The rewritten event must pass the network's limits as the original did.
                if let Err(err) = Event::decode(&rewritten.encode(), &self.config.limits) {
                    let message = format!("{agent} rewrote it beyond the limits: {err}");
                    return Ok(self.refuse(&parked, ErrorCode::TooLarge, message, now));
                }
                parked.event = rewritten;
            }
        }
        Ok(self.ask_next(parked, now))
    }

    /// Parked events whose mod is late: handled by its policy.
    pub(crate) fn expire_verdicts(&mut self, now: Timestamp) -> Vec<Effect> {
        let late: Vec<EventId> = self
            .parked
            .by_intercept
            .iter()
            .filter(|(_, p)| p.deadline <= now)
            .map(|(id, _)| *id)
            .collect();
        let mut effects = Vec::new();
        for id in late {
            let Some(mut parked) = self.parked.by_intercept.remove(&id) else {
                continue;
            };
            let Some(late) = (!parked.chain.is_empty()).then(|| parked.chain.remove(0)) else {
                continue;
            };
            effects.extend(match late.on_late {
                LatePolicy::FailOpen => self.ask_next(parked, now),
                LatePolicy::FailClosed => {
                    let message = format!(
                        "{} gave no verdict within {} ms",
                        late.agent, late.deadline_ms
                    );
                    self.refuse(&parked, ErrorCode::ModUnavailable, message, now)
                }
            });
        }
        effects
    }

    /// When the next verdict is due, if one is awaited.
    pub(crate) fn next_verdict_due(&self) -> Option<Timestamp> {
        self.parked.by_intercept.values().map(|p| p.deadline).min()
    }

    /// Agent observers of `event`: each online one gets it, nobody waits.
    pub(crate) fn observe_agents(&mut self, event: &Event, now: Timestamp) -> Vec<Effect> {
        let observers: Vec<Address> = self
            .config
            .agent_mods
            .iter()
            .filter(|m| m.mode == ModMode::Observe && m.agent != event.source)
            .filter(|m| m.intercepts(&event.event_type))
            .filter(|m| {
                self.state
                    .members
                    .get(&m.agent)
                    .is_some_and(Member::is_online)
            })
            .map(|m| m.agent.clone())
            .collect();
        if observers.is_empty() {
            return Vec::new();
        }
        let mut intercept = self.core_event(INTERCEPT, &Address::core(), None, json!({}), now);
        intercept.payload = json!({
            "intercept": intercept.id,
            "mode": ModMode::Observe,
            "event": event,
        });
        let intercept = Rc::new(intercept);
        observers
            .into_iter()
            .map(|agent| {
                let mut copy = (*intercept).clone();
                copy.target = agent.clone();
                Effect::Deliver {
                    to: vec![agent],
                    event: Rc::new(copy),
                    order: None,
                }
            })
            .collect()
    }
}
