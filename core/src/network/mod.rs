//! The network state machine: admits members and runs every event through
//! the pipeline of ONM §7 — checks, guards, transforms, the network's
//! own handling, observers — then routes it (§6).
//!
//! A host owns one [`Network`] and feeds it frames with
//! [`Network::handle_frame`], passing the connection's authenticated address
//! and the time. The network never does I/O: it returns [`Effect`]s — events
//! to deliver, rows to store, connections to bind — that the host applies
//! in order. Restoring is cheap: configuration, state rows and the last
//! sequence number; never the event log.
//!
//! | module | what |
//! |---|---|
//! | [`engine`] | the [`Network`] struct, restoring it, accessors |
//! | this module | [`Network::handle_frame`], [`Network::handle_event`] and `accept`: the pipeline |
//! | [`members`] | admission (who may join and send; key proofs; challenges), verification levels 2 and 3, presence, the shield ([`Inbound`]; throttles on failed joins and challenges), DIDWba nonces |
//! | [`network_only`] | the event types only the network emits (refused from members) |
//! | [`pipeline`] | the rest of an accepted event's way: agent mods, transforms, observers, mod commands, completion |
//! | [`handlers`] | the network's own handling of `network.*` events, by area |
//! | [`delivery`] | recipients and visibility; delivery chains; cursors, catch-up pages and the bound on unacknowledged deliveries; acks |
//! | [`log`] | catch-up, pages and history queries over the host's log; retention; dedupe; the message graph (`refs` checked, an event's place) |
//! | [`messages`] | edits, deletions and reactions checked against the message's author and place, from the log |
//! | [`documents`] | shared documents: who keeps them (the network itself with feature `documents`, or its host elsewhere), the asks and answers |
//! | [`pushes`] | the queue of tasks' push notifications and a `task.push`'s secrets, kept from every mod |
//! | [`discovery`] | `network.discovery.query` answered over the members and the registry |
//! | [`effects`] | what the host must do: [`Effect`], [`ReadRequest`], [`Page`] |
//! | [`wakeup`], [`floor`] | when the network next needs its host's alarm |

mod delivery;
mod discovery;
pub mod documents;
pub mod effects;
mod engine;
mod floor;
mod handlers;
mod log;
pub mod members;
pub mod messages;
pub mod network_only;
pub mod pipeline;
mod pushes;
mod wakeup;

pub use delivery::ack::Ack;
pub use delivery::routing::{default_visibility, logged_visible_to, visible_to};
pub use delivery::tracker::{
    CATCH_UP_PAGE, MAX_IN_FLIGHT, MAX_IN_FLIGHT_BYTES, REDELIVERY_TIMEOUT_MS,
};
pub use delivery::{DEDUPE_WINDOW, EventIndex, FrameTemplate, NoIndex, delivery_frame};
pub use discovery::RegistryAnswer;
pub use documents::ask::{
    DocumentAnswer, DocumentAsk, DocumentMessage, DocumentOp, DocumentRefusal, DocumentText,
};
pub use effects::{DiscoveryAsk, Effect, LogFilter, Order, Page, ReadRequest, ReadRows, Reader};
pub use engine::Network;
pub use handlers::{
    DEFAULT_INVITATION_TTL_MS, MAX_OPEN_TASKS, admin_actions, admin_types, invitations, task_types,
};
pub use log::reads::MAX_READ_LIMIT;
pub use log::retention::MAX_PRUNED_PER_RUN;
pub use members::shield::{CHALLENGES, FAILED_JOINS, Inbound};

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::event::metadata::ProtocolMetadata;
use crate::event::trace::TraceContext;
use crate::ids::address::Address;
use crate::ids::event_type::core_types;
use crate::ids::time::Timestamp;
use crate::mods::JoinClaim;
use engine::anonymous;
use serde_json::{Map, Value};

impl Network {
    /// Handles one frame from a connection authenticated as `session` (or not yet joined).
    pub fn handle_frame(
        &mut self,
        session: Option<&Address>,
        frame: &str,
        now: Timestamp,
    ) -> Vec<Effect> {
        self.handle_frame_on(&Inbound::session(session), frame, now)
    }

