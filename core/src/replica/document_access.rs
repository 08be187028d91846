//! The replica's document calls, passed to the installed [`DocumentCopies`]
//! (feature `documents`); without them a document cannot be opened
//! (`not_supported`) and events pass on as usual.

use super::document_copies::{DocumentCopies, DocumentEdit, DocumentLink};
use super::document_store::DocumentSlot;
use super::state::Replica;
use super::types::{Link, ReplicaEffect};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;

impl Replica {
    /// Installs the replica's shared documents (once; a second call keeps the first).
    /// Rows restored before are handed to them now.
    pub fn install_documents(&mut self, mut copies: Box<dyn DocumentCopies>) {
        let rows = match std::mem::take(&mut self.documents) {
            DocumentSlot::Installed(installed) => {
                self.documents = DocumentSlot::Installed(installed);
                return;
            }
            DocumentSlot::Rows(rows) => rows,
        };
        for row in rows {
            copies.restore(row);
        }
        self.documents = DocumentSlot::Installed(copies);
    }

    /// Whether shared documents are installed ([`Replica::install_documents`]).
    pub fn has_documents(&self) -> bool {
        matches!(self.documents, DocumentSlot::Installed(_))
    }

    /// The installed documents and a link for them to act through, at `now`.
    fn documents_at(
        &mut self,
        now: Timestamp,
    ) -> Option<(&mut dyn DocumentCopies, DocumentLink<'_>)> {
        let DocumentSlot::Installed(copies) = &mut self.documents else {
            return None;
        };
        let link = DocumentLink::new(self.link == Link::Online, &mut self.client, now);
        Some((copies.as_mut(), link))
    }

    /// Opens the file or context at `address` for editing, from its stored
    /// copy if there is one; `actor` is 16 random bytes naming this opening's
    /// edits. Online, it starts syncing with the network at once.
    pub fn open_document(
        &mut self,
        address: &Address,
        actor: [u8; 16],
        now: Timestamp,
    ) -> Result<Vec<ReplicaEffect>, Rejection> {
        let (copies, mut link) = self.documents_at(now).ok_or_else(not_installed)?;
        copies.open(address, actor, &mut link)
    }

    /// The text of an open document.
    pub fn document_text(&self, address: &Address) -> Option<String> {
        match &self.documents {
            DocumentSlot::Installed(copies) => copies.text(address),
            _ => None,
        }
    }

    /// Who else has an open document open, as the network last said.
    pub fn document_editors(&self, address: &Address) -> Option<&[Address]> {
        match &self.documents {
            DocumentSlot::Installed(copies) => copies.editors(address),
            _ => None,
        }
    }

    /// Edits an open document: applied and stored now, sent when online.
    pub fn edit_document(
        &mut self,
        address: &Address,
        edit: DocumentEdit,
        now: Timestamp,
    ) -> Result<Vec<ReplicaEffect>, Rejection> {
        let (copies, mut link) = self.documents_at(now).ok_or_else(not_installed)?;
        copies.edit(address, edit, &mut link)
    }

    /// Closes a document: it stays stored, the network stops sending its changes.
    pub fn close_document(&mut self, address: &Address, now: Timestamp) -> Vec<ReplicaEffect> {
        match self.documents_at(now) {
            Some((copies, mut link)) => copies.close(address, &mut link),
            None => Vec::new(),
        }
    }

    /// Online again: every open document starts a new sync session.
    pub(super) fn sync_documents(&mut self, now: Timestamp) -> Vec<ReplicaEffect> {
        match self.documents_at(now) {
            Some((copies, mut link)) => copies.resync(&mut link),
            None => Vec::new(),
        }
    }

    /// Offline: answers to sent messages will not come.
    pub(super) fn documents_offline(&mut self) {
        if let DocumentSlot::Installed(copies) = &mut self.documents {
            copies.offline();
        }
    }

    /// Handles a document message from the network; `None` when `event` is not one.
    pub(super) fn on_document_message(
        &mut self,
        event: &Event,
        now: Timestamp,
    ) -> Option<Vec<ReplicaEffect>> {
        let (copies, mut link) = self.documents_at(now)?;
        copies.on_message(event, &mut link)
    }

    /// The network refused sync event `id`; `None` when `id` is not one.
    pub(super) fn on_document_error(
        &mut self,
        id: EventId,
        rejection: &Rejection,
    ) -> Option<Vec<ReplicaEffect>> {
        let now = self.clock;
        let (copies, mut link) = self.documents_at(now)?;
        copies.on_refusal(id, rejection, &mut link)
    }
}

fn not_installed() -> Rejection {
    Rejection::new(
        ErrorCode::NotSupported,
        "shared documents are not loaded in this replica",
    )
}
