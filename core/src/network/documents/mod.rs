//! The network's canonical copy of every shared document and its sync with
//! each member session (feature `documents`).
//!
//! [`store`], in this folder, holds the open documents as data.
//!
//! A member syncs a file or context by sending `network.resource.update` to
//! the resource with `{"sync": base64, "session": id}`; the guards have run
//! by then (`mod/access-control` refuses changes from members without
//! `write`). The network merges the message, stores what changed as rows,
//! answers the sender and sends every other open session what it now lacks,
//! each message naming the `editors`: the members with the document open.
//! Sync states live in memory only: after a restart members simply sync
//! again, which the protocol allows at any time.

#[cfg(feature = "documents")]
pub(super) mod store;

use crate::documents::{
    Persistence, TextDocument, Writes, content_text, decode_sync, encode_sync, payload,
};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::core_types as t;
use crate::ids::time::Timestamp;
use crate::model::requests::documents::DocumentSync;
use crate::model::requests::field::read;
use crate::model::state::Row;
use crate::network::documents::store::{
    Shared, WRITER, fresh_document, rejection, session_of, store_effects,
};
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, unacked};
use serde_json::{Value, json};
use std::rc::Rc;

impl Network {
    /// The document of the file or context at `address`, loading or creating
    /// it; `effects` receives the rows a new document stores.
    fn shared_document(&mut self, address: &Address, effects: &mut Vec<Effect>) -> &mut Shared {
        if !self.documents.open.contains_key(address) {
            let shared = self.load_document(address, effects);
            self.documents.open.insert(address.clone(), shared);
        }
        let actor = self.documents.actor;
        self.documents
            .open
            .entry(address.clone())
            .or_insert_with(|| {
                Shared::new(TextDocument::with_genesis(actor), Persistence::default())
            })
    }

    /// Loads a stored document, or makes one for a resource registered before
    /// documents existed (its text content becomes the document).
    fn load_document(&self, address: &Address, effects: &mut Vec<Effect>) -> Shared {
        let actor = self.documents.actor;
        if let Some(loader) = self.documents.stored.get(address) {
            let (doc, persistence, writes) = loader.clone().load(address, WRITER, actor);
            effects.extend(store_effects(address, writes));
            return Shared::new(doc, persistence);
        }
        let text = self
            .state
            .resources
            .get(address)
            .and_then(|r| r.content.as_ref())
            .map(content_text)
            .unwrap_or_default();
        fresh_document(address, actor, &text, Timestamp::from(0), effects)
    }

    /// A file or context was registered with `content`: its document starts with that text.
    pub(super) fn create_document(
        &mut self,
        address: &Address,
        content: Option<&Value>,
        now: Timestamp,
    ) -> Vec<Effect> {
        let mut effects = Vec::new();
        if self.documents.open.contains_key(address) || self.documents.stored.contains_key(address)
        {
            // Re-registration keeps the document; new content is an edit of it.
            if let Some(content) = content {
                effects.extend(self.set_document_text(address, &content_text(content), now));
            }
            return effects;
        }
        let text = content.map(content_text).unwrap_or_default();
        let shared = fresh_document(address, self.documents.actor, &text, now, &mut effects);
        self.documents.open.insert(address.clone(), shared);
        effects
    }

    /// The current text of the document at `address`.
    pub(super) fn document_text(&mut self, address: &Address) -> (String, Vec<Effect>) {
        let mut effects = Vec::new();
        let text = self.shared_document(address, &mut effects).doc.text();
        (text, effects)
    }

    /// Replaces the text (a whole-content `network.resource.update`) and tells every open session.
    pub(super) fn set_document_text(
        &mut self,
        address: &Address,
        text: &str,
        now: Timestamp,
    ) -> Vec<Effect> {
        let mut effects = Vec::new();
        let shared = self.shared_document(address, &mut effects);
        if shared.doc.set_text(text, now).is_err() {
            return effects;
        }
        let writes = shared.persistence.after_change(address, &mut shared.doc);
        effects.extend(store_effects(address, writes));
        effects.extend(self.broadcast_document(address, None, now));
        effects
    }

    /// A whole-content update: the document's text becomes `content`.
    pub(super) fn replace_document_content(
        &mut self,
        address: &Address,
        content: &Value,
        now: Timestamp,
    ) -> Vec<Effect> {
        self.set_document_text(address, &content_text(content), now)
    }

    /// The resource at `address` was unregistered: its rows go, its sessions end.
    pub(super) fn delete_document(&mut self, address: &Address) -> Vec<Effect> {
        let remove = match self.documents.open.remove(address) {
            Some(shared) => shared.persistence.pieces(),
            None => match self.documents.stored.remove(address) {
                Some(loader) => {
                    let (_, persistence, writes) =
                        loader.load(address, WRITER, self.documents.actor);
                    writes
                        .remove
                        .into_iter()
                        .chain(persistence.pieces())
                        .collect()
                }
                None => Vec::new(),
            },
        };
        store_effects(
            address,
            Writes {
                store: Vec::new(),
                remove,
            },
        )
    }

