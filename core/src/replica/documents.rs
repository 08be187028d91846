//! The replica's copies of shared documents as Automerge documents
//! ([`SyncedDocuments`], the [`DocumentCopies`] hosts install; feature `documents`).
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

use super::document_copies::{DocumentCopies, DocumentEdit, DocumentLink};
use super::document_store::{MAX_PENDING_MESSAGES, OpenDocument, SyncedDocuments, persist};
use super::types::{ReplicaEffect, ReplicaRow};
use crate::crypto::to_hex;
use crate::documents::{Loader, Persistence, TextDocument, decode_sync, encode_sync, payload};
use crate::error::{Coded, ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::{Address, ResourceKind};
use crate::ids::event_type::{EventType, core_types};
use crate::ids::ulid::EventId;
use crate::model::received::DocumentSyncRead;
use automerge::sync;
use serde_json::json;
use sha2::{Digest, Sha256};

impl SyncedDocuments {
    /// New, empty copies, boxed for [`Replica::install_documents`](super::Replica::install_documents).
    pub fn boxed() -> Box<dyn DocumentCopies> {
        Box::<Self>::default()
    }

    /// The next sync message of one document, sent if online and there is one.
    fn send(&mut self, address: &Address, link: &mut DocumentLink<'_>) -> Vec<ReplicaEffect> {
        if !link.online() {
            return Vec::new();
        }
        let Some(open) = self.open.get_mut(address).filter(|o| !o.unreadable) else {
            return Vec::new();
        };
        let Some(message) = open.doc.generate_sync_message(&mut open.state) else {
            return Vec::new();
        };
        let edits = !message.changes.is_empty();
        let body = json!({ payload::SYNC: encode_sync(message), "session": open.session });
        let event = link.event(
            EventType::from_static(core_types::RESOURCE_UPDATE),
            address.clone(),
            body,
        );
        self.pending.insert(event.id, (address.clone(), edits));
        while self.pending.len() > MAX_PENDING_MESSAGES {
            self.pending.pop_first();
        }
        vec![ReplicaEffect::Send(event.encode())]
    }
}

impl DocumentCopies for SyncedDocuments {
    fn restore(&mut self, row: ReplicaRow) {
        SyncedDocuments::restore(self, row);
    }

    fn open(
        &mut self,
        address: &Address,
        actor: [u8; 16],
        link: &mut DocumentLink<'_>,
    ) -> Result<Vec<ReplicaEffect>, Rejection> {
        if !matches!(address.entity().resource_kind(), Some(kind) if kind != ResourceKind::Tool) {
            return Err(Rejection::new(
                ErrorCode::InvalidRequest,
                format!("{address} is not a file or context"),
            ));
        }
        let address = address.to_local();
        if self.open.contains_key(&address) {
            return Ok(Vec::new());
        }
        let mut effects = Vec::new();
        // This opening writes its own rows (other tabs may have the document open too).
        let writer = to_hex(&actor[..4]);
        let (doc, persistence) = match self.stored.remove(&address) {
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
        self.open.insert(address.clone(), open);
        effects.extend(self.send(&address, link));
        Ok(effects)
    }

    fn text(&self, address: &Address) -> Option<String> {
        self.open.get(&address.to_local()).map(|d| d.doc.text())
    }

    fn editors(&self, address: &Address) -> Option<&[Address]> {
        self.open
            .get(&address.to_local())
            .map(|d| d.editors.as_slice())
    }

    fn edit(
        &mut self,
        address: &Address,
        edit: DocumentEdit,
        link: &mut DocumentLink<'_>,
    ) -> Result<Vec<ReplicaEffect>, Rejection> {
        let address = address.to_local();
        let open = self
            .open
            .get_mut(&address)
            .ok_or_else(|| Rejection::new(ErrorCode::NotFound, format!("{address} is not open")))?;
        if open.read_only {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!("the network refused edits of {address}: it is read-only here"),
            ));
        }
        let now = link.now();
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
        effects.extend(self.send(&address, link));
        Ok(effects)
    }

    fn close(&mut self, address: &Address, link: &mut DocumentLink<'_>) -> Vec<ReplicaEffect> {
        let address = address.to_local();
        let Some(open) = self.open.remove(&address) else {
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
        self.stored.insert(address.clone(), loader);
        let mut effects = persist(writes, &address);
        if link.online() {
            let close = link.event(
                EventType::from_static(core_types::RESOURCE_UPDATE),
                address,
                json!({ payload::CLOSE: true, "session": open.session }),
            );
            effects.push(ReplicaEffect::Send(close.encode()));
        }
        effects
    }

    fn resync(&mut self, link: &mut DocumentLink<'_>) -> Vec<ReplicaEffect> {
        let addresses: Vec<Address> = self.open.keys().cloned().collect();
        let mut effects = Vec::new();
        for address in addresses {
            if let Some(open) = self.open.get_mut(&address) {
                open.state = sync::State::new();
                // Permissions may have changed meanwhile: ask again, once per connection.
                open.unreadable = false;
                open.read_only = false;
            }
            effects.extend(self.send(&address, link));
        }
        effects
    }

    fn offline(&mut self) {
        self.pending.clear();
    }

    fn on_message(
        &mut self,
        event: &Event,
        link: &mut DocumentLink<'_>,
    ) -> Option<Vec<ReplicaEffect>> {
        if event.event_type.as_str() != core_types::RESOURCE_UPDATE
            || event.source != Address::core()
        {
            return None;
        }
        let read = DocumentSyncRead::of(&event.payload);
        let address = read.address.as_given()?.clone();
        if let Some(id) = event.in_reply_to() {
            self.pending.remove(&id);
        }
        let open = self.open.get_mut(&address)?;
        if read.session.as_text() != Some(open.session.as_str()) {
            // Another opening's (another tab of this member): not ours to apply.
            return Some(Vec::new());
        }
        let mut effects = Vec::new();
        let mut changed = false;
        if let Some(editors) = read.editors() {
            changed |= editors != open.editors;
            open.editors = editors;
        }
        if let Some(message) = read.sync.as_text() {
            let applied = decode_sync(message)
                .and_then(|m| open.doc.receive_sync_message(&mut open.state, m));
            if let Ok(true) = applied {
                changed = true;
                let writes = open.persistence.after_change(&address, &mut open.doc);
                effects.extend(persist(writes, &address));
            }
        }
        if changed {
            effects.push(open.changed(&address));
        }
        effects.extend(self.send(&address, link));
        Some(effects)
    }

    fn on_refusal(
        &mut self,
        id: EventId,
        rejection: &Rejection,
        link: &mut DocumentLink<'_>,
    ) -> Option<Vec<ReplicaEffect>> {
        let (address, edits) = self.pending.remove(&id)?;
        let open = self.open.get_mut(&address)?;
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
            effects.push(open.changed(&address));
            effects.extend(self.send(&address, link));
        }
        Some(effects)
    }
}
