//! Files in the conversation: what the person is about to send, and what
//! messages carry.
//!
//! [`Attachments`] (in Leptos context) holds each composer's pending files —
//! read from the button, a drop or a paste, refused at once when over
//! [`MAX_ATTACHMENT_BYTES`] — and, on sending, registers each as a
//! `resource/file/attachments/{id}/{name}` the conversation may read
//! ([`agentnet_core::model::attachment`]) before the message that names
//! them. It also reads attached files through the replica
//! (`network.resource.read`) when a message shows them, and keeps each as a
//! `blob:` URL of a type safe to open ([`safe_blob_type`]). Files bigger
//! than [`MAX_ATTACHMENT_BYTES`] go to the network's file store instead
//! (R2, `agentnet_core::files`): uploaded in parts when the message is
//! sent, with progress on the chip, going on after a dropped connection
//! (`web/js/upload.js`), and read through a signed link. The components
//! are in [`crate::chat::files::attachment_view`].

use crate::session::Session;
use agentnet_core::files::StoredContent;
use agentnet_core::ids::event_type::core_types;
use agentnet_core::model::attachment::{
    Attachment, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, attachment_address, decode_content,
    is_inline_image, read_rule_for, register_payload, size_label,
};
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::{Address, EventId, EventType};
use leptos::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;
use wasm_bindgen::JsCast;

mod upload;

/// The biggest file the composer offers to send (a network's own limit,
/// 100 MiB unless a master changed it, is checked by the edge).
pub const MAX_STORED_FILE_BYTES: u64 = 100 * 1024 * 1024;

/// How long reading an attached file may take.
const READ_TIMEOUT_MS: u64 = 30_000;

/// A file chosen, not yet sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// A key for the chip list.
    pub key: u32,
    /// The file's name.
    pub name: String,
    /// Its MIME type (`application/octet-stream` when the browser gives none).
    pub mime: String,
    /// Its bytes, when it travels in its register event (small files).
    pub bytes: std::sync::Arc<Vec<u8>>,
    /// True when it goes to the file store (big files; the browser's file
    /// is kept apart, by key, until it is sent).
    pub stored: bool,
    /// Its size in bytes.
    pub size: u64,
    /// Bytes stored so far, while it uploads.
    pub sent: Option<u64>,
    /// What the message names, once uploaded to the file store.
    pub uploaded: Option<Attached>,
    /// A `blob:` URL of a picture's preview.
    pub preview: Option<String>,
}

impl Pending {
    /// `file` chosen under `key`: with its `bytes` when it travels in its
    /// register event, without (`None`) when it goes to the file store.
    fn of(key: u32, name: String, file: &web_sys::File, bytes: Option<Vec<u8>>) -> Self {
        let mime = mime_of(file);
        let preview = is_inline_image(&mime)
            .then(|| web_sys::Url::create_object_url_with_blob(file).ok())
            .flatten();
        Self {
            key,
            name,
            mime,
            size: bytes
                .as_ref()
                .map_or(file.size() as u64, |b| b.len() as u64),
            stored: bytes.is_none(),
            bytes: std::sync::Arc::new(bytes.unwrap_or_default()),
            sent: None,
            uploaded: None,
            preview,
        }
    }
}

/// A file a message carries, as the page keeps it (plain strings: a
/// message line is shared across the page's signals).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attached {
    /// The file resource's address.
    pub resource: String,
    /// The file's name.
    pub name: String,
    /// Its MIME type.
    pub mime: String,
    /// Its size in bytes.
    pub size: u64,
}

impl Attached {
    /// The files `payload.attachments` names (none when it is malformed).
    pub fn all_in(payload: &Value) -> Vec<Self> {
        agentnet_core::model::attachment::attachments_of(payload)
            .unwrap_or_default()
            .into_iter()
            .map(|a| Self {
                resource: a.resource.to_string(),
                name: a.name,
                mime: a.mime,
                size: a.size,
            })
            .collect()
    }
}

/// An attached file as read: a `blob:` URL, or why it could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum Loaded {
    /// Being read.
    Loading,
    /// Its `blob:` URL (of a safe type) and its size in bytes.
    Url(String, u64),
    /// Why not, in words.
    Failed(String),
}

/// The limit as the composer states it.
pub fn limit_text() -> String {
    format!("up to {} a file", size_label(MAX_STORED_FILE_BYTES))
}

/// Why a file cannot be attached, in words; `None` when it can.
pub fn refusal(name: &str, size: u64, pending: usize) -> Option<String> {
    if size > MAX_STORED_FILE_BYTES {
        return Some(format!(
            "{name} is {}: files can be {}.",
            size_label(size),
            limit_text()
        ));
    }
    (pending >= MAX_ATTACHMENTS)
        .then(|| format!("A message carries at most {MAX_ATTACHMENTS} files."))
}