    /// Handles a `network.resource.update` carrying `sync` or `close` for a file or context.
    pub(super) fn sync_document(&mut self, event: &Event, now: Timestamp) -> Handled {
        let address = event.target.to_local();
        let sent = read::<DocumentSync>(&event.payload);
        let session = session_of(sent.session)?;
        let source = event.source.clone();
        let key = (source.clone(), session.clone());
        let mut effects = Vec::new();
        if sent.close.given() == Some(true) {
            let shared = self.shared_document(&address, &mut effects);
            if shared.sessions.remove(&key).is_some() {
                effects.extend(self.broadcast_document(&address, None, now));
            }
            return Ok(unacked(effects));
        }
        let message = sent
            .sync
            .given()
            .ok_or_else(|| {
                Rejection::new(
                    ErrorCode::InvalidRequest,
                    "payload.sync must be a base64 sync message",
                )
            })
            .and_then(|text| decode_sync(&text).map_err(|e| rejection(&e)))?;
        let joined = !self
            .documents
            .open
            .get(&address)
            .is_some_and(|shared| shared.sessions.contains_key(&key));
        if joined {
            self.documents.admit_session(&address, &source)?;
        }
        let shared = self.shared_document(&address, &mut effects);
        // Merge into a copy of the state: a message that fails leaves the session as it was.
        let mut state = shared.sessions.get(&key).cloned().unwrap_or_default();
        let changed = shared
            .doc
            .receive_sync_message(&mut state, message)
            .map_err(|e| rejection(&e))?;
        shared.sessions.insert(key, state);
        if changed {
            let writes = shared.persistence.after_change(&address, &mut shared.doc);
            effects.extend(store_effects(&address, writes));
            if let Some(resource) = self
                .state
                .resources
                .get_mut(&address)
                .filter(|r| r.content.is_some())
            {
                // The text is the content now, not the structured value registered before.
                resource.content = None;
                effects.push(Effect::Store(Row::Resource(Box::new(resource.clone()))));
            }
        }
        if changed || joined {
            effects.extend(self.broadcast_document(
                &address,
                Some((&source, &session, event.id)),
                now,
            ));
        } else if let Some(reply) = self.document_message(
            &address,
            &(source, session),
            &self.editors(&address),
            Some(event.id),
            false,
            now,
        ) {
            effects.push(Effect::Reply(reply));
        }
        Ok(unacked(effects))
    }

    /// The members with `address` open, each once.
    fn editors(&self, address: &Address) -> Vec<Address> {
        let mut editors: Vec<Address> = self
            .documents
            .open
            .get(address)
            .map(|s| s.sessions.keys().map(|(a, _)| a.clone()).collect())
            .unwrap_or_default();
        editors.dedup();
        editors
    }

    /// The next message to one session: what it lacks, and who is editing
    /// (`always`: even when the sync protocol has nothing to say).
    fn document_message(
        &mut self,
        address: &Address,
        (member, session): &(Address, String),
        editors: &[Address],
        in_reply_to: Option<crate::ids::ulid::EventId>,
        always: bool,
        now: Timestamp,
    ) -> Option<Event> {
        let shared = self.documents.open.get_mut(address)?;
        let state = shared
            .sessions
            .get_mut(&(member.clone(), session.clone()))?;
        let sync = shared.doc.generate_sync_message(state).map(encode_sync);
        if sync.is_none() && !always {
            return None;
        }
        let body = json!({
            payload::ADDRESS: address, "session": session, payload::SYNC: sync, payload::EDITORS: editors,
        });
        Some(self.core_event(t::RESOURCE_UPDATE, member, in_reply_to, body, now))
    }

    /// Tells every open session of `address` what changed; the sender (if
    /// any) gets its answer as a reply to its event.
    fn broadcast_document(
        &mut self,
        address: &Address,
        sender: Option<(&Address, &str, crate::ids::ulid::EventId)>,
        now: Timestamp,
    ) -> Vec<Effect> {
        let sessions: Vec<(Address, String)> = self
            .documents
            .open
            .get(address)
            .map(|s| s.sessions.keys().cloned().collect())
            .unwrap_or_default();
        let editors = self.editors(address);
        let mut effects = Vec::new();
        for key in sessions {
            let is_sender = sender.is_some_and(|(m, s, _)| *m == key.0 && s == key.1);
            let in_reply_to = sender.filter(|_| is_sender).map(|(_, _, id)| id);
            if let Some(message) =
                self.document_message(address, &key, &editors, in_reply_to, true, now)
            {
                effects.push(if is_sender {
                    Effect::Reply(message)
                } else {
                    Effect::Deliver {
                        to: vec![key.0.clone()],
                        event: Rc::new(message),
                        order: None,
                    }
                });
            }
        }
        effects
    }

    /// `member` went offline or left: its sessions end everywhere.
    pub(crate) fn close_documents_of(&mut self, member: &Address, now: Timestamp) -> Vec<Effect> {
        let affected: Vec<Address> = self
            .documents
            .open
            .iter_mut()
            .filter_map(|(address, shared)| {
                let before = shared.sessions.len();
                shared.sessions.retain(|(m, _), _| m != member);
                (shared.sessions.len() != before).then(|| address.clone())
            })
            .collect();
        affected
            .iter()
            .flat_map(|address| self.broadcast_document(address, None, now))
            .collect()
    }
}
