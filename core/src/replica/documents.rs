//! The replica's copies of shared documents (feature `documents`).
//!
//! A document opened here is edited locally at once — online or not — and
//! persisted as rows ([`ReplicaRow::Document`]). While the replica is online
//! every open document runs Automerge's sync protocol with the network in
//! `network.resource.update` events; each new connection starts a fresh sync
//! session, which is how edits made offline reach the network. These sync
//! events bypass the outbox: the document itself is what is kept, and the
//! protocol recovers from any lost message on the next exchange.
//!
//! When the network refuses a message that carried edits (no `write`
//! permission), the copy drops every change the network does not have,
//! reports [`ReplicaEffect::DocumentRejected`] and refuses further edits;
//! when it refuses one without edits (no `read`), the copy stops syncing.
//! Both are tried again on the next connection, in case permissions changed.

use super::document_store::DocumentEdit;
use super::document_store::{MAX_PENDING_MESSAGES, OpenDocument, persist};
use super::state::Replica;
use super::types::{Link, ReplicaEffect};
use crate::crypto::to_hex;
use crate::documents::{Loader, Persistence, TextDocument, decode_sync, encode_sync, payload};
use crate::error::{Coded, ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use automerge::sync;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

impl Replica {
    /// Opens the file or context at `address` for editing, from its stored
    /// copy if there is one; `actor` is 16 random bytes naming this opening's
    /// edits. Online, it starts syncing with the network at once.
    pub fn open_document(
        &mut self,
        address: &Address,
        actor: [u8; 16],
        now: Timestamp,
    ) -> Result<Vec<ReplicaEffect>, Rejection> {
        if !matches!(address.entity().resource_kind(), Some(kind) if kind != crate::ids::address::ResourceKind::Tool)
        {
            return Err(Rejection::new(
                ErrorCode::InvalidRequest,
                format!("{address} is not a file or context"),
            ));
        }
        let address = address.to_local();
        if self.documents.open.contains_key(&address) {
            return Ok(Vec::new());
        }
        let mut effects = Vec::new();
        // This opening writes its own rows (other tabs may have the document open too).
        let writer = to_hex(&actor[..4]);
        let (doc, persistence) = match self.documents.stored.remove(&address) {
            Some(loader) => {
                let (doc, persistence, writes) = loader.load(&address, &writer, actor);
                effects.extend(persist(writes, &address));
                (doc, persistence)
            }
            None => {
                let mut doc = TextDocument::new(actor);
                let (persistence, writes) = Persistence::initial(&address, &writer, &mut doc);
                effects.extend(persist(writes, &address));
                (doc, persistence)
            }
        };
        let open = OpenDocument {
            doc,
            persistence,
            state: sync::State::new(),
            session: to_hex(&actor),
            actor,
            editors: Vec::new(),
            read_only: false,
            unreadable: false,
        };
        self.documents.open.insert(address.clone(), open);
        effects.extend(self.send_document(&address, now));
        Ok(effects)
    }

    /// The text of an open document.
    pub fn document_text(&self, address: &Address) -> Option<String> {
        self.documents
            .open
            .get(&address.to_local())
            .map(|d| d.doc.text())
    }

    /// Who else has an open document open, as the network last said.
    pub fn document_editors(&self, address: &Address) -> Option<&[Address]> {
        self.documents
            .open
            .get(&address.to_local())
            .map(|d| d.editors.as_slice())
    }

    /// Edits an open document: applied and stored now, sent when online.
    pub fn edit_document(
        &mut self,
        address: &Address,
        edit: DocumentEdit,
        now: Timestamp,
    ) -> Result<Vec<ReplicaEffect>, Rejection> {
        let address = address.to_local();
        let open =
            self.documents.open.get_mut(&address).ok_or_else(|| {
                Rejection::new(ErrorCode::NotFound, format!("{address} is not open"))
            })?;
        if open.read_only {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!("the network refused edits of {address}: it is read-only here"),
            ));
        }
        let result = match &edit {
            DocumentEdit::Splice {
                index,
                delete,
                insert,
            } => open.doc.splice(*index, *delete, insert, now),
            DocumentEdit::Replace(text) => open.doc.set_text(text, now),
        };
        result.map_err(|e| Rejection::new(e.code(), e.to_string()))?;
        let writes = open.persistence.after_change(&address, &mut open.doc);
        let mut effects = persist(writes, &address);
        effects.extend(self.send_document(&address, now));
        Ok(effects)
    }

    /// Closes a document: it stays stored, the network stops sending its changes.
    pub fn close_document(&mut self, address: &Address, now: Timestamp) -> Vec<ReplicaEffect> {
        let address = address.to_local();
        let Some(open) = self.documents.open.remove(&address) else {
            return Vec::new();
        };
        // Keep what is stored so a later open starts from it.
        let mut loader = Loader::default();
        let mut doc = open.doc;
        let mut persistence = open.persistence;
        let writes = persistence.compact(&address, &mut doc);
        for row in &writes.store {
            loader.add(row);
        }
        self.documents.stored.insert(address.clone(), loader);
        let mut effects = persist(writes, &address);
        if self.link == Link::Online {
            let close = self.client.event(
                EventType::from_static(core_types::RESOURCE_UPDATE),
                address,
                json!({ payload::CLOSE: true, "session": open.session }),
                now,
            );
            effects.push(ReplicaEffect::Send(close.encode()));
        }
        effects
    }

    /// The next sync message of one document, sent if online and there is one.
    fn send_document(&mut self, address: &Address, now: Timestamp) -> Vec<ReplicaEffect> {
        if self.link != Link::Online {
            return Vec::new();
        }
        let Some(open) = self
            .documents
            .open
            .get_mut(address)
            .filter(|o| !o.unreadable)
        else {
            return Vec::new();
        };
        let Some(message) = open.doc.generate_sync_message(&mut open.state) else {
            return Vec::new();
        };
        let edits = !message.changes.is_empty();
        let body = json!({ payload::SYNC: encode_sync(message), "session": open.session });
        let event = self.client.event(
            EventType::from_static(core_types::RESOURCE_UPDATE),
            address.clone(),
            body,
            now,
        );
        self.documents
            .pending
            .insert(event.id, (address.clone(), edits));
        while self.documents.pending.len() > MAX_PENDING_MESSAGES {
            self.documents.pending.pop_first();
        }
        vec![ReplicaEffect::Send(event.encode())]
    }

    /// Online again: every open document starts a new sync session.
    pub(super) fn sync_documents(&mut self, now: Timestamp) -> Vec<ReplicaEffect> {
        let addresses: Vec<Address> = self.documents.open.keys().cloned().collect();
        let mut effects = Vec::new();
        for address in addresses {
            if let Some(open) = self.documents.open.get_mut(&address) {
                open.state = sync::State::new();
                // Permissions may have changed meanwhile: ask again, once per connection.
                open.unreadable = false;
                open.read_only = false;
            }
            effects.extend(self.send_document(&address, now));
        }
        effects
    }

    /// Offline: answers to sent messages will not come.
    pub(super) fn documents_offline(&mut self) {
        self.documents.pending.clear();
    }

    /// Handles a document message from the network; `None` when `event` is not one.
    pub(super) fn on_document_message(
        &mut self,
        event: &Event,
        now: Timestamp,
    ) -> Option<Vec<ReplicaEffect>> {
        if event.event_type.as_str() != core_types::RESOURCE_UPDATE
            || event.source != Address::core()
        {
            return None;
        }
        let address: Address = event
            .payload
            .get(payload::ADDRESS)?
            .as_str()?
            .parse()
            .ok()?;
        if let Some(id) = event.in_reply_to() {
            self.documents.pending.remove(&id);
        }
        let open = self.documents.open.get_mut(&address)?;
        if event.payload.get("session").and_then(Value::as_str) != Some(open.session.as_str()) {
            // Another opening's (another tab of this member): not ours to apply.
            return Some(Vec::new());
        }
        let mut effects = Vec::new();
        let mut changed = false;
        if let Some(editors) = event.payload.get(payload::EDITORS) {
            let editors: Vec<Address> = serde_json::from_value(editors.clone()).unwrap_or_default();
            changed |= editors != open.editors;
            open.editors = editors;
        }
        if let Some(message) = event.payload.get(payload::SYNC).and_then(Value::as_str) {
            let applied = decode_sync(message)
                .and_then(|m| open.doc.receive_sync_message(&mut open.state, m));
            if let Ok(true) = applied {
                changed = true;
                let writes = open.persistence.after_change(&address, &mut open.doc);
                effects.extend(persist(writes, &address));
            }
        }
        if changed {
            effects.push(ReplicaEffect::DocumentChanged {
                address: address.clone(),
                text: open.doc.text(),
                editors: open.editors.clone(),
            });
        }
        effects.extend(self.send_document(&address, now));
        Some(effects)
    }

    /// The network refused sync event `id`: drop the refused edits; `None` when `id` is not one.
    pub(super) fn on_document_error(
        &mut self,
        id: EventId,
        rejection: &Rejection,
    ) -> Option<Vec<ReplicaEffect>> {
        let (address, edits) = self.documents.pending.remove(&id)?;
        let open = self.documents.open.get_mut(&address)?;
        let mut effects = vec![ReplicaEffect::DocumentRejected {
            address: address.clone(),
            rejection: rejection.clone(),
        }];
        if rejection.code == ErrorCode::Forbidden && !edits {
            // Not even readable: stop asking.
            open.unreadable = true;
        } else if rejection.code == ErrorCode::Forbidden {
            open.read_only = true;
            // The refused changes must not come back: a new actor writes from here on.
            let next: [u8; 16] = Sha256::digest(open.actor)[..16]
                .try_into()
                .unwrap_or(open.actor);
            open.actor = next;
            let shared = open.state.shared_heads.clone();
            open.doc.rewind(&shared, next);
            open.state = sync::State::new();
            let writes = open.persistence.compact(&address, &mut open.doc);
            effects.extend(persist(writes, &address));
            effects.push(ReplicaEffect::DocumentChanged {
                address: address.clone(),
                text: open.doc.text(),
                editors: open.editors.clone(),
            });
            let now = self.clock;
            effects.extend(self.send_document(&address, now));
        }
        Some(effects)
    }
}
