//! Files attached to a message.
//!
//! An attached file is an ordinary file resource,
//! `resource/file/attachments/{id}/{name}` ([`attachment_address`]), registered
//! with its MIME type as `content_type` and its bytes as structured content
//! `{"encoding": "base64", "data": "…"}` ([`encode_content`]), so the network
//! stores it as given (not as a shared text document). Who may read it is the
//! conversation's rule ([`read_rule_for`]): a channel's members as they are
//! when they ask (`channel/{name}`), both people of a direct conversation, or
//! every member for the broadcast.
//!
//! The message names its files in `payload.attachments`, a list of
//! [`Attachment`]s that `mod/workspace` checks ([`attachments_of`]). A file
//! is at most [`MAX_ATTACHMENT_BYTES`]: its register event, base64 and all,
//! then fits the default payload limit
//! ([`crate::event::envelope::Limits`]).

use crate::error::{Coded, ErrorCode};
use crate::ids::address::{Address, Entity};
use crate::model::access::AccessRule;
use crate::model::file_limits::MAX_FILE_BYTES_CEILING;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The largest file whose bytes travel in its register event, in bytes
/// (375 KiB): base64 makes it 500 KiB, which leaves room in a 512 KiB
/// payload for the rest. Bigger files go to storage (`crate::files`).
pub const MAX_ATTACHMENT_BYTES: u64 = 375 * 1024;
/// The most files one message may carry.
pub const MAX_ATTACHMENTS: usize = 10;
/// The longest file name kept in a message, in bytes.
pub const MAX_FILE_NAME_BYTES: usize = 255;
/// Where attached files live, below `resource/file/`.
pub const ATTACHMENTS_FOLDER: &str = "attachments";
/// The longest name segment of an attachment's address.
const MAX_SEGMENT: usize = 80;

/// Why a message's attachments are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttachmentError {
    /// `payload.attachments` is not a list of attachment objects.
    #[error("payload.attachments: {0}")]
    Malformed(String),
    /// More than [`MAX_ATTACHMENTS`] files.
    #[error("a message carries at most {MAX_ATTACHMENTS} files")]
    TooMany,
    /// The resource is not an attachment's file address.
    #[error("{0} is not resource/file/attachments/{{id}}/{{name}}")]
    NotAnAttachment(String),
    /// An empty or overlong name, or one with control characters.
    #[error("an attachment's name is 1 to {MAX_FILE_NAME_BYTES} bytes of printable text")]
    Name,
    /// Not a MIME type (`type/subtype`).
    #[error("{0:?} is not a MIME type")]
    Mime(String),
    /// Bigger than any network lets a file be ([`MAX_FILE_BYTES_CEILING`]).
    #[error("{name} is {size} bytes; a file is at most {MAX_FILE_BYTES_CEILING} bytes")]
    TooLarge {
        /// The file's name.
        name: String,
        /// Its size.
        size: u64,
    },
}

impl Coded for AttachmentError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::TooLarge { .. } => ErrorCode::TooLarge,
            _ => ErrorCode::InvalidRequest,
        }
    }
}

/// One file a message carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attachment {
    /// The file resource (`resource/file/attachments/{id}/{name}`).
    pub resource: Address,
    /// The file's name as the person chose it.
    pub name: String,
    /// Its MIME type.
    pub mime: String,
    /// Its size in bytes.
    pub size: u64,
}

impl Attachment {
    /// Checks the address, name, MIME type and size.
    pub fn check(&self) -> Result<(), AttachmentError> {
        let in_folder = match self.resource.entity() {
            Entity::File(path) => path
                .as_str()
                .strip_prefix(ATTACHMENTS_FOLDER)
                .is_some_and(|rest| rest.starts_with('/') && rest[1..].contains('/')),
            _ => false,
        };
        if !in_folder || !self.resource.is_local() {
            return Err(AttachmentError::NotAnAttachment(self.resource.to_string()));
        }
        if self.name.is_empty()
            || self.name.len() > MAX_FILE_NAME_BYTES
            || self.name.chars().any(char::is_control)
        {
            return Err(AttachmentError::Name);
        }
        if !is_mime(&self.mime) {
            return Err(AttachmentError::Mime(self.mime.clone()));
        }
        if self.size > MAX_FILE_BYTES_CEILING {
            return Err(AttachmentError::TooLarge {
                name: self.name.clone(),
                size: self.size,
            });
        }
        Ok(())
    }

    /// True when the file may show inline as a picture: PNG, JPEG, GIF or
    /// WebP. Never SVG (a document that can carry script).
    pub fn is_inline_image(&self) -> bool {
        is_inline_image(&self.mime)
    }
}

