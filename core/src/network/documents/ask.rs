//! What a network asks of the keeper of its shared documents, and what the
//! keeper answers: plain data, always compiled, serialized as JSON when the
//! keeper is another object (a network kept without Automerge hands its
//! documents to an object of their own, `Network::keep_documents_elsewhere`).
//!
//! The keeper ([`crate::documents::DocumentHost`], feature `documents`) turns
//! one [`DocumentAsk`] into one [`DocumentAnswer`]: the sync messages for the
//! members' open sessions, the documents whose text changed, and a refusal of
//! a member's sync message. The rows it writes stay with the keeper.

use crate::error::{ErrorCode, Rejection};
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use serde::{Deserialize, Serialize};

/// Where a network object posts a [`DocumentAsk`] to the keeper kept
/// elsewhere, with `?network={id}`; the keeper answers a [`DocumentAnswer`].
pub const ASK_PATH: &str = "/v1/documents/ask";
/// Where a network object hands the keeper the document rows it stored
/// itself before its documents were kept elsewhere (a JSON array of
/// [`crate::documents::DocumentRow`]), with `?network={id}`.
pub const ADOPT_PATH: &str = "/v1/documents/adopt";

/// One thing the network asks of its documents' keeper, at `now`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentAsk {
    /// The network's time when it asked (the keeper's commit time).
    pub now: Timestamp,
    /// What to do.
    pub op: DocumentOp,
}

/// What the keeper is asked to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum DocumentOp {
    /// A file or context was registered (or registered again): a new
    /// document holds `text` (none: empty); an existing one is edited to
    /// `text`, or kept as it is without it.
    Create {
        /// The resource.
        address: Address,
        /// Its text content, when it was registered with one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A whole-content `network.resource.update`: the text becomes `text`.
    SetText {
        /// The resource.
        address: Address,
        /// Its new text.
        text: String,
        /// The resource's text before, should the keeper have no document of it yet.
        #[serde(default)]
        initial: String,
    },
    /// The resource was unregistered: its document and sessions go.
    Delete {
        /// The resource.
        address: Address,
    },
    /// A member's sync message (`network.resource.update` with `sync`).
    Sync {
        /// The resource.
        address: Address,
        /// Who sent it.
        member: Address,
        /// The member's session of the document.
        session: String,
        /// The base64 Automerge sync message.
        sync: String,
        /// The member may change the document (`write`); without it a
        /// message carrying changes is refused.
        may_write: bool,
        /// The event that carried it (what the answers reply to).
        request: EventId,
        /// The resource's text, should the keeper have no document of it yet.
        initial: String,
    },
    /// A member closes its session (`network.resource.update` with `close`).
    Close {
        /// The resource.
        address: Address,
        /// Who closes.
        member: Address,
        /// The session it closes.
        session: String,
        /// The resource's text, should the keeper have no document of it yet.
        initial: String,
    },
    /// The member went offline or left: its sessions end everywhere.
    Leave {
        /// The member.
        member: Address,
    },
}

impl DocumentOp {
    /// The document the op is about (none for [`DocumentOp::Leave`]).
    pub fn address(&self) -> Option<&Address> {
        match self {
            Self::Create { address, .. }
            | Self::SetText { address, .. }
            | Self::Delete { address }
            | Self::Sync { address, .. }
            | Self::Close { address, .. } => Some(address),
            Self::Leave { .. } => None,
        }
    }
}

/// The keeper's answer to one [`DocumentAsk`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentAnswer {
    /// The sync messages to send, each to one member's session.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<DocumentMessage>,
    /// The documents whose text changed (or was registered again, or
    /// adopted), with their text now, in the order of the changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub texts: Vec<DocumentText>,
    /// The member's sync message was refused (nothing of it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<DocumentRefusal>,
}

impl DocumentAnswer {
    /// What a host that keeps no documents answers: a member's sync is
    /// refused as unsupported; everything else has nothing to do.
    pub fn unavailable(ask: &DocumentAsk) -> Self {
        Self::refusing_sync(
            ask,
            ErrorCode::NotSupported,
            "this network does not keep shared documents",
        )
    }

    /// An answer that did nothing: a member's sync is refused with `code`
    /// and `message` (so it hears and may try again); other asks are dropped.
    pub fn refusing_sync(ask: &DocumentAsk, code: ErrorCode, message: &str) -> Self {
        let refused = match &ask.op {
            DocumentOp::Sync {
                member, request, ..
            } => Some(DocumentRefusal {
                member: member.clone(),
                request: *request,
                code,
                message: message.to_owned(),
            }),
            _ => None,
        };
        Self {
            refused,
            ..Self::default()
        }
    }
}

/// One sync message from the network to one member's session of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentMessage {
    /// The resource.
    pub address: Address,
    /// The member it goes to.
    pub member: Address,
    /// The member's session.
    pub session: String,
    /// The base64 sync message; none when only `editors` is news.
    #[serde(default)]
    pub sync: Option<String>,
    /// The members with the document open, each once.
    pub editors: Vec<Address>,
    /// The member's event this answers (its own sync message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_reply_to: Option<EventId>,
}

/// A document's text after a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentText {
    /// The resource.
    pub address: Address,
    /// Its whole text now.
    pub text: String,
}

/// A member's sync message the keeper refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentRefusal {
    /// Who sent it.
    pub member: Address,
    /// The event that carried it.
    pub request: EventId,
    /// Why, as a stable code.
    pub code: ErrorCode,
    /// Why, in words.
    pub message: String,
}

impl DocumentRefusal {
    /// The refusal as the rejection a member receives.
    pub fn rejection(&self) -> Rejection {
        Rejection::new(self.code, self.message.clone())
    }
}

#[cfg(test)]
#[path = "ask_tests.rs"]
mod tests;
