//! Shared documents: the text of `resource/file/…` and `resource/context/…`
//! resources as Automerge documents that members edit together, online or
//! offline.
//!
//! The rows ([`DocumentRow`]) are plain data and always compiled, so a host
//! without the `documents` feature still reads and skips them. With the
//! feature:
//! * [`TextDocument`] — one Automerge document holding one text, with
//!   deterministic actors and commit times passed in;
//! * the network keeps the canonical copy of every document
//!   (`network::documents`), syncing each member with Automerge's sync
//!   protocol in `network.resource.update` events;
//! * the [`crate::replica::Replica`] keeps a local copy of each document it
//!   opens and syncs it whenever it is online.
//!
//! Sync payloads: a member sends `{"sync": base64}` (or `{"close": true}`)
//! to the resource; the network answers `{"address", "sync"?, "editors"}`
//! from `core`, where `editors` lists the members with the document open.

use crate::address::Address;
use serde::{Deserialize, Serialize};

#[cfg(feature = "documents")]
mod persist;
#[cfg(feature = "documents")]
mod receive;
#[cfg(feature = "documents")]
mod text;

#[cfg(feature = "documents")]
pub(crate) use persist::{Loader, Persistence, Writes};
#[cfg(feature = "documents")]
pub use text::{DocumentError, TextDocument, carries_changes, decode_sync, encode_sync};

/// The largest piece of a document stored in one row (bytes before base64),
/// well under the 2 MB row limit of Durable Object storage.
pub const MAX_PART_BYTES: usize = 1024 * 1024;

/// Which piece of a stored document a row holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// The `n`th slice of the compacted snapshot (`Automerge::save`), concatenated in order.
    Snapshot(u32),
    /// The `n`th incremental chunk saved after the snapshot (`save_incremental`).
    Chunk(u32),
}

/// One stored piece of a document.
///
/// Each copy that writes rows (the network; each opening of a document in a
/// replica, e.g. one per browser tab sharing one IndexedDB) writes under its
/// own `writer`, so copies never overwrite each other's pieces; loading
/// merges every writer's pieces, and a copy that loads takes the others'
/// pieces over into its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentRow {
    /// The resource whose text this is.
    pub address: Address,
    /// Which copy wrote it.
    #[serde(default)]
    pub writer: String,
    /// Which piece.
    pub part: Part,
    /// The bytes, base64 (standard alphabet, padded).
    pub data: String,
}

impl DocumentRow {
    /// The row's key: the address and the part, ordered so that a sort by
    /// key lists snapshot slices and chunks in the order they load.
    pub fn key(&self) -> String {
        Self::key_of(&self.address, &self.writer, self.part)
    }

    /// The key of `writer`'s `part` of the document at `address`.
    pub fn key_of(address: &Address, writer: &str, part: Part) -> String {
        match part {
            Part::Snapshot(n) => format!("{address}#{writer}#s{n:08}"),
            Part::Chunk(n) => format!("{address}#{writer}#c{n:08}"),
        }
    }
}

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
    event.event_type.as_str() == crate::event_type::core_types::RESOURCE_UPDATE
        && matches!(
            event.target.entity(),
            crate::address::Entity::File(_) | crate::address::Entity::Context(_)
        )
        && (event.payload.get(payload::SYNC).is_some()
            || event.payload.get(payload::CLOSE).is_some())
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
