//! Changes to a message already sent — an edit, a deletion, a reaction —
//! checked by the network itself, whatever mods are loaded: only a message's
//! author edits it, its author or a master deletes it, a reaction goes where
//! the conversation is, and nothing changes a deleted message.
//!
//! What a change needs to know about a message (its author, where it went,
//! whether it was deleted) comes from durable state whenever the host keeps
//! the log ([`Network::graph`]): the message's own log row, and a link row
//! `changes/deleted:{seq}` written with the accepted deletion. A network
//! that sleeps, is evicted or redeployed therefore still knows every message
//! its log keeps. Only a network without a log (no `mod/persistence`, or a
//! host without an index) falls back to remembering its last
//! [`crate::network::messages::recent::RECENT`] messages in memory, which a restart forgets; its messages
//! left the log once delivered, so there is nothing left to change anyway.
//!
//! Refusals say why in words a person reads next to the message, without ids.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::standing::Role;
use crate::ids::ulid::EventId;
use crate::mods::workspace::edits::message_of;
use crate::mods::workspace::reactions;
use crate::network::engine::Network;
use crate::network::messages::recent::{MessageFacts, deleted_key, is_message};
use crate::vocabulary::event_types::{
    MESSAGE_DELETED, MESSAGE_EDITED, REACTION_ADDED, REACTION_REMOVED,
};
use serde_json::Value;

fn refused(code: ErrorCode, why: &str) -> Rejection {
    Rejection::new(code, why)
}

impl Network {
    /// What the network knows of message `id`: from its log when it keeps
    /// one, else from the recent messages it remembers.
    pub(crate) fn message_facts(&self, id: &EventId) -> Option<MessageFacts> {
        let log = self.log_view();
        let Some(graph) = log.graph() else {
            return self.recent_messages.get(id);
        };
        let seq = log.seq_of(id)?;
        let (_, event) = graph.events(&[seq]).into_iter().next()?;
        is_message(&event).then(|| MessageFacts {
            author: event.source.clone(),
            place: event.target.clone(),
            deleted: graph.count(&deleted_key(seq)) > 0,
        })
    }

    /// The message a change is about, known and not deleted.
    fn changed_message(&self, event: &Event, what: &str) -> Result<MessageFacts, Rejection> {
        let id = message_of(event, what)?;
        match self.message_facts(&id) {
            Some(facts) if !facts.deleted => Ok(facts),
            Some(_) => Err(refused(
                ErrorCode::NotFound,
                "the message was deleted, so it can no longer be changed",
            )),
            None => Err(refused(
                ErrorCode::NotFound,
                "the network no longer keeps that message, so it can no longer be changed",
            )),
        }
    }

    /// Checks a change to a message before anything else handles it: an
    /// edit or a deletion by one who may, a reaction where the conversation
    /// is. Other events pass.
    pub(crate) fn check_message_change(&self, event: &Event) -> Result<(), Rejection> {
        match event.event_type.as_str() {
            MESSAGE_EDITED | MESSAGE_DELETED => self.check_edit_or_deletion(event),
            REACTION_ADDED | REACTION_REMOVED => {
                let message = self.changed_message(event, "reacted to")?;
                reactions::check(&message.author, &message.place, event)
            }
            _ => Ok(()),
        }
    }

    fn check_edit_or_deletion(&self, event: &Event) -> Result<(), Rejection> {
        let editing = event.event_type.as_str() == MESSAGE_EDITED;
        // Free-form: an edit's payload is its app's own; only its `content` is checked.
        let new_text = event.payload.get("content").and_then(Value::as_str);
        if editing && new_text.is_none_or(|c| c.trim().is_empty()) {
            return Err(refused(
                ErrorCode::InvalidRequest,
                "content is the message's new text",
            ));
        }
        let message = self.changed_message(event, "changed")?;
        let who = &event.source;
        let master = self.state.role_of(who) == Some(Role::Master);
        if editing && message.author != *who {
            return Err(refused(
                ErrorCode::Forbidden,
                "only the person who wrote a message may edit it",
            ));
        }
        if !editing && message.author != *who && !master {
            return Err(refused(
                ErrorCode::Forbidden,
                "only the person who wrote a message or a master of the network may delete it",
            ));
        }
        if event.target != message.place {
            return Err(Rejection::new(
                ErrorCode::InvalidRequest,
                format!("a change goes where the message went: {}", message.place),
            ));
        }
        Ok(())
    }

    /// The link rows an accepted event at `seq` adds for later changes: a
    /// deletion marks its message deleted.
    pub(crate) fn change_links(&self, event: &Event, seq: u64) -> Vec<(String, u64)> {
        if event.event_type.as_str() != MESSAGE_DELETED {
            return Vec::new();
        }
        message_of(event, "deleted")
            .ok()
            .and_then(|id| self.seq_of_logged(&id))
            .map(|message| vec![(deleted_key(message), seq)])
            .unwrap_or_default()
    }

    /// Remembers an accepted event, for a network without a log: a message
    /// by its author and place, a deletion on its message.
    pub(crate) fn remember_for_changes(&mut self, event: &Event) {
        if self.graph().is_some() {
            return;
        }
        if event.event_type.as_str() == MESSAGE_DELETED {
            if let Ok(id) = message_of(event, "deleted") {
                self.recent_messages.deleted(&id);
            }
        } else if is_message(event) {
            self.recent_messages.remember(event);
        }
    }
}
