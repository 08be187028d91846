//! Files of real size, kept outside the network's state (in object storage
//! such as Cloudflare R2), and what the network decides about them.
//!
//! A message's file travels in four steps, each decided here and carried
//! out by a host ([`crate::bindings::http::files`] is the HTTP binding):
//!
//! 1. **Begin** ([`upload::begin`]): a member names the file (name, type,
//!    size) and the conversation it is for. The network's [`FileLimits`]
//!    say whether it fits: one file at most `max_file_bytes` (100 MiB by
//!    default), every file together at most `quota_bytes`. The answer is a
//!    [`StoredFile`] in state `uploading`, with its [`FileId`] and the
//!    size of its parts ([`PART_BYTES`]).
//! 2. **Parts** ([`upload::accept_part`]): each part is sent on its own, in
//!    any order, again after a dropped connection; the file remembers the
//!    parts it has, so a client asks what is missing and sends only that.
//! 3. **Complete** ([`upload::complete`]): with every part in, the file is
//!    `stored` and registered as an ordinary file resource,
//!    `resource/file/attachments/{id}/{name}`, read by the conversation's
//!    rule, whose content is a [`StoredContent`] naming the file instead of
//!    its bytes. The message names it like any attachment.
//! 4. **Download** ([`link`]): a member who may read the resource gets a
//!    signed link that expires; fetching it streams the bytes with a safe
//!    type and `Content-Disposition` ([`serve`]). Deleting the message (or
//!    unregistering the resource) deletes the stored bytes ([`released_by`]).
//!
//! Small files attached before this existed are base64 in the resource's
//! content and keep working ([`crate::model::attachment`]).

pub mod link;
pub mod serve;
pub mod upload;

use crate::error::{Coded, ErrorCode};
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::model::attachment::attachments_of;
use crate::{Event, Network};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// The size of every part but the last (8 MiB): object storage takes parts
/// of at least 5 MiB, all but the last of one size.
pub const PART_BYTES: u64 = 8 * 1024 * 1024;
/// A file may be sent in at most this many parts (R2's limit is 10,000).
pub const MAX_PARTS: u64 = 10_000;
pub use crate::model::file_limits::{FileLimits, MAX_FILE_BYTES_CEILING};
/// An upload with no part for this long (24 h) is abandoned: it is aborted
/// and its space freed the next time someone begins one.
pub const ABANDONED_AFTER_MS: u64 = 24 * 60 * 60 * 1000;
/// The event type that deletes a message (`mod/workspace`).
use crate::vocabulary::event_types::MESSAGE_DELETED;
/// The event type that removes a resource.
const RESOURCE_UNREGISTER: &str = "network.resource.unregister";

/// A stored file's id: 32 lowercase hex digits (16 random bytes).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct FileId(String);

impl FileId {
    /// The id made of `seed`'s first 16 bytes.
    pub fn from_seed(seed: &[u8; 32]) -> Self {
        Self(seed[..16].iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for FileId {
    type Err = FileError;

    fn from_str(s: &str) -> Result<Self, FileError> {
        if s.len() == 32 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            Ok(Self(s.to_owned()))
        } else {
            Err(FileError::NotFound)
        }
    }
}

impl TryFrom<String> for FileId {
    type Error = FileError;

    fn try_from(s: String) -> Result<Self, FileError> {
        s.parse()
    }
}

impl From<FileId> for String {
    fn from(id: FileId) -> String {
        id.0
    }
}

impl fmt::Display for FileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One received part of an upload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// The storage's tag for it, given back on completion.
    pub etag: String,
    /// Its size in bytes.
    pub size: u64,
}

/// Where a file is in its life.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileState {
    /// Parts are arriving.
    Uploading {
        /// The storage's multipart upload id (empty until the host started it).
        upload_id: String,
        /// The parts received, by number (1-based).
        parts: BTreeMap<u16, Part>,
    },
    /// Every part is in; the file is readable.
    Stored,
}

/// A file the network keeps: who sent it, what it is, where it is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredFile {
    /// Its id (and, under the network's prefix, its storage key).
    pub id: FileId,
    /// The member who sends it.
    pub owner: Address,
    /// The file's name as the person chose it.
    pub name: String,
    /// Its MIME type.
    pub mime: String,
    /// Its size in bytes.
    pub size: u64,
    /// The resource it is registered as once stored.
    pub resource: Address,
    /// The conversation it is attached in (its read rule's source).
    pub conversation: Address,
    /// When the upload began.
    pub created_at: Timestamp,
    /// Uploading or stored (its own object: a flattened map of parts
    /// would not read back).
    pub state: FileState,
}

impl StoredFile {
    /// How many parts the whole file takes.
    pub fn part_count(&self) -> u64 {
        self.size.div_ceil(PART_BYTES).max(1)
    }

    /// The size part `number` (1-based) must have.
    pub fn part_size(&self, number: u64) -> u64 {
        let before = (number - 1) * PART_BYTES;
        self.size.saturating_sub(before).min(PART_BYTES)
    }

