//! Shared documents: the text of `resource/file/…` and `resource/context/…`
//! resources as Automerge documents that members edit together, online or
//! offline.
//!
//! The rows ([`DocumentRow`]) are plain data and always compiled, so a host
//! without the `documents` feature still reads and skips them. With the
//! feature:
//! * [`TextDocument`] — one Automerge document holding one text, with
//!   deterministic actors and commit times passed in;
//! * a [`DocumentHost`] keeps the canonical copy of every document of one
//!   network, syncing each member with Automerge's sync protocol in
//!   `network.resource.update` events; the network holds it in itself or
//!   asks one kept elsewhere (`network::documents`);
//! * the [`crate::replica::Replica`] keeps a local copy of each document it
//!   opens and syncs it whenever it is online.
//!
//! Sync payloads: a member sends `{"sync": base64}` (or `{"close": true}`)
//! to the resource; the network answers `{"address", "sync"?, "editors"}`
//! from `core`, where `editors` lists the members with the document open.

#[cfg(feature = "documents")]
pub(crate) mod expansion;
#[cfg(feature = "documents")]
mod host;
#[cfg(feature = "documents")]
pub(crate) mod kept;
#[cfg(feature = "documents")]
mod persist;
#[cfg(feature = "documents")]
mod receive;
mod row;
#[cfg(feature = "documents")]
mod text;

#[cfg(feature = "documents")]
pub use expansion::MAX_EXPANDED_BYTES;
#[cfg(feature = "documents")]
pub use host::{DocumentHost, Handling};
#[cfg(feature = "documents")]
pub use kept::{
    DocumentWrite, MAX_DOCUMENT_SESSIONS_PER_MEMBER, MAX_SESSIONS_PER_DOCUMENT,
    MAX_SESSIONS_PER_MEMBER,
};
#[cfg(feature = "documents")]
pub(crate) use persist::{Loader, Persistence, Writes};
pub use row::{DocumentRow, MAX_PART_BYTES, Part};
#[cfg(feature = "documents")]
pub use text::{DocumentError, TextDocument, carries_changes, decode_sync, encode_sync};

use crate::model::requests::documents::DocumentSync;
use crate::model::requests::field::read;

/// A resource's JSON content as text: a string as it is, `null` as nothing,
/// anything else as pretty JSON. What a document starts from, and what an
/// editor of structured content shows.
pub fn content_text(content: &serde_json::Value) -> String {
    match content {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Null => String::new(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

/// True for a `network.resource.update` to a file or context that carries a
/// sync message or closes the document (rather than replacing fields).
pub fn is_sync_event(event: &crate::event::Event) -> bool {
    event.event_type.as_str() == crate::ids::event_type::core_types::RESOURCE_UPDATE
        && matches!(
            event.target.entity(),
            crate::ids::address::Entity::File(_) | crate::ids::address::Entity::Context(_)
        )
        && {
            let sent = read::<DocumentSync>(&event.payload);
            sent.sync.is_sent() || sent.close.is_sent()
        }
}

/// The event payload field names of the sync protocol.
pub mod payload {
    /// Base64 Automerge sync message.
    pub const SYNC: &str = "sync";
    /// A member closes the document (`true`).
    pub const CLOSE: &str = "close";
    /// The network's list of members with the document open.
    pub const EDITORS: &str = "editors";
    /// The document's resource address, in the network's messages.
    pub const ADDRESS: &str = "address";
}

#[cfg(feature = "documents")]
#[cfg(test)]
mod tests;
