//! How the replica reaches its shared documents: through [`DocumentCopies`],
//! a trait object the host installs (feature `documents`).
//!
//! The replica never names the Automerge implementation
//! ([`SyncedDocuments`](super::SyncedDocuments)) itself, so a host that
//! splits its WebAssembly can leave Automerge out of the code the first page
//! loads: the web workspace makes the copies in a chunk fetched when a
//! document is first opened and installs them then; the npm package installs
//! them when it makes the replica. Until they are installed the replica keeps
//! the document rows it is restored from (handing them over on
//! `Replica::install_documents`), passes every event on as before (no
//! document is open to take it), and refuses to open one with
//! `not_supported`.

use super::types::{ReplicaEffect, ReplicaRow};
use crate::client::Client;
use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::EventType;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use serde_json::Value;
use std::fmt;

/// The replica's open documents and stored copies, behind a trait object so
/// the code that implements them can be loaded apart from the replica.
pub trait DocumentCopies: fmt::Debug {
    /// Replays a stored document row.
    fn restore(&mut self, row: ReplicaRow);
    /// Opens the document at `address` (a local file or context address).
    fn open(
        &mut self,
        address: &Address,
        actor: [u8; 16],
        link: &mut DocumentLink<'_>,
    ) -> Result<Vec<ReplicaEffect>, Rejection>;
    /// The text of an open document.
    fn text(&self, address: &Address) -> Option<String>;
    /// Who else has an open document open, as the network last said.
    fn editors(&self, address: &Address) -> Option<&[Address]>;
    /// Edits an open document.
    fn edit(
        &mut self,
        address: &Address,
        edit: DocumentEdit,
        link: &mut DocumentLink<'_>,
    ) -> Result<Vec<ReplicaEffect>, Rejection>;
    /// Closes a document; it stays stored.
    fn close(&mut self, address: &Address, link: &mut DocumentLink<'_>) -> Vec<ReplicaEffect>;
    /// Online again: every open document starts a new sync session.
    fn resync(&mut self, link: &mut DocumentLink<'_>) -> Vec<ReplicaEffect>;
    /// Offline: answers to sent messages will not come.
    fn offline(&mut self);
    /// A document message from the network; `None` when `event` is not one.
    fn on_message(
        &mut self,
        event: &Event,
        link: &mut DocumentLink<'_>,
    ) -> Option<Vec<ReplicaEffect>>;
    /// The network refused sync event `id`; `None` when `id` is not one.
    fn on_refusal(
        &mut self,
        id: EventId,
        rejection: &Rejection,
        link: &mut DocumentLink<'_>,
    ) -> Option<Vec<ReplicaEffect>>;
}

/// A local edit of a document's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentEdit {
    /// Delete `delete` UTF-16 units at `index`, then insert `insert` there.
    Splice {
        /// Where the edit starts.
        index: usize,
        /// How many units it deletes.
        delete: usize,
        /// What it inserts.
        insert: String,
    },
    /// Make the text exactly this, as the smallest edit.
    Replace(String),
}

/// What documents may use of the replica while they act: whether it is
/// online, and its client to write events with, at `now`.
pub struct DocumentLink<'a> {
    online: bool,
    client: &'a mut Client,
    now: Timestamp,
}

impl<'a> DocumentLink<'a> {
    /// The replica's link, lent for one call.
    pub(super) fn new(online: bool, client: &'a mut Client, now: Timestamp) -> Self {
        Self {
            online,
            client,
            now,
        }
    }

    /// Whether the replica is online (sync messages are sent only then).
    pub fn online(&self) -> bool {
        self.online
    }

    /// The time of the call that lent this link.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// An event from this member, written now.
    pub fn event(&mut self, event_type: EventType, target: Address, payload: Value) -> Event {
        self.client.event(event_type, target, payload, self.now)
    }
}
