//! The master as a thread's first responder, and delegation (ONM §7,
//! §12: the master agent is a thread-level attribute; `mod/workspace` does
//! delegation).
//!
//! * **First responder.** A message (`workspace.message.posted`) to a session
//!   with a master, or to `agent:broadcast` when the network names a master
//!   (`mod/workspace`'s `master` setting), that names no addressee
//!   (`metadata.mentions`) gets `metadata.first_responder`: the master, who
//!   answers it or delegates it. The master is made a participant of the
//!   session. The master's own messages get none.
//! * **Delegation.** The first responder of a message, its session's master
//!   or a master of the network sends `workspace.message.delegated`
//!   `{message, note?}` to another member: the delegate joins the session and
//!   the event carries `metadata.delegation` `{message, from, place}`.
//! * **The reply routed back.** A `workspace.message.*` from the delegate with
//!   `metadata.in_reply_to` naming the delegation goes to where the message was
//!   asked (the session channel, `agent:broadcast`, or the person who asked it
//!   directly), as a reply to that message (`in_reply_to`), with
//!   `metadata.delegation` `{id, from}` naming the delegation and its delegator.
//!
//! The network remembers the last [`REMEMBERED`] messages in memory, a cache
//! in front of its log: a message older than that, or from before a restart,
//! is read back from the log ([`crate::mods::LoggedEvents`]), so any message
//! the log keeps can be delegated. The last [`MAX_DELEGATIONS`] delegations
//! are saved with the mod's state.

use super::sessions::Sessions;
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::{Address, Entity};
use crate::ids::standing::Role;
use crate::ids::ulid::EventId;
use crate::mods::api::Context;
use crate::vocabulary::event_types::MESSAGE_POSTED;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};

/// The metadata naming who answers a message first.
pub const FIRST_RESPONDER: &str = "first_responder";
/// The metadata naming a message's addressees.
pub const MENTIONS: &str = "mentions";
/// The metadata of a delegation and of the replies it routes back.
pub const DELEGATION: &str = "delegation";
/// Messages remembered in memory for delegation (older ones are read from the log).
pub const REMEMBERED: usize = 1024;
/// Delegations remembered for routing replies back.
pub const MAX_DELEGATIONS: usize = 256;

/// A message the network remembers.
#[derive(Debug, Clone, PartialEq)]
struct Posted {
    /// Where an answer to it goes.
    place: Address,
    /// Who answers it first, when someone does.
    responder: Option<Address>,
    /// The master of its session, when it was posted in one.
    session_master: Option<Address>,
}

/// A delegation: who handed which message to whom, and where answers go.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Delegation {
    /// The message delegated.
    pub message: EventId,
    /// The delegator.
    pub from: Address,
    /// The delegate.
    pub to: Address,
    /// Where the delegate's answers go.
    pub place: Address,
}

/// What `mod/workspace` remembers of threads.
#[derive(Debug, Default)]
pub struct Threads {
    /// The last messages, oldest first: a ring, cheap to add to on every
    /// message and searched only when one is delegated.
    posted: VecDeque<(EventId, Posted)>,
    /// Delegations by the id of their `workspace.message.delegated`, oldest first in `delegation_order`.
    pub delegations: BTreeMap<EventId, Delegation>,
    delegation_order: VecDeque<EventId>,
}

fn in_reply_to(event: &Event) -> Option<EventId> {
    event
        .metadata
        .get("in_reply_to")
        .and_then(Value::as_str)
        .and_then(|id| id.parse().ok())
}

/// Where answers to `event` go: its channel or `agent:broadcast`, else (a
/// direct message) back to its sender.
fn place_of(event: &Event) -> Address {
    match event.target.entity() {
        Entity::Channel(_) | Entity::Broadcast => event.target.clone(),
        _ => event.source.clone(),
    }
}

fn named_addressee(event: &Event) -> bool {
    event
        .metadata
        .get(MENTIONS)
        .and_then(Value::as_array)
        .is_some_and(|m| !m.is_empty())
}

impl Threads {
    /// The delegation a delegate's event answers, when it answers one.
    pub fn answered(&self, event: &Event) -> Option<(EventId, &Delegation)> {
        let id = in_reply_to(event)?;
        self.delegations
            .get(&id)
            .filter(|d| d.to == event.source)
            .map(|d| (id, d))
    }