    /// Handles one frame that came in as `inbound` says.
    pub fn handle_frame_on(
        &mut self,
        inbound: &Inbound<'_>,
        frame: &str,
        now: Timestamp,
    ) -> Vec<Effect> {
        match Event::decode(frame, &self.config.limits) {
            Ok(event) => self.handle_event_on(inbound, event, now),
            Err(err) => {
                let to = inbound.session.cloned().unwrap_or_else(anonymous);
                // Name the refused event when its id can still be read (a payload over the
                // limit, a bad target…), so the sender knows which one failed and stops resending it.
                let refused = serde_json::from_str::<Value>(frame).ok().and_then(|v| {
                    v.get("id")?
                        .as_str()?
                        .parse::<crate::ids::ulid::EventId>()
                        .ok()
                });
                vec![Effect::Reply(self.error_event(
                    &to,
                    refused,
                    &(&err).into(),
                    now,
                ))]
            }
        }
    }

    /// Handles one decoded event from a connection authenticated as `session`.
    pub fn handle_event(
        &mut self,
        session: Option<&Address>,
        event: Event,
        now: Timestamp,
    ) -> Vec<Effect> {
        self.handle_event_on(&Inbound::session(session), event, now)
    }

    /// Handles one decoded event that came in as `inbound` says. A join that
    /// fails counts against its source ([`shield`]).
    pub fn handle_event_on(
        &mut self,
        inbound: &Inbound<'_>,
        event: Event,
        now: Timestamp,
    ) -> Vec<Effect> {
        let reply_to = inbound
            .session
            .cloned()
            .unwrap_or_else(|| event.source.clone());
        let id = event.id;
        let joining = event.event_type.as_str() == core_types::AGENT_JOIN;
        // What this event causes carries its trace (its own, else the request's).
        let trace = TraceContext::from_metadata(&event.metadata)
            .ok()
            .flatten()
            .or_else(|| self.ambient_trace.clone());
        let outer = std::mem::replace(&mut self.cause, trace.map(|t| t.caused_by(id)));
        let effects = match self.accept(inbound, event, now) {
            Ok(effects) => effects,
            Err(rejection) => {
                if joining && rejection.code != ErrorCode::RateLimited {
                    self.shield.join_failed(inbound.source().as_ref(), now);
                }
                vec![Effect::Reply(self.error_event(
                    &reply_to,
                    Some(id),
                    &rejection,
                    now,
                ))]
            }
        };
        self.cause = outer;
        effects
    }

    /// The reply refusing an event `request` from `to` before it reached
    /// the network (a host's own check, such as a join on the wrong gateway).
    pub fn refused_by_host(
        &mut self,
        to: &Address,
        request: Option<crate::ids::ulid::EventId>,
        rejection: &Rejection,
        now: Timestamp,
    ) -> Effect {
        Effect::Reply(self.error_event(to, request, rejection, now))
    }

    /// Runs `work` as part of a request whose transport carried the trace
    /// context `trace` (a binding's `traceparent` header): events accepted
    /// meanwhile without a context of their own get this one.
    pub fn traced<T>(
        &mut self,
        trace: Option<TraceContext>,
        work: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let outer = std::mem::replace(&mut self.ambient_trace, trace);
        let result = work(self);
        self.ambient_trace = outer;
        result
    }

