//! The second half of the pipeline of ONM §7 for an accepted event:
//! transforms, the network's own handling, observers (the built-in ones and
//! agents installed as observers); then logging, delivery and the ack.
//! An event that agent mods held ([`super::agent_mods`]) comes here once they decided.

use crate::error::Rejection;
use crate::event::Event;
use crate::event::metadata::ProtocolMetadata;
use crate::ids::address::Address;
use crate::ids::event_type::core_types;
use crate::ids::time::Timestamp;
use crate::model::membership::Member;
use crate::mods::JoinClaim;
use crate::network::delivery::routing;
use crate::network::effects::{Effect, Order};
use crate::network::engine::Network;
use crate::network::pipeline::parked::Carried;
use crate::network::pipeline::stages::Stage;
use crate::network::pushes::secrets;
use crate::network::{default_visibility, delivery, handlers};
use serde_json::Value;
use std::rc::Rc;

impl Network {
    /// Runs the transforms, the handler and the observers on `event`, then logs,
    /// delivers and acknowledges it. `revived` (a sign of life's effects) come before the mods'.
    pub(crate) fn complete(
        &mut self,
        mut event: Event,
        claim: Option<&JoinClaim>,
        metadata: &ProtocolMetadata,
        revived: Vec<Effect>,
        carried: Carried,
        now: Timestamp,
    ) -> Result<Vec<Effect>, Rejection> {
        let joining = event.event_type.as_str() == core_types::AGENT_JOIN;
        let mut staged = revived;
        staged.extend(self.run_stage(Stage::Transform, &mut event, now));
        // The handler alone sees a push target's secrets (the mods saw the event without them).
        secrets::restore_secrets(&mut event, carried.secrets);
        let mut outcome = handlers::handle(self, &event, claim, metadata, now)?;
        if joining && let Value::Object(payload) = &mut event.payload {
            // Secrets, tokens and proofs were for admission: never logged, observed or delivered.
            payload.remove("credentials");
        }
        // A push target's token and credentials are its requester's alone: out before logging.
        drop(secrets::take_secrets(&mut event));
        // Resolve recipients before anything is logged: an unroutable event changes nothing.
        let recipients = if outcome.route {
            routing::recipients(&self.state, &event)?
        } else {
            Vec::new()
        };
        staged.extend(self.run_stage(Stage::Observe, &mut event, now));
        if outcome.log {
            self.remember_for_changes(&event);
        }
        staged.extend(self.observe_agents(&event, now));
        // In order: the log entry, the handler's effects, the mods', the delivery, the ack,
        // then what follows the ack (a catch-up).
        let mut effects = Vec::with_capacity(outcome.effects.len() + staged.len() + 3);

        let event = Rc::new(event);
        let visibility = metadata
            .visibility
            .unwrap_or_else(|| default_visibility(&event.target));
        // Logged events are sequenced; without at-least-once they stay in the log only as history.
        let seq = if outcome.log {
            self.last_seq += 1;
            let seq = self.last_seq;
            self.dedupe.insert(event.id, seq);
            if self.at_least_once() || self.keeps_history {
                effects.push(Effect::Append {
                    seq,
                    event: Rc::clone(&event),
                    retain: self.keeps_history,
                    audiences: delivery::audiences_of(&self.state, &event, visibility),
                    links: carried
                        .placement
                        .as_ref()
                        .map(|p| p.links(seq))
                        .unwrap_or_default()
                        .into_iter()
                        .chain(self.change_links(&event, seq))
                        .collect(),
                });
            }
            Some(seq)
        } else {
            None
        };
        effects.append(&mut outcome.effects);
        effects.append(&mut staged);
        let mut to: Vec<Address> = recipients
            .into_iter()
            .filter(|to| {
                // Online implies a member: visibility need not look the member up again.
                self.state.members.get(to).is_some_and(Member::is_online)
                    && !self.tracker.catching_up.contains_key(to)
                    && routing::visible_to_known(&self.state, &event, visibility, to, true)
            })
            .collect();
        let order = match seq {
            Some(seq) if self.at_least_once() => {
                // A member at its bound of unacknowledged deliveries gets this one from the log later.
                let mut prev = Vec::with_capacity(to.len());
                let mut paused = Vec::new();
                let bytes = if to.is_empty() {
                    0
                } else {
                    event.encoded_len()
                };
                to.retain(|r| match self.tracker.deliver_live(r, seq, bytes, now) {
                    Some(p) => {
                        prev.push(p);
                        true
                    }
                    None => {
                        paused.push(r.clone());
                        false
                    }
                });
                for member in &paused {
                    effects.extend(self.tracker.catch_up_row(member).map(Effect::Store));
                }
                Some(Order { seq, prev })
            }
            _ => None,
        };
        if !to.is_empty() {
            effects.push(Effect::Deliver {
                to,
                event: Rc::clone(&event),
                order,
            });
        }
        if !outcome.no_ack {
            let mut ack = self.ack(&event, outcome.ack, now);
            ack.seq = seq;
            effects.push(Effect::Ack(ack));
        }
        effects.append(&mut outcome.after_ack);
        Ok(effects)
    }
}
