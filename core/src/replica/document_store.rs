//! What the replica keeps about shared documents: the open ones with their
//! sync state, the stored copies, and the rows a write persists; and the
//! replica's slot for them (feature `documents`).

use super::document_copies::DocumentCopies;
use super::types::{ReplicaEffect, ReplicaRow};
use crate::documents::{Loader, Persistence, TextDocument, Writes};
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
use automerge::sync;
use std::collections::BTreeMap;

/// Sync events whose answer may still arrive, remembered at most (oldest forgotten first).
pub(super) const MAX_PENDING_MESSAGES: usize = 256;

/// One open document.
#[derive(Debug, Clone)]
pub(super) struct OpenDocument {
    pub(super) doc: TextDocument,
    pub(super) persistence: Persistence,
    pub(super) state: sync::State,
    /// This opening's session id at the network (hex of its first actor).
    pub(super) session: String,
    pub(super) actor: [u8; 16],
    pub(super) editors: Vec<Address>,
    /// The network refused this member's edits: it may read only.
    pub(super) read_only: bool,
    /// The network refused even reading: nothing is sent any more.
    pub(super) unreadable: bool,
}

impl OpenDocument {
    /// What the host shows of the document now: its text and editors.
    pub(super) fn changed(&self, address: &Address) -> ReplicaEffect {
        ReplicaEffect::DocumentChanged {
            address: address.clone(),
            text: self.doc.text(),
            editors: self.editors.clone(),
        }
    }
}

/// The replica's shared documents as Automerge documents: the open ones,
/// the stored copies, and the sync messages still unanswered.
#[derive(Debug, Clone, Default)]
pub struct SyncedDocuments {
    pub(super) open: BTreeMap<Address, OpenDocument>,
    pub(super) stored: BTreeMap<Address, Loader>,
    /// Sent sync events: their document and whether they carried edits, to
    /// know what a refusal means.
    pub(super) pending: BTreeMap<EventId, (Address, bool)>,
}

pub(super) fn persist(writes: Writes, address: &Address) -> Vec<ReplicaEffect> {
    let mut effects: Vec<ReplicaEffect> = writes
        .store
        .into_iter()
        .map(|row| ReplicaEffect::Persist(ReplicaRow::Document(row)))
        .collect();
    effects.extend(writes.remove.into_iter().map(|(writer, part)| {
        ReplicaEffect::Persist(ReplicaRow::DocumentRemoved {
            address: address.clone(),
            writer,
            part,
        })
    }));
    effects
}

impl SyncedDocuments {
    /// Replays a stored row.
    pub(super) fn restore(&mut self, row: ReplicaRow) {
        match row {
            ReplicaRow::Document(row) => self
                .stored
                .entry(row.address.clone())
                .or_default()
                .add(&row),
            ReplicaRow::DocumentRemoved {
                address,
                writer,
                part,
            } => {
                if let Some(loader) = self.stored.get_mut(&address) {
                    loader.remove(&writer, part);
                }
            }
            _ => {}
        }
    }
}

/// The replica's documents: rows kept until the copies are installed, then the copies.
#[derive(Debug)]
pub(super) enum DocumentSlot {
    /// Not installed yet: the document rows restored so far, to hand over.
    Rows(Vec<ReplicaRow>),
    /// Installed.
    Installed(Box<dyn DocumentCopies>),
}

impl Default for DocumentSlot {
    fn default() -> Self {
        Self::Rows(Vec::new())
    }
}

impl DocumentSlot {
    /// Replays a stored document row, now or once the copies are installed.
    pub(super) fn restore(&mut self, row: ReplicaRow) {
        match self {
            Self::Installed(copies) => copies.restore(row),
            Self::Rows(rows) => rows.push(row),
        }
    }
}
