//! Keeping a document as rows: a compacted snapshot (in slices under
//! [`MAX_PART_BYTES`]) plus incremental chunks, compacted again once the
//! chunks outgrow the snapshot. Used by the network for its canonical
//! copies and by replicas for their local ones.

use super::row::{DocumentRow, MAX_PART_BYTES, Part};
use super::text::TextDocument;
use crate::ids::address::Address;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use std::collections::BTreeMap;

/// Rows to write and keys to delete after a change.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Writes {
    /// Rows to insert or replace.
    pub store: Vec<DocumentRow>,
    /// Pieces to delete: writer and part.
    pub remove: Vec<(String, Part)>,
}

/// What is stored of one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Persistence {
    /// Whose pieces these are ([`DocumentRow::writer`]).
    writer: String,
    snapshot_parts: u32,
    snapshot_bytes: usize,
    chunks: u32,
    chunk_bytes: usize,
    /// The largest piece in one row ([`MAX_PART_BYTES`]; smaller in tests).
    part_limit: usize,
}

impl Default for Persistence {
    fn default() -> Self {
        Self {
            writer: String::new(),
            snapshot_parts: 0,
            snapshot_bytes: 0,
            chunks: 0,
            chunk_bytes: 0,
            part_limit: MAX_PART_BYTES,
        }
    }
}

fn row(address: &Address, writer: &str, part: Part, bytes: &[u8]) -> DocumentRow {
    DocumentRow {
        address: address.clone(),
        writer: writer.to_owned(),
        part,
        data: STANDARD.encode(bytes),
    }
}

impl Persistence {
    /// Stores `doc` whole as `writer`'s: the first save of a new document.
    pub fn initial(address: &Address, writer: &str, doc: &mut TextDocument) -> (Self, Writes) {
        Self::initial_with_limit(address, writer, doc, MAX_PART_BYTES)
    }

    /// [`Persistence::initial`] with rows of at most `part_limit` bytes.
    pub fn initial_with_limit(
        address: &Address,
        writer: &str,
        doc: &mut TextDocument,
        part_limit: usize,
    ) -> (Self, Writes) {
        let mut persistence = Self {
            writer: writer.to_owned(),
            part_limit: part_limit.max(1),
            ..Self::default()
        };
        let writes = persistence.compact(address, doc);
        (persistence, writes)
    }

    /// Stores what changed in `doc` since the last save: a new chunk, or a
    /// new snapshot when the chunks would outgrow it (or the chunk alone is
    /// too large for a row, or nothing of the document was stored before).
    pub fn after_change(&mut self, address: &Address, doc: &mut TextDocument) -> Writes {
        if doc.never_saved() {
            return self.compact(address, doc);
        }
        let chunk = doc.save_incremental();
        if chunk.is_empty() {
            return Writes::default();
        }
        let chunk_bytes = self.chunk_bytes + chunk.len();
        if chunk.len() > self.part_limit
            || chunk_bytes > self.snapshot_bytes.max(self.part_limit / 16)
        {
            return self.compact(address, doc);
        }
        let part = Part::Chunk(self.chunks);
        self.chunks += 1;
        self.chunk_bytes = chunk_bytes;
        Writes {
            store: vec![row(address, &self.writer, part, &chunk)],
            remove: Vec::new(),
        }
    }

    /// Replaces every row of the document with a fresh snapshot.
    pub fn compact(&mut self, address: &Address, doc: &mut TextDocument) -> Writes {
        let snapshot = doc.save();
        let slices: Vec<&[u8]> = snapshot.chunks(self.part_limit).collect();
        let parts = u32::try_from(slices.len()).unwrap_or(u32::MAX);
        let store = slices
            .iter()
            .zip(0..)
            .map(|(slice, n)| row(address, &self.writer, Part::Snapshot(n), slice))
            .collect();
        let stale_snapshot = (parts..self.snapshot_parts).map(Part::Snapshot);
        let chunks = (0..self.chunks).map(Part::Chunk);
        let remove = stale_snapshot
            .chain(chunks)
            .map(|part| (self.writer.clone(), part))
            .collect();
        *self = Self {
            writer: std::mem::take(&mut self.writer),
            snapshot_parts: parts,
            snapshot_bytes: snapshot.len(),
            chunks: 0,
            chunk_bytes: 0,
            part_limit: self.part_limit,
        };
        Writes { store, remove }
    }

    /// Every piece stored for the document (to delete it).
    pub fn pieces(&self) -> Vec<(String, Part)> {
        (0..self.snapshot_parts)
            .map(Part::Snapshot)
            .chain((0..self.chunks).map(Part::Chunk))
            .map(|part| (self.writer.clone(), part))
            .collect()
    }
}