/// True for the picture types shown inline (PNG, JPEG, GIF, WebP; not SVG).
pub fn is_inline_image(mime: &str) -> bool {
    matches!(
        mime.to_ascii_lowercase().as_str(),
        "image/png" | "image/jpeg" | "image/gif" | "image/webp"
    )
}

/// True for `type/subtype` of RFC 6838 token characters, at most 127 bytes
/// (parameters such as `; charset=utf-8` are allowed after it).
pub fn is_mime(mime: &str) -> bool {
    let essence = mime.split(';').next().unwrap_or("").trim();
    let token = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c))
    };
    mime.len() <= 127
        && !mime.chars().any(char::is_control)
        && essence
            .split_once('/')
            .is_some_and(|(kind, sub)| token(kind) && token(sub))
}

/// The attachments a message payload carries (none when it names none),
/// each checked.
pub fn attachments_of(payload: &Value) -> Result<Vec<Attachment>, AttachmentError> {
    // Free-form: a message's payload is its app's own; only `attachments` is read here.
    let Some(listed) = payload.get("attachments").filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let Value::Array(items) = listed else {
        return Err(AttachmentError::Malformed("expected a list".into()));
    };
    if items.len() > MAX_ATTACHMENTS {
        return Err(AttachmentError::TooMany);
    }
    items
        .iter()
        .map(|item| {
            let attachment: Attachment = serde_json::from_value(item.clone())
                .map_err(|e| AttachmentError::Malformed(e.to_string()))?;
            attachment.check().map(|()| attachment)
        })
        .collect()
}

/// A file name made safe for an address segment: letters, digits, `.`, `_`
/// and `-` kept, runs of anything else one `-`, at most 80 bytes, never
/// empty, `.` or `..` (`Q3 plan (final).pdf` → `Q3-plan-final-.pdf`).
pub fn sanitised_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        if keep {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut out = out.trim_start_matches(['-', '.']).to_owned();
    if out.len() > MAX_SEGMENT {
        // Keep the extension: the end of the name says what the file is.
        let cut = out.len() - MAX_SEGMENT;
        out = out[cut..].trim_start_matches(['-', '.']).to_owned();
    }
    if out.is_empty() || out == "." || out == ".." {
        "file".to_owned()
    } else {
        out
    }
}

/// The address of a file attached under `id` (letters and digits, such as
/// an event id): `resource/file/attachments/{id}/{sanitised name}`. `None`
/// when `id` is not one address segment.
pub fn attachment_address(id: &str, name: &str) -> Option<Address> {
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    format!(
        "resource/file/{ATTACHMENTS_FOLDER}/{id}/{}",
        sanitised_name(name)
    )
    .parse()
    .ok()
}

/// Who may read what is attached in `conversation`, as `me` sees it: a
/// channel's members (as they are when they ask), both people of a direct
/// conversation, every member for the broadcast (`agent:broadcast`).
pub fn read_rule_for(conversation: &Address, me: &Address) -> AccessRule {
    match conversation.entity() {
        Entity::Channel(name) if conversation.is_local() => AccessRule::Channel(name.clone()),
        Entity::Broadcast => AccessRule::Network,
        _ => AccessRule::Agents(vec![me.clone(), conversation.clone()]),
    }
}

/// The register payload of an attached file: its address, MIME type,
/// base64 content and permissions (read by the conversation, the rest the
/// owner's).
pub fn register_payload(
    address: &Address,
    mime: &str,
    name: &str,
    read: &AccessRule,
    bytes: &[u8],
) -> Value {
    json!({
        "address": address,
        "content_type": mime,
        "description": name,
        "content": encode_content(bytes),
        "permissions": {"read": read, "write": "owner", "invoke": "owner", "admin": "owner"},
    })
}

/// A file's bytes as resource content: `{"encoding": "base64", "data": "…"}`.
pub fn encode_content(bytes: &[u8]) -> Value {
    json!({"encoding": "base64", "data": STANDARD.encode(bytes)})
}

/// The bytes of resource content written by [`encode_content`]; a plain
/// string (a text file registered otherwise) is its UTF-8 bytes.
pub fn decode_content(content: &Value) -> Option<Vec<u8>> {
    match content {
        Value::String(text) => Some(text.as_bytes().to_vec()),
        Value::Object(o) if o.get("encoding").and_then(Value::as_str) == Some("base64") => {
            STANDARD.decode(o.get("data")?.as_str()?).ok()
        }
        _ => None,
    }
}

/// A size for people: `512 B`, `12.3 KB`, `1.5 MB` (powers of 1024).
pub fn size_label(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => trim_one(bytes as f64 / 1024.0, "KB"),
        _ => trim_one(bytes as f64 / 1_048_576.0, "MB"),
    }
}

fn trim_one(value: f64, unit: &str) -> String {
    let text = format!("{value:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text} {unit}")
}

#[cfg(test)]
#[path = "attachment_tests.rs"]
mod tests;
