//! A stored piece of a document: [`DocumentRow`] and which [`Part`] it holds.
//! Plain data, compiled with or without the `documents` feature.

use crate::ids::address::Address;
use serde::{Deserialize, Serialize};

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
