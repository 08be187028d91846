//! An upload's steps as the network decides them: whether a file may begin
//! (its size, the quota, the conversation), whether a part is the one
//! expected, what is still missing, and the resource a stored file becomes.

use super::{FileError, FileId, FileState, MAX_PARTS, PART_BYTES, Part, StoredContent, StoredFile};
use crate::Network;
use crate::ids::address::{Address, Entity};
use crate::ids::time::Timestamp;
use crate::model::attachment::{MAX_FILE_NAME_BYTES, attachment_address, is_mime, read_rule_for};
use serde::Deserialize;
use serde_json::{Value, json};

/// What a member sends to begin an upload.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeginRequest {
    /// The file's name.
    pub name: String,
    /// Its MIME type (`application/octet-stream` when left out).
    #[serde(default)]
    pub mime: Option<String>,
    /// Its size in bytes.
    pub size: u64,
    /// Where it will be attached: a channel, a member (a direct
    /// conversation) or `agent:broadcast`.
    pub conversation: Address,
}

/// Reads a begin request's JSON.
pub fn begin_request(body: &Value) -> Result<BeginRequest, FileError> {
    serde_json::from_value(body.clone()).map_err(|e| FileError::Malformed(format!("{e}")))
}

/// A new upload of `request` by `owner`, or why not: `used` is every byte
/// the network's files hold now (stored and uploading).
pub fn begin(
    network: &Network,
    owner: &Address,
    request: BeginRequest,
    used: u64,
    seed: &[u8; 32],
    now: Timestamp,
) -> Result<StoredFile, FileError> {
    let BeginRequest {
        name,
        mime,
        size,
        conversation,
    } = request;
    if name.is_empty() || name.len() > MAX_FILE_NAME_BYTES || name.chars().any(char::is_control) {
        return Err(FileError::Malformed(format!(
            "name is 1 to {MAX_FILE_NAME_BYTES} bytes of printable text"
        )));
    }
    let mime = mime.unwrap_or_else(|| "application/octet-stream".to_owned());
    if !is_mime(&mime) {
        return Err(FileError::Malformed(format!("{mime:?} is not a MIME type")));
    }
    let limits = network.config().files;
    if size == 0 {
        return Err(FileError::Malformed(
            "an empty file has nothing to send".into(),
        ));
    }
    if size > limits.max_file_bytes || size.div_ceil(PART_BYTES) > MAX_PARTS {
        return Err(FileError::TooLarge {
            name,
            size,
            max: limits.max_file_bytes,
        });
    }
    may_attach_in(network, owner, &conversation)?;
    if used.saturating_add(size) > limits.quota_bytes {
        return Err(FileError::StorageFull {
            used,
            quota: limits.quota_bytes,
            size,
        });
    }
    let id = FileId::from_seed(seed);
    let resource = attachment_address(id.as_str(), &name)
        .ok_or_else(|| FileError::Malformed("the file's address could not be made".into()))?;
    Ok(StoredFile {
        id,
        owner: owner.clone(),
        name,
        mime,
        size,
        resource,
        conversation,
        created_at: now,
        state: FileState::Uploading {
            upload_id: String::new(),
            parts: Default::default(),
        },
    })
}

/// Whether `owner` may attach a file in `conversation`: a channel it is in,
/// a member, or everyone.
fn may_attach_in(
    network: &Network,
    owner: &Address,
    conversation: &Address,
) -> Result<(), FileError> {
    let state = network.state();
    let allowed = match conversation.entity() {
        Entity::Broadcast => true,
        Entity::Channel(name) => state
            .channels
            .get(name)
            .is_some_and(|c| c.members.contains(owner)),
        _ => state.members.contains_key(conversation),
    };
    if allowed && conversation.is_local() {
        Ok(())
    } else {
        Err(FileError::Denied(format!(
            "{conversation} is not a conversation you can attach files in"
        )))
    }
}

/// The part number `number` of `file` checked: the file is still uploading,
/// the number is one of its parts and `len` is that part's size.
pub fn accept_part(file: &StoredFile, number: u64, len: u64) -> Result<u16, FileError> {
    if !matches!(file.state, FileState::Uploading { .. }) {
        return Err(FileError::BadPart(
            "the file is complete: it takes no more parts".into(),
        ));
    }
    let count = file.part_count();
    if !(1..=count).contains(&number) {
        return Err(FileError::BadPart(format!(
            "parts are numbered 1 to {count}"
        )));
    }
    let expected = file.part_size(number);
    if len != expected {
        return Err(FileError::BadPart(format!(
            "part {number} is {expected} bytes, not {len}"
        )));
    }
    u16::try_from(number).map_err(|_| FileError::BadPart("too many parts".into()))
}

/// Notes part `number` as received (again after a retry: the newest counts).
pub fn record_part(file: &mut StoredFile, number: u16, etag: String, size: u64) {
    if let FileState::Uploading { parts, .. } = &mut file.state {
        parts.insert(number, Part { etag, size });
    }
}

/// The part numbers not received yet.
pub fn missing_parts(file: &StoredFile) -> Vec<u64> {
    match &file.state {
        FileState::Uploading { parts, .. } => (1..=file.part_count())
            .filter(|n| u16::try_from(*n).map_or(true, |n| !parts.contains_key(&n)))
            .collect(),
        FileState::Stored => Vec::new(),
    }
}

/// The parts to complete the upload with, in order, once all are in.
pub fn completion(file: &StoredFile) -> Result<Vec<(u16, String)>, FileError> {
    let FileState::Uploading { parts, .. } = &file.state else {
        return Err(FileError::BadPart("the file is already complete".into()));
    };
    let missing = missing_parts(file);
    if !missing.is_empty() {
        return Err(FileError::Incomplete(missing));
    }
    Ok(parts.iter().map(|(n, p)| (*n, p.etag.clone())).collect())
}

/// What a client is told about an upload: enough to go on after a drop.
pub fn status(file: &StoredFile) -> Value {
    let received: Vec<u64> = match &file.state {
        FileState::Uploading { parts, .. } => parts.keys().map(|n| u64::from(*n)).collect(),
        FileState::Stored => (1..=file.part_count()).collect(),
    };
    json!({
        "file": file.id,
        "name": file.name,
        "mime": file.mime,
        "size": file.size,
        "resource": file.resource,
        "part_bytes": PART_BYTES,
        "parts": file.part_count(),
        "received": received,
        "missing": missing_parts(file),
        "state": if file.is_stored() { "stored" } else { "uploading" },
    })
}

/// The event that registers a stored file as its resource, sent as its
/// owner: read by the conversation's rule, the rest the owner's.
pub fn register_event(file: &StoredFile) -> Value {
    let read = read_rule_for(&file.conversation, &file.owner);
    json!({
        "type": crate::ids::event_type::core_types::RESOURCE_REGISTER,
        "target": Address::core(),
        "payload": {
            "address": file.resource,
            "content_type": file.mime,
            "description": file.name,
            "content": StoredContent::of(file),
            "permissions": {"read": read, "write": "owner", "invoke": "owner", "admin": "owner"},
        },
    })
}

/// The attachment a message names for a stored file (`payload.attachments[i]`).
pub fn attachment(file: &StoredFile) -> Value {
    json!({
        "resource": file.resource,
        "name": file.name,
        "mime": file.mime,
        "size": file.size,
    })
}
