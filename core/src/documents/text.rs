//! [`TextDocument`]: one Automerge document holding one text.
//!
//! Every copy's first change is the same genesis change (a fixed actor
//! creates `ROOT.text` at time 0, with no dependencies), so documents created
//! apart — by the network and by a member who opened the resource offline —
//! share that change and merge instead of competing for `ROOT.text`. A copy
//! makes genesis only when it first edits an empty document: a copy that
//! receives the document first starts truly empty, which lets Automerge
//! load the whole compressed document at once instead of change by change.
//! Each copy writes with its own actor, given by the caller. Positions count
//! UTF-16 code units, as JavaScript strings do.

use crate::error::{Coded, ErrorCode};
use crate::ids::time::Timestamp;
use automerge::sync::{self, SyncDoc};
use automerge::transaction::{CommitOptions, Transactable};
use automerge::{
    ActorId, AutoCommit, LoadOptions, ObjType, OnPartialLoad, ROOT, ReadDoc, TextEncoding,
};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// The actor of the genesis change shared by every copy.
pub(super) const GENESIS_ACTOR: [u8; 16] = *b"agentnet-genesis";
/// The genesis text's object id: the genesis actor's first operation (`1@` + the actor in hex).
pub(super) const GENESIS_TEXT: &str = "1@6167656e746e65742d67656e65736973";
/// The root key of the text.
const TEXT_KEY: &str = "text";

/// What can go wrong with a document or a sync message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    /// A sync message is not base64 or not an Automerge sync message.
    #[error("not an Automerge sync message: {0}")]
    InvalidMessage(String),
    /// Stored or received bytes are not an Automerge document with a text.
    #[error("not a text document: {0}")]
    InvalidDocument(String),
    /// A sync message's changes expand past what one message may hold.
    #[error("a sync message's changes expand to more than {limit} bytes")]
    TooLarge {
        /// The most bytes a message's changes may expand to.
        limit: u64,
    },
    /// An edit reaches past the end of the text.
    #[error("the edit at {index} (deleting {delete}) is outside the text of length {length}")]
    OutOfRange {
        /// Where the edit starts.
        index: usize,
        /// How much it deletes.
        delete: usize,
        /// The text's length in UTF-16 code units.
        length: usize,
    },
}

impl Coded for DocumentError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::TooLarge { .. } => ErrorCode::TooLarge,
            _ => ErrorCode::InvalidRequest,
        }
    }
}

fn invalid_document(error: impl std::fmt::Display) -> DocumentError {
    DocumentError::InvalidDocument(error.to_string())
}

/// Encodes a sync message for an event payload.
pub fn encode_sync(message: sync::Message) -> String {
    STANDARD.encode(message.encode())
}

/// Bloom filter probes a peer may ask for (Automerge uses 7).
const MAX_BLOOM_PROBES: u64 = 64;
/// Bloom filter bits per entry a peer may ask for (Automerge uses 10).
const MAX_BLOOM_BITS_PER_ENTRY: u64 = 64;

/// Decodes a sync message from an event payload, refusing what Automerge
/// would decode but then fail on: a Bloom filter with entries and no bits
/// (a division by zero inside Automerge, found by the `document_sync` fuzz
/// target) or with absurd probe counts (an allocation of gigabytes); and
/// changes that expand past [`super::expansion::MAX_EXPANDED_BYTES`] (`too_large`).
pub fn decode_sync(text: &str) -> Result<sync::Message, DocumentError> {
    let bytes = STANDARD
        .decode(text)
        .map_err(|e| DocumentError::InvalidMessage(e.to_string()))?;
    let message =
        sync::Message::decode(&bytes).map_err(|e| DocumentError::InvalidMessage(e.to_string()))?;
    for have in &message.have {
        check_bloom(&have.bloom.to_bytes())?;
    }
    super::expansion::check(message.changes.iter()).map_err(|e| match e {
        super::expansion::ExpansionError::TooLarge => DocumentError::TooLarge {
            limit: super::expansion::MAX_EXPANDED_BYTES,
        },
        malformed => DocumentError::InvalidMessage(malformed.to_string()),
    })?;
    Ok(message)
}