/// The type a `blob:` URL of the file gets (as the file store serves it):
/// nothing that could carry script opens in the workspace's origin.
pub fn safe_blob_type(mime: &str) -> &'static str {
    agentnet_core::files::serve::safe_type(mime)
}

/// True when the file opens in a tab rather than only downloading.
pub fn opens_in_tab(mime: &str) -> bool {
    safe_blob_type(mime) != "application/octet-stream"
}

/// Pending files and attached files read, from context with [`Attachments::get`].
#[derive(Clone, Copy)]
pub struct Attachments {
    session: Session,
    /// The conversation composer's pending files, and the thread composer's.
    pending: [RwSignal<Vec<Pending>>; 2],
    /// The browser's files of pending big files, by chip key.
    blobs: StoredValue<BTreeMap<u32, web_sys::File>, LocalStorage>,
    /// Why the last file was refused, per composer.
    refused: [RwSignal<Option<String>>; 2],
    /// Attached files read, by resource address.
    loaded: RwSignal<BTreeMap<String, Loaded>>,
    /// Reads in flight and their resource.
    reading: StoredValue<BTreeMap<EventId, String>>,
    next_key: StoredValue<u32>,
}

impl Attachments {
    /// Provides the store to the components below.
    pub fn provide(session: Session) -> Self {
        let store = Self {
            session,
            pending: [RwSignal::new(Vec::new()), RwSignal::new(Vec::new())],
            blobs: StoredValue::new_local(BTreeMap::new()),
            refused: [RwSignal::new(None), RwSignal::new(None)],
            loaded: RwSignal::new(BTreeMap::new()),
            reading: StoredValue::new(BTreeMap::new()),
            next_key: StoredValue::new(0),
        };
        provide_context(store);
        store
    }

    /// The store of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// A composer's pending files.
    pub fn pending(&self, in_thread: bool) -> RwSignal<Vec<Pending>> {
        self.pending[usize::from(in_thread)]
    }

    /// Why a composer's last file was refused.
    pub fn refused(&self, in_thread: bool) -> RwSignal<Option<String>> {
        self.refused[usize::from(in_thread)]
    }

    /// An attached file as read so far.
    pub fn loaded(&self, resource: &str) -> Option<Loaded> {
        self.loaded.with(|l| l.get(resource).cloned())
    }

    /// Reads the browser's files into a composer's pending list, refusing
    /// (with the stated limit) any too big.
    pub fn add_files(&self, files: Vec<web_sys::File>, in_thread: bool) {
        let store = *self;
        for file in files {
            let name = file.name();
            let size = file.size() as u64;
            let count = self.pending(in_thread).with_untracked(Vec::len);
            if let Some(why) = refusal(&name, size, count) {
                self.refused(in_thread).set(Some(why));
                continue;
            }
            self.refused(in_thread).set(None);
            let key = self.next_key.get_value();
            self.next_key.set_value(key.wrapping_add(1));
            if size > MAX_ATTACHMENT_BYTES {
                let pending = Pending::of(key, name, &file, None);
                self.blobs.update_value(|b| drop(b.insert(key, file)));
                self.pending(in_thread).update(|p| p.push(pending));
                continue;
            }
            wasm_bindgen_futures::spawn_local(async move {
                let Ok(buffer) = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await
                else {
                    store
                        .refused(in_thread)
                        .set(Some(format!("{name} could not be read.")));
                    return;
                };
                let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                let pending = Pending::of(key, name, &file, Some(bytes));
                let _ = store.pending(in_thread).try_update(|p| p.push(pending));
            });
        }
    }

    /// Takes a pending file off a composer's list.
    pub fn remove(&self, in_thread: bool, key: u32) {
        self.pending(in_thread).update(|p| {
            if let Some(gone) = p.iter().position(|f| f.key == key).map(|i| p.remove(i)) {
                revoke(gone.preview.as_deref());
            }
        });
        self.blobs.update_value(|b| drop(b.remove(&key)));
    }

    /// Registers a composer's pending files as resources `conversation` may
    /// read: the attachments its message names (empty when there are none).
    /// The files stay pending when the connection is not open yet.
    pub fn send_pending(&self, in_thread: bool, conversation: &Address) -> Option<Vec<Attachment>> {
        let files = self.pending(in_thread).get_untracked();
        if files.is_empty() {
            return Some(Vec::new());
        }
        let me: Address = self.session.me_text().parse().ok()?;
        let read = read_rule_for(conversation, &me);
        let kind: EventType = core_types::RESOURCE_REGISTER.parse().ok()?;
        let id = attachment_id();
        let attachments = self.session.with_connection(|c| {
            files
                .iter()
                .enumerate()
                .filter_map(|(i, file)| {
                    if file.stored {
                        let up = file.uploaded.as_ref()?;
                        return Some(Attachment {
                            resource: up.resource.parse().ok()?,
                            name: up.name.clone(),
                            mime: up.mime.clone(),
                            size: up.size,
                        });
                    }
                    let resource = attachment_address(&format!("{id}{i}"), &file.name)?;
                    let payload =
                        register_payload(&resource, &file.mime, &file.name, &read, &file.bytes);
                    c.post(kind.clone(), Address::core(), payload);
                    Some(Attachment {
                        resource,
                        name: file.name.clone(),
                        mime: file.mime.clone(),
                        size: file.bytes.len() as u64,
                    })
                })
                .collect::<Vec<_>>()
        })?;
        for file in &files {
            revoke(file.preview.as_deref());
            self.blobs.update_value(|b| drop(b.remove(&file.key)));
        }
        self.pending(in_thread).set(Vec::new());
        self.refused(in_thread).set(None);
        Some(attachments)
    }