    /// The storage key of its bytes: `{network}/{id}`.
    pub fn key(&self, network: &crate::NetworkId) -> String {
        format!("{network}/{}", self.id)
    }

    /// True for an upload begun more than [`ABANDONED_AFTER_MS`] ago and never completed.
    pub fn is_abandoned(&self, now: Timestamp) -> bool {
        !self.is_stored() && now.millis_since(self.created_at) > ABANDONED_AFTER_MS
    }

    /// True once every part is in and it is readable.
    pub fn is_stored(&self) -> bool {
        self.state == FileState::Stored
    }
}

/// A file resource's content when its bytes are in storage:
/// `{"storage": "files", "file": id, "size": n}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredContent {
    /// Always `files`.
    pub storage: String,
    /// The stored file.
    pub file: FileId,
    /// Its size in bytes.
    pub size: u64,
}

/// The `storage` value of [`StoredContent`].
pub const STORAGE: &str = "files";

impl StoredContent {
    /// The content naming `file`.
    pub fn of(file: &StoredFile) -> Self {
        Self {
            storage: STORAGE.to_owned(),
            file: file.id.clone(),
            size: file.size,
        }
    }

    /// The stored file a resource's content names, if it names one.
    pub fn in_content(content: &Value) -> Option<Self> {
        serde_json::from_value::<Self>(content.clone())
            .ok()
            .filter(|c| c.storage == STORAGE)
    }
}

/// Why a file request is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// A field is missing or wrong.
    #[error("{0}")]
    Malformed(String),
    /// Bigger than the network's `max_file_bytes`.
    #[error("{name} is {size} bytes; files here are at most {max} bytes")]
    TooLarge {
        /// The file's name.
        name: String,
        /// Its size.
        size: u64,
        /// The limit.
        max: u64,
    },
    /// The quota would be passed.
    #[error(
        "the network's file storage is full: {used} of {quota} bytes are used and this file needs {size}; delete files or ask a master to raise the quota"
    )]
    StorageFull {
        /// Bytes in use.
        used: u64,
        /// The quota.
        quota: u64,
        /// The file's size.
        size: u64,
    },
    /// No such file (or not one the caller may see).
    #[error("no such file")]
    NotFound,
    /// The caller may not do this with the file.
    #[error("{0}")]
    Denied(String),
    /// A part of the wrong number or size.
    #[error("{0}")]
    BadPart(String),
    /// Completing before every part is in.
    #[error("parts {0:?} are missing")]
    Incomplete(Vec<u64>),
    /// A link that is expired, forged or for someone else.
    #[error("this link is expired or not valid; ask for a new one")]
    BadLink,
}

impl Coded for FileError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::Malformed(_) | Self::BadPart(_) | Self::Incomplete(_) => {
                ErrorCode::InvalidRequest
            }
            Self::TooLarge { .. } => ErrorCode::TooLarge,
            Self::StorageFull { .. } => ErrorCode::StorageFull,
            Self::NotFound => ErrorCode::NotFound,
            Self::Denied(_) | Self::BadLink => ErrorCode::AccessDenied,
        }
    }
}

/// A resource whose stored bytes a committed event releases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Released {
    /// The file resource.
    pub resource: Address,
    /// Whose file it must be to go: a deleted message releases only its
    /// author's files (a message may name anyone's resource); `None` for an
    /// unregistered resource (the network let only its admins do that).
    pub owned_by: Option<Address>,
}

impl Released {
    /// True when `file` is released by this.
    pub fn covers(&self, file: &StoredFile) -> bool {
        file.resource == self.resource && self.owned_by.as_ref().is_none_or(|o| *o == file.owner)
    }
}

/// What `event` releases once committed: a deleted message's attachments
/// (`deleted` is the message it deletes, read from the log by the host) or
/// an unregistered resource.
pub fn released_by(event: &Event, deleted: Option<&Event>) -> Vec<Released> {
    match event.event_type.as_str() {
        MESSAGE_DELETED => deleted
            .map(|message| {
                attachments_of(&message.payload)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|a| Released {
                        resource: a.resource,
                        owned_by: Some(message.source.clone()),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        RESOURCE_UNREGISTER => event
            .payload
            .get("address")
            .and_then(Value::as_str)
            .and_then(|a| a.parse().ok())
            .map(|resource| Released {
                resource,
                owned_by: None,
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// The message id a committed deletion names, for the host to read from its log.
pub fn deleted_message(event: &Event) -> Option<String> {
    (event.event_type.as_str() == MESSAGE_DELETED)
        .then(|| event.payload.get("message")?.as_str().map(str::to_owned))
        .flatten()
}

/// True when `member` is a member now and may read the file registered as `resource`.
pub fn may_read(network: &Network, member: &Address, resource: &Address) -> bool {
    let state = network.state();
    state.role_of(member).is_some()
        && state
            .resources
            .get(resource)
            .is_some_and(|r| state.may(member, r, crate::model::access::Permission::Read))
}

#[cfg(test)]
mod tests;