/// Checks an encoded Bloom filter: empty, or `entries, bits per entry,
/// probes` (LEB128) followed by at least one byte of bits, within bounds.
fn check_bloom(bytes: &[u8]) -> Result<(), DocumentError> {
    if bytes.is_empty() {
        return Ok(());
    }
    let invalid = || DocumentError::InvalidMessage("a Bloom filter out of bounds".into());
    let mut rest = bytes;
    let mut field = || -> Result<u64, DocumentError> {
        let mut value: u64 = 0;
        for shift in (0..64).step_by(7) {
            let (&byte, tail) = rest.split_first().ok_or_else(invalid)?;
            rest = tail;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(invalid())
    };
    let (_entries, bits_per_entry, probes) = (field()?, field()?, field()?);
    if rest.is_empty()
        || !(1..=MAX_BLOOM_PROBES).contains(&probes)
        || bits_per_entry > MAX_BLOOM_BITS_PER_ENTRY
    {
        return Err(invalid());
    }
    Ok(())
}

/// True when the base64 sync message carries changes (an edit), false when it
/// only announces what its sender has and needs — or does not decode.
pub fn carries_changes(text: &str) -> bool {
    decode_sync(text).is_ok_and(|m| !m.changes.is_empty())
}

/// One shared text.
#[derive(Debug, Clone)]
pub struct TextDocument {
    pub(super) doc: AutoCommit,
    /// The heads when the document was last saved or loaded from storage:
    /// [`TextDocument::save_incremental`] saves what came after them. Empty
    /// when nothing of this document is stored yet.
    saved: Vec<automerge::ChangeHash>,
}

impl TextDocument {
    /// A new empty text written by `actor` from now on.
    pub fn new(actor: [u8; 16]) -> Self {
        let doc = AutoCommit::new_with_encoding(TextEncoding::Utf16CodeUnit)
            .with_actor(ActorId::from(actor));
        Self {
            doc,
            saved: Vec::new(),
        }
    }

    /// A new text that already holds the genesis change (the network's copies).
    pub fn with_genesis(actor: [u8; 16]) -> Self {
        let mut document = Self::new(actor);
        document.ensure_genesis();
        document
    }

    /// Makes the genesis change if this copy is still empty.
    fn ensure_genesis(&mut self) {
        if !self.doc.is_empty() {
            return;
        }
        let actor = self.doc.get_actor().clone();
        self.doc.set_actor(ActorId::from(GENESIS_ACTOR));
        // Infallible on an empty document: the root map takes any key.
        let _ = self.doc.put_object(ROOT, TEXT_KEY, ObjType::Text);
        self.doc.commit_with(CommitOptions::default().with_time(0));
        self.doc.set_actor(actor);
    }

    /// Loads a saved document (snapshot followed by incremental chunks).
    pub fn load(bytes: &[u8], actor: [u8; 16]) -> Result<Self, DocumentError> {
        let mut document = Self::new(actor);
        document.load_incremental(bytes)?;
        document.mark_saved();
        Ok(document)
    }

    /// Loads stored pieces (snapshots and chunks, concatenated) in one pass:
    /// Automerge applies the changes of every chunk together, one walk over
    /// the document, where merging chunk by chunk walks it once per chunk.
    /// Fails when any piece is unreadable or a change lacks what it depends
    /// on, so a caller can fall back to merging piece by piece.
    pub(crate) fn load_whole(bytes: &[u8], actor: [u8; 16]) -> Result<Self, DocumentError> {
        if bytes.is_empty() {
            return Ok(Self::new(actor));
        }
        let options = LoadOptions::new()
            .text_encoding(TextEncoding::Utf16CodeUnit)
            .on_partial_load(OnPartialLoad::Error);
        let doc = AutoCommit::load_with_options(bytes, options)
            .map_err(invalid_document)?
            .with_actor(ActorId::from(actor));
        let mut document = Self {
            doc,
            saved: Vec::new(),
        };
        document.text_object()?;
        document.mark_saved();
        Ok(document)
    }

    /// The genesis text, by its id: values put at `ROOT.text` later (a
    /// faulty or hostile peer's) never replace it.
    fn text_object(&self) -> Result<automerge::ObjId, DocumentError> {
        match self.doc.import(GENESIS_TEXT) {
            Ok((id, ObjType::Text)) => Ok(id),
            _ => Err(DocumentError::InvalidDocument("no genesis text".into())),
        }
    }

    /// Merges saved bytes (a snapshot or chunks) into this document.
    pub(crate) fn load_incremental(&mut self, bytes: &[u8]) -> Result<(), DocumentError> {
        self.doc.load_incremental(bytes).map_err(invalid_document)?;
        if self.doc.is_empty() {
            return Ok(());
        }
        self.text_object().map(drop)
    }

    /// The current text.
    pub fn text(&self) -> String {
        self.text_object()
            .and_then(|id| self.doc.text(&id).map_err(invalid_document))
            .unwrap_or_default()
    }

    /// The text's length in UTF-16 code units.
    pub fn len(&self) -> usize {
        self.text_object().map_or(0, |id| self.doc.length(&id))
    }

    /// True when the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Deletes `delete` units at `index` and inserts `insert` there, as one change at `now` (ms).
    pub fn splice(
        &mut self,
        index: usize,
        delete: usize,
        insert: &str,
        now: Timestamp,
    ) -> Result<(), DocumentError> {
        self.ensure_genesis();
        let length = self.len();
        let out_of_range = DocumentError::OutOfRange {
            index,
            delete,
            length,
        };
        if index.checked_add(delete).is_none_or(|end| end > length) {
            return Err(out_of_range);
        }
        let delete = isize::try_from(delete).map_err(|_| out_of_range)?;
        let id = self.text_object()?;
        self.doc
            .splice_text(&id, index, delete, insert)
            .map_err(invalid_document)?;
        self.commit(now);
        Ok(())
    }

    /// Replaces the text with `text`, recorded as the smallest edit (a diff), at `now` (ms).
    pub fn set_text(&mut self, text: &str, now: Timestamp) -> Result<(), DocumentError> {
        self.ensure_genesis();
        let id = self.text_object()?;
        self.doc.update_text(&id, text).map_err(invalid_document)?;
        self.commit(now);
        Ok(())
    }

    fn commit(&mut self, now: Timestamp) {
        let seconds = i64::try_from(now.as_secs()).unwrap_or(i64::MAX);
        self.doc
            .commit_with(CommitOptions::default().with_time(seconds));
    }

    /// Drops every change not included in `heads` (changes the network
    /// refused); from now on the document writes as `actor`. What is stored
    /// holds the refused changes, so the document counts as never saved.
    pub fn rewind(&mut self, heads: &[automerge::ChangeHash], actor: [u8; 16]) {
        self.saved.clear();
        self.doc = match self.doc.fork_at(heads) {
            Ok(mut forked) if !heads.is_empty() => {
                forked.set_actor(ActorId::from(actor));
                forked
            }
            _ => Self::new(actor).doc,
        };
    }

    /// The whole document, compressed.
    pub fn save(&mut self) -> Vec<u8> {
        let bytes = self.doc.save();
        self.saved = self.doc.get_heads();
        bytes
    }

    /// Records that everything the document holds now is stored (it was
    /// just loaded from storage), without encoding anything.
    pub(crate) fn mark_saved(&mut self) {
        self.saved = self.doc.get_heads();
    }

    /// True when none of the document's changes are stored yet: a first
    /// save should be a whole snapshot ([`TextDocument::save`]), which is far
    /// smaller and cheaper to make than every change one by one.
    pub fn never_saved(&self) -> bool {
        self.saved.is_empty() && !self.doc.is_empty()
    }

    /// The changes since the last `save`, `save_incremental` or load (empty when none).
    pub fn save_incremental(&mut self) -> Vec<u8> {
        let bytes = self.doc.save_after(&self.saved);
        if !bytes.is_empty() {
            self.saved = self.doc.get_heads();
        }
        bytes
    }

    /// The hashes of the newest changes: equal heads mean equal documents.
    pub fn heads(&mut self) -> Vec<automerge::ChangeHash> {
        self.doc.get_heads()
    }

    /// The next sync message for the peer whose state is `state`, if any.
    ///
    /// To a peer that said it has nothing, the message carries every change
    /// (the whole compressed document), so after applying it the peer holds
    /// all this copy has: the Bloom filter of everything this copy has
    /// ("have") would only cost bytes on the wire and the peer a check of
    /// each change against it, so it is left out. Without "have" the peer
    /// sends back just what this copy asks for ("need"); edits the peer made
    /// while the document was on its way reach this copy one exchange later,
    /// when its heads show them and the next message carries the filter.
    pub fn generate_sync_message(&mut self, state: &mut sync::State) -> Option<sync::Message> {
        let mut message = self.doc.sync().generate_sync_message(state)?;
        let peer_has_nothing = state.their_heads.as_ref().is_some_and(Vec::is_empty);
        if peer_has_nothing && !message.changes.is_empty() {
            message.have.clear();
        }
        Some(message)
    }

    /// Applies a peer's sync message; true when the document changed.
    pub fn receive_sync_message(
        &mut self,
        state: &mut sync::State,
        message: sync::Message,
    ) -> Result<bool, DocumentError> {
        let before = self.doc.get_heads();
        super::receive::receive(&mut self.doc, state, message)
            .map_err(|e| DocumentError::InvalidMessage(e.to_string()))?;
        Ok(self.doc.get_heads() != before)
    }
}