    /// The pipeline of ONM §7 for one event: checks, guards, transforms,
    /// the network's own handling, observers; then logging, delivery and the ack.
    fn accept(
        &mut self,
        inbound: &Inbound<'_>,
        mut event: Event,
        now: Timestamp,
    ) -> Result<Vec<Effect>, Rejection> {
        let session = inbound.session;
        match &event.network {
            Some(network) if network != &self.config.id => {
                return Err(Rejection::new(
                    ErrorCode::WrongNetwork,
                    format!("event is for network {network}, this is {}", self.config.id),
                ));
            }
            _ => event.network = Some(self.config.id.clone()),
        }
        // `metadata.delivery` is the network's to write, per recipient: a
        // sender's own would reach recipients of unlogged events as if it were.
        // So are who sent it and when it arrived (`mod/enrichment` writes them).
        event.metadata.remove("delivery");
        for key in crate::event::enrichment::ENRICHMENT_KEYS {
            event.metadata.remove(key);
        }
        // Who answers first and who delegated are marks only the network sets, on every type.
        for key in crate::mods::workspace::NETWORK_MARKS {
            event.metadata.remove(key);
        }
        // The time is when the network accepted it: a sender's clock neither dates nor orders it.
        event.timestamp = now;
        let event_type = event.event_type.as_str();
        if event_type != core_types::AGENT_JOIN
            && let Some(seq) = self.dedupe.seq_of(&event.id).or_else(|| {
                // The host's index is only asked about ids that may have left the window.
                if self.dedupe.may_be_outside(&event.id) {
                    self.index.seq_of(&event.id)
                } else {
                    None
                }
            })
        {
            // A resubmission: answer with the original ack and change nothing.
            let mut ack = self.ack(&event, Map::new(), now);
            ack.seq = Some(seq);
            ack.duplicate = true;
            return Ok(vec![Effect::Ack(ack)]);
        }
        // Only admission is throttled by source: other frames need not name it.
        let joining = event_type == core_types::AGENT_JOIN;
        let source = if joining || event_type == core_types::AGENT_CHALLENGE {
            inbound.source()
        } else {
            None
        };
        if event_type == core_types::AGENT_CHALLENGE {
            self.shield.may_challenge(source.as_ref(), now)?;
            return self.issue_challenge(inbound, &event, now);
        }
        if self.config.guest_overreaches(&event.source, event_type) {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!(
                    "{} is the A2A guest: it takes part in tasks only",
                    event.source
                ),
            ));
        }
        if joining && self.state.remotes.contains_key(&event.source) {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!(
                    "{} is an external A2A agent: nobody joins as it",
                    event.source
                ),
            ));
        }
        if joining {
            self.shield.may_join(source.as_ref(), now)?;
            self.check_joiner(session, &event)?;
        } else {
            self.check_sender(session, &event)?;
        }
        let metadata = ProtocolMetadata::read(&event.metadata).map_err(|e| Rejection::from(&e))?;
        if metadata.trace.is_none()
            && let Some(trace) = &self.ambient_trace
        {
            trace.write(&mut event.metadata);
        }
        // Any accepted frame is a sign of life.
        let revived = if joining {
            Vec::new()
        } else {
            self.heartbeat_if_offline(&event.source, now)
        };
        if let Some(visibility) = metadata.visibility {
            delivery::routing::check_visibility(&event.target, visibility)?;
        }
        let placement = self.place_in_graph(&event, &metadata.refs)?;
        let claim = if joining {
            let (verification, did) = self.verify_join(inbound, &event, now)?;
            Some(JoinClaim {
                address: event.source.clone(),
                verification,
                did,
                from: source,
            })
        } else {
            None
        };
        // A push target's secrets are for the network's deliveries: no mod sees them.
        let carried = pipeline::parked::Carried {
            placement,
            secrets: pushes::secrets::take_secrets(&mut event),
        };
        let (guarded, _, _) = self.with_mods(now, claim.as_ref(), |pipeline, cx, _| {
            pipeline.guard(cx, &event)
        });
        guarded?;
        // Permissions a resource declares hold whatever mods are loaded.
        crate::mods::check_resource_permissions(&self.state, &event)?;
        // So do the rules of changing a message: whose it is is the network's to say.
        self.check_message_change(&event)?;
        if let Some(claim) = &claim {
            // After the guards: a stranger without the network's token learns nothing of its members.
            self.check_owner(session, &event, claim.verification, claim.did.as_deref())?;
        }

        // Agent mods (guards, transforms) decide before the rest: the event waits for their verdicts.
        if let Some(chain) = self.agent_chain(&event) {
            let mut effects = revived;
            effects.extend(self.park(event, carried, chain, now));
            return Ok(effects);
        }
        self.complete(event, claim.as_ref(), &metadata, revived, carried, now)
    }
}

#[cfg(test)]
mod tests;