    /// Asks the network for an attached file, unless it is read or being read
    /// (or the workspace has gone since the file scrolled into view).
    pub fn load(&self, resource: &str) {
        let known = self.loaded.try_with_untracked(|l| l.contains_key(resource));
        if known.unwrap_or(true) {
            return;
        }
        let Ok(target) = resource.parse::<Address>() else {
            return;
        };
        let id = self.session.request(
            core_types::RESOURCE_READ,
            target,
            serde_json::json!({}),
            READ_TIMEOUT_MS,
        );
        if let Some(id) = id {
            self.reading
                .update_value(|r| drop(r.insert(id, resource.to_owned())));
            self.loaded
                .update(|l| drop(l.insert(resource.to_owned(), Loaded::Loading)));
        }
    }

    /// What the replica reports that concerns attached files: read answers.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        let (request, outcome) = match effect {
            ReplicaEffect::Replied { request, reply } => (request, read_of(&reply.payload)),
            ReplicaEffect::RequestFailed { request, rejection } => {
                (request, Err(rejection.message.clone()))
            }
            _ => return,
        };
        let Some(resource) = self
            .reading
            .try_update_value(|r| r.remove(request))
            .flatten()
        else {
            return;
        };
        let loaded = match outcome {
            Ok(Read::Blob(url, size)) => Loaded::Url(url, size),
            Ok(Read::Stored(stored)) => return self.link(resource, stored),
            Err(why) => Loaded::Failed(why),
        };
        self.loaded.update(|l| drop(l.insert(resource, loaded)));
    }
}

/// A read attached file: bytes made a `blob:` URL, or a file in the file store.
enum Read {
    Blob(String, u64),
    Stored(StoredContent),
}

/// The MIME type the browser gives a file (`application/octet-stream` when none or not one).
fn mime_of(file: &web_sys::File) -> String {
    match file.type_() {
        t if agentnet_core::model::attachment::is_mime(&t) => t,
        _ => "application/octet-stream".to_owned(),
    }
}

/// What a read answer holds: a file in the file store, or bytes.
fn read_of(payload: &Value) -> Result<Read, String> {
    match payload.get("content").and_then(StoredContent::in_content) {
        Some(stored) => Ok(Read::Stored(stored)),
        None => blob_url_of(payload).map(|(url, size)| Read::Blob(url, size)),
    }
}

/// A `blob:` URL of a read answer's content, typed by [`safe_blob_type`], and its size.
fn blob_url_of(payload: &Value) -> Result<(String, u64), String> {
    let bytes = payload
        .get("content")
        .and_then(decode_content)
        .ok_or_else(|| "the file has no content".to_owned())?;
    let mime = payload
        .get("content_type")
        .and_then(Value::as_str)
        .unwrap_or("");
    let array = js_sys::Uint8Array::from(bytes.as_slice());
    let parts = js_sys::Array::of1(&array);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(safe_blob_type(mime));
    web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .and_then(|blob| web_sys::Url::create_object_url_with_blob(&blob))
        .map(|url| (url, bytes.len() as u64))
        .map_err(|_| "the browser could not hold the file".to_owned())
}

/// Frees a preview's `blob:` URL.
fn revoke(url: Option<&str>) {
    if let Some(url) = url {
        let _ = web_sys::Url::revoke_object_url(url);
    }
}

/// A fresh id for one message's files: an event id (the time, then 80
/// random bits) in lower case, as the project makes ids everywhere.
fn attachment_id() -> String {
    let mut random = [0u8; 16];
    crate::clock::fill_random(&mut random);
    agentnet_core::EventId::from_parts(crate::clock::now_ms(), u128::from_le_bytes(random))
        .to_string()
        .to_ascii_lowercase()
}

/// The files of a drop or a paste.
pub fn files_of(transfer: Option<web_sys::DataTransfer>) -> Vec<web_sys::File> {
    let Some(list) = transfer.and_then(|t| t.files()) else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// The files chosen in a file input (which is then emptied, so choosing the same file again works).
pub fn files_of_input(target: Option<web_sys::EventTarget>) -> Vec<web_sys::File> {
    let Some(input) = target.and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
        return Vec::new();
    };
    let files = files_of_list(input.files());
    input.set_value("");
    files
}

fn files_of_list(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
