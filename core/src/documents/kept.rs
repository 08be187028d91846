//! A keeper's documents as data: the open ones with their sync sessions, the
//! stored rows of the rest, the limits on sessions, and the rows a change
//! writes ([`DocumentWrite`]).

use super::persist::{Loader, Persistence, Writes};
use super::row::DocumentRow;
use super::text::{DocumentError, TextDocument};
use crate::error::{Coded, ErrorCode, Rejection};
use crate::ids::address::Address;
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use automerge::sync;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Open sessions one document keeps at most; beyond it new sessions are refused.
pub const MAX_SESSIONS_PER_DOCUMENT: usize = 256;
/// Sessions one member may hold on one document (a member's tabs or processes).
pub const MAX_SESSIONS_PER_MEMBER: usize = 8;
/// Sessions one member may hold on all documents together.
pub const MAX_DOCUMENT_SESSIONS_PER_MEMBER: usize = 64;
/// The writer name of the network's own rows.
pub(crate) const WRITER: &str = "network";

/// One open document.
#[derive(Debug, Clone)]
pub(crate) struct Shared {
    pub(crate) doc: TextDocument,
    pub(crate) persistence: Persistence,
    /// Sync state per `(member, session)`.
    pub(crate) sessions: BTreeMap<(Address, String), sync::State>,
}

impl Shared {
    pub(crate) fn new(doc: TextDocument, persistence: Persistence) -> Self {
        Self {
            doc,
            persistence,
            sessions: BTreeMap::new(),
        }
    }
}

/// Every document of the network: loaded ones, and the stored rows of the rest.
#[derive(Debug, Clone)]
pub(crate) struct Documents {
    pub(crate) actor: [u8; 16],
    pub(crate) open: BTreeMap<Address, Shared>,
    pub(crate) stored: BTreeMap<Address, Loader>,
}

impl Documents {
    /// The documents of `network`, which writes with an actor derived from its id.
    pub fn new(network: &NetworkId) -> Self {
        let digest = Sha256::new()
            .chain_update(b"agentnet network actor\0")
            .chain_update(network.as_str().as_bytes())
            .finalize();
        let mut actor = [0u8; 16];
        actor.copy_from_slice(&digest[..16]);
        Self {
            actor,
            open: BTreeMap::new(),
            stored: BTreeMap::new(),
        }
    }

    /// Whether the document at `address` is here, open or stored.
    pub(crate) fn has(&self, address: &Address) -> bool {
        self.open.contains_key(address) || self.stored.contains_key(address)
    }

    /// Restores one stored row (documents load when first used).
    pub fn restore(&mut self, row: &DocumentRow) {
        self.stored.entry(row.address.clone()).or_default().add(row);
    }
}

impl Documents {
    /// Refuses a new session of `member` on `address` when the document, the
    /// member on it or the member on all documents holds as many as allowed.
    pub(crate) fn admit_session(
        &self,
        address: &Address,
        member: &Address,
    ) -> Result<(), Rejection> {
        let refuse = |why: String| Err(Rejection::new(ErrorCode::LimitReached, why));
        let mut on_document = 0;
        let mut everywhere = 0;
        for (open, shared) in &self.open {
            let mine = shared.sessions.keys().filter(|(m, _)| m == member).count();
            everywhere += mine;
            if open == address {
                on_document = mine;
                if shared.sessions.len() >= MAX_SESSIONS_PER_DOCUMENT {
                    return refuse(format!(
                        "{address} has {MAX_SESSIONS_PER_DOCUMENT} open sessions already"
                    ));
                }
            }
        }
        if on_document >= MAX_SESSIONS_PER_MEMBER {
            return refuse(format!(
                "{member} has {MAX_SESSIONS_PER_MEMBER} sessions of {address} open; close one first"
            ));
        }
        if everywhere >= MAX_DOCUMENT_SESSIONS_PER_MEMBER {
            return refuse(format!(
                "{member} has {MAX_DOCUMENT_SESSIONS_PER_MEMBER} document sessions open; close one first"
            ));
        }
        Ok(())
    }
}

/// A document error as a rejection with its stable code.
pub(crate) fn rejection(error: &DocumentError) -> Rejection {
    Rejection::new(error.code(), error.to_string())
}

/// One row a keeper writes or deletes after a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentWrite {
    /// Insert or replace this row.
    Store(DocumentRow),
    /// Delete the row with this key ([`DocumentRow::key`]).
    Remove(String),
}

/// The rows to write and delete for `writes` of the document at `address`.
pub(crate) fn row_writes(address: &Address, writes: Writes) -> Vec<DocumentWrite> {
    let mut rows: Vec<DocumentWrite> = writes.store.into_iter().map(DocumentWrite::Store).collect();
    rows.extend(
        writes.remove.into_iter().map(|(writer, part)| {
            DocumentWrite::Remove(DocumentRow::key_of(address, &writer, part))
        }),
    );
    rows
}

/// A new document holding `text`, written by the network; `rows` receives its first rows.
pub(crate) fn fresh_document(
    address: &Address,
    actor: [u8; 16],
    text: &str,
    now: Timestamp,
    rows: &mut Vec<DocumentWrite>,
) -> Shared {
    let mut doc = TextDocument::with_genesis(actor);
    if !text.is_empty() {
        let _ = doc.set_text(text, now);
    }
    let (persistence, writes) = Persistence::initial(address, WRITER, &mut doc);
    rows.extend(row_writes(address, writes));
    Shared::new(doc, persistence)
}