    /// The first responder of a message, when it has one: the master of its
    /// session, or the network's for `agent:broadcast`; never its own sender.
    pub fn responder(
        sessions: &Sessions,
        network_master: Option<&Address>,
        event: &Event,
    ) -> Option<Address> {
        if event.event_type.as_str() != MESSAGE_POSTED || named_addressee(event) {
            return None;
        }
        let master = match event.target.entity() {
            Entity::Broadcast => network_master.cloned(),
            _ => sessions.of_channel(&event.target)?.1.master.clone(),
        };
        master.filter(|m| m != &event.source)
    }

    /// Rewrites a delegate's answer to go where the message was asked, as a reply to it.
    pub fn route_back(&self, event: &mut Event) {
        let Some((id, delegation)) = self.answered(event) else {
            return;
        };
        event.target = delegation.place.clone();
        event
            .metadata
            .insert("in_reply_to".into(), json!(delegation.message));
        event.metadata.insert(
            DELEGATION.into(),
            json!({"id": id, "from": delegation.from}),
        );
    }

    /// Checks a `workspace.message.delegated`: a message the network
    /// keeps, a sender that may delegate it, another member to take it.
    pub fn check_delegation(
        &self,
        cx: &Context<'_>,
        sessions: &Sessions,
        event: &Event,
    ) -> Result<Delegation, Rejection> {
        let message = super::edits::message_of(event, "delegated")?;
        let posted = self.posted_message(cx, sessions, &message).ok_or_else(|| {
            Rejection::new(
                ErrorCode::NotFound,
                "the network no longer keeps that message, so it can no longer be delegated",
            )
        })?;
        let who = &event.source;
        let may = posted.responder.as_ref() == Some(who)
            || posted.session_master.as_ref() == Some(who)
            || cx.state.role_of(who) == Some(Role::Master);
        if !may {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!(
                    "{who} may not delegate {message}: its first responder, its session's master or a master may"
                ),
            ));
        }
        let to = &event.target;
        if !to.is_local() || !to.entity().is_participant() || to == who {
            return Err(Rejection::new(
                ErrorCode::InvalidRequest,
                "a delegation goes to another agent or person: the event's target",
            ));
        }
        Ok(Delegation {
            message,
            from: who.clone(),
            to: to.clone(),
            place: posted.place.clone(),
        })
    }

    /// What the network knows of message `id` for a delegation: from the
    /// recent messages, else from the log (which outlives a restart).
    fn posted_message(
        &self,
        cx: &Context<'_>,
        sessions: &Sessions,
        id: &EventId,
    ) -> Option<Posted> {
        if let Some(posted) = self
            .posted
            .iter()
            .rev()
            .find_map(|(known, posted)| (known == id).then_some(posted))
        {
            return Some(posted.clone());
        }
        let event = cx.log.logged(id)?;
        if event.event_type.as_str() != MESSAGE_POSTED {
            return None;
        }
        let session_master = sessions
            .of_channel(&event.target)
            .and_then(|(_, s)| s.master.clone());
        Some(self.posted_of(&event, session_master))
    }

    /// What an accepted message tells: where answers go and who answers first.
    fn posted_of(&self, event: &Event, session_master: Option<Address>) -> Posted {
        let responder = event
            .metadata
            .get(FIRST_RESPONDER)
            .and_then(Value::as_str)
            .and_then(|a| a.parse().ok());
        // A delegate's answer routed back is answered where it went.
        let routed = event
            .metadata
            .get(DELEGATION)
            .and_then(|d| d.get("id"))
            .and_then(Value::as_str)
            .and_then(|id| id.parse::<EventId>().ok())
            .and_then(|id| self.delegations.get(&id));
        let place = match routed {
            Some(delegation) => delegation.place.clone(),
            None => place_of(event),
        };
        Posted {
            place,
            responder,
            session_master,
        }
    }

    /// Remembers an accepted message: where answers go and who answers first.
    pub fn remember(&mut self, event: &Event, session_master: Option<Address>) {
        let posted = self.posted_of(event, session_master);
        if self.posted.len() >= REMEMBERED {
            self.posted.pop_front();
        }
        self.posted.push_back((event.id, posted));
    }

    /// Records an accepted delegation.
    pub fn delegate(&mut self, id: EventId, delegation: Delegation) {
        if self.delegations.insert(id, delegation).is_none() {
            self.delegation_order.push_back(id);
        }
        while self.delegation_order.len() > MAX_DELEGATIONS {
            if let Some(old) = self.delegation_order.pop_front() {
                self.delegations.remove(&old);
            }
        }
    }

    /// Restores saved delegations (oldest first by id: ULIDs sort by time).
    pub fn restore(&mut self, delegations: BTreeMap<EventId, Delegation>) {
        self.delegation_order = delegations.keys().copied().collect();
        self.delegations = delegations;
    }
}