/// One writer's pieces.
#[derive(Debug, Clone, Default)]
struct Pieces {
    snapshot: BTreeMap<u32, String>,
    chunks: BTreeMap<u32, String>,
}

/// One writer's pieces, decoded from base64 (an unreadable piece is empty).
struct Decoded<'a> {
    name: &'a str,
    pieces: &'a Pieces,
    snapshot: Vec<u8>,
    chunks: Vec<Vec<u8>>,
}

/// Gathers a document's rows (in any order, from any writers) and loads it.
/// Rows stay base64 until the document is first used, so restoring a
/// network stays cheap.
#[derive(Debug, Clone, Default)]
pub(crate) struct Loader {
    writers: BTreeMap<String, Pieces>,
}

impl Loader {
    /// Adds one row.
    pub fn add(&mut self, row: &DocumentRow) {
        let pieces = self.writers.entry(row.writer.clone()).or_default();
        let data = row.data.clone();
        match row.part {
            Part::Snapshot(n) => pieces.snapshot.insert(n, data),
            Part::Chunk(n) => pieces.chunks.insert(n, data),
        };
    }

    /// Forgets a piece (replaying a deletion).
    pub fn remove(&mut self, writer: &str, part: Part) {
        if let Some(pieces) = self.writers.get_mut(writer) {
            match part {
                Part::Snapshot(n) => pieces.snapshot.remove(&n),
                Part::Chunk(n) => pieces.chunks.remove(&n),
            };
        }
    }

    /// The document, and its pieces taken over by `writer`: when only
    /// `writer`'s pieces are stored they stay as they are; otherwise the
    /// document is stored afresh as `writer`'s and the others' pieces go.
    /// All pieces load in one pass (Automerge applies every chunk's changes
    /// in one walk over the document; chunk by chunk it walked the document
    /// once per chunk: 15 s for 445 chunks of typing on a 100,000-edit
    /// document in wasm). When a piece is unreadable (not base64, not
    /// Automerge) they load piece by piece instead and it is skipped: a
    /// damaged chunk costs its changes, not the document.
    pub fn load(
        self,
        address: &Address,
        writer: &str,
        actor: [u8; 16],
    ) -> (TextDocument, Persistence, Writes) {
        let decode = |text: &String| STANDARD.decode(text).unwrap_or_default();
        let decoded: Vec<Decoded<'_>> = self
            .writers
            .iter()
            .map(|(name, pieces)| Decoded {
                name,
                pieces,
                snapshot: pieces.snapshot.values().flat_map(decode).collect(),
                chunks: pieces.chunks.values().map(decode).collect(),
            })
            .collect();
        // Everything in one pass when every piece is sound; otherwise piece by
        // piece, skipping what cannot be read.
        let whole: Vec<u8> = decoded
            .iter()
            .flat_map(|d| std::iter::once(&d.snapshot).chain(&d.chunks))
            .flatten()
            .copied()
            .collect();
        let at_once = TextDocument::load_whole(&whole, actor).ok();
        let loaded_whole = at_once.is_some();
        let mut doc = at_once.unwrap_or_else(|| TextDocument::new(actor));
        let mut own = Persistence {
            writer: writer.to_owned(),
            ..Persistence::default()
        };
        let mut others = Vec::new();
        for Decoded {
            name,
            pieces,
            snapshot,
            chunks,
        } in &decoded
        {
            if !loaded_whole {
                let _ = doc.load_incremental(snapshot);
            }
            let mut chunk_bytes = 0;
            for chunk in chunks {
                if loaded_whole || doc.load_incremental(chunk).is_ok() {
                    chunk_bytes += chunk.len();
                }
            }
            if *name == writer {
                own.snapshot_parts = pieces.snapshot.keys().next_back().map_or(0, |n| n + 1);
                own.snapshot_bytes = snapshot.len();
                own.chunks = pieces.chunks.keys().next_back().map_or(0, |n| n + 1);
                own.chunk_bytes = chunk_bytes;
            } else {
                let parts = pieces.snapshot.keys().map(|n| Part::Snapshot(*n));
                let chunks = pieces.chunks.keys().map(|n| Part::Chunk(*n));
                others.extend(parts.chain(chunks).map(|part| (name.to_string(), part)));
            }
        }
        // What was just loaded is stored already: the next chunk starts after it.
        doc.mark_saved();
        if others.is_empty() {
            return (doc, own, Writes::default());
        }
        let mut writes = own.compact(address, &mut doc);
        writes.remove.extend(others);
        (doc, own, writes)
    }
}
