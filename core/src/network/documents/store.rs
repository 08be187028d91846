//! The network's shared documents as data: the open ones with their sync
//! sessions, the stored rows of the rest, and the helpers that turn document
//! writes into effects (feature `documents`).

use crate::documents::{DocumentError, DocumentRow, Loader, Persistence, TextDocument, Writes};
use crate::error::{Coded, ErrorCode, Rejection};
use crate::ids::address::Address;
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use crate::model::requests::field::AsSent;
use crate::model::state::{Row, RowKind};
use crate::network::effects::Effect;
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
/// The longest session id a member may choose.
pub(crate) const MAX_SESSION_LEN: usize = 64;

/// One open document.
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

/// The effects that store and remove a document's rows.
pub(crate) fn store_effects(address: &Address, writes: Writes) -> Vec<Effect> {
    let mut effects: Vec<Effect> = writes
        .store
        .into_iter()
        .map(|row| Effect::Store(Row::Document(row)))
        .collect();
    effects.extend(
        writes
            .remove
            .into_iter()
            .map(|(writer, part)| Effect::Remove {
                kind: RowKind::Document,
                key: DocumentRow::key_of(address, &writer, part),
            }),
    );
    effects
}

/// A new document holding `text`, written by the network; `effects` receives its first rows.
pub(crate) fn fresh_document(
    address: &Address,
    actor: [u8; 16],
    text: &str,
    now: Timestamp,
    effects: &mut Vec<Effect>,
) -> Shared {
    let mut doc = TextDocument::with_genesis(actor);
    if !text.is_empty() {
        let _ = doc.set_text(text, now);
    }
    let (persistence, writes) = Persistence::initial(address, WRITER, &mut doc);
    effects.extend(store_effects(address, writes));
    Shared::new(doc, persistence)
}

/// `payload.session` (sent as `session`): the member's session id for a document sync.
pub(crate) fn session_of(session: AsSent<String>) -> Result<String, Rejection> {
    match session.given() {
        Some(s)
            if !s.is_empty()
                && s.len() <= MAX_SESSION_LEN
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            Ok(s)
        }
        _ => Err(Rejection::new(
            ErrorCode::InvalidRequest,
            format!("payload.session must be 1–{MAX_SESSION_LEN} letters, digits, - or _"),
        )),
    }
}
