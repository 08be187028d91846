//! Big files to the network's file store (`agentnet_core::files`, R2 on
//! the edge): a composer's files over [`super::MAX_ATTACHMENT_BYTES`] are
//! uploaded in parts when the message is sent, one after another, with the
//! bytes stored so far on each chip; `web/js/upload.js` does the requests
//! and goes on after a dropped connection. A stored file is read through a
//! signed link the edge gives a member who may read it.

use super::{Attached, Attachments, Loaded, Pending};
use agentnet_core::Address;
use agentnet_core::files::StoredContent;
use agentnet_core::model::attachment::Attachment;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/upload.js")]
extern "C" {
    #[wasm_bindgen(js_name = uploadFile, catch)]
    async fn upload_file(
        network: &str,
        me: &str,
        secret: &str,
        file: &web_sys::File,
        mime: &str,
        conversation: &str,
        progress: &js_sys::Function,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = fileLink, catch)]
    async fn file_link(network: &str, me: &str, secret: &str, id: &str)
    -> Result<JsValue, JsValue>;
}

/// The person's member secret in `network` (for a session of their own).
fn secret_of(network: &str, me: &str) -> String {
    crate::storage::recall(&crate::storage::secret_key(network, me)).unwrap_or_default()
}

/// The attachment an upload's answer names.
fn attachment_of(value: &JsValue) -> Option<Attached> {
    let text = js_sys::JSON::stringify(value).ok()?.as_string()?;
    let a: Attachment = serde_json::from_str(&text).ok()?;
    Some(Attached {
        resource: a.resource.to_string(),
        name: a.name,
        mime: a.mime,
        size: a.size,
    })
}

impl Attachments {
    /// True when a composer's files include some not yet in the file store.
    pub fn needs_upload(&self, in_thread: bool) -> bool {
        self.pending(in_thread)
            .with_untracked(|p| p.iter().any(|f| f.stored && f.uploaded.is_none()))
    }

    /// True while a composer's files are being uploaded.
    pub fn uploading(&self, in_thread: bool) -> bool {
        self.pending(in_thread)
            .with(|p| p.iter().any(|f| f.sent.is_some() && f.uploaded.is_none()))
    }

    /// Uploads a composer's big files for `conversation`, one after another,
    /// then calls `then` (which sends the message); on a failure the files
    /// stay, with why, and sending again goes on.
    pub fn upload(&self, in_thread: bool, conversation: &Address, then: impl FnOnce() + 'static) {
        if self.uploading(in_thread) {
            return;
        }
        let store = *self;
        let network = self.session.network_name();
        let me = self.session.me_text();
        let conversation = conversation.to_string();
        let pending = self.pending(in_thread);
        wasm_bindgen_futures::spawn_local(async move {
            let secret = secret_of(&network, &me);
            let waiting: Vec<Pending> = pending.with_untracked(|p| {
                p.iter()
                    .filter(|f| f.stored && f.uploaded.is_none())
                    .cloned()
                    .collect()
            });
            for file in waiting {
                // The workspace may have gone (another network opened) during an upload.
                let Some(blob) = store.blobs.try_with_value(|b| b.get(&file.key).cloned()) else {
                    return;
                };
                let Some(blob) = blob else {
                    continue;
                };
                let key = file.key;
                let set = move |change: &dyn Fn(&mut Pending)| {
                    let _ = pending
                        .try_update(|p| p.iter_mut().filter(|f| f.key == key).for_each(change));
                };
                set(&|f| f.sent = Some(0));
                let progress = Closure::<dyn Fn(f64, f64)>::new(move |sent: f64, _size: f64| {
                    let _ = pending.try_update(|p| {
                        p.iter_mut()
                            .filter(|f| f.key == key)
                            .for_each(|f| f.sent = Some(sent as u64))
                    });
                });
                let done = upload_file(
                    &network,
                    &me,
                    &secret,
                    &blob,
                    &file.mime,
                    &conversation,
                    progress.as_ref().unchecked_ref(),
                )
                .await;
                drop(progress);
                if store.blobs.try_with_value(|_| ()).is_none() {
                    return;
                }
                // The edge's words when it refused (too big, storage full), else the connection's.
                let outcome = match done {
                    Ok(answer) => {
                        attachment_of(&answer).ok_or_else(|| "the edge gave no file".to_owned())
                    }
                    Err(error) => Err(crate::error::js_message(
                        &error,
                        "check the connection and send again",
                    )),
                };
                match outcome {
                    Ok(attachment) => set(&|f| f.uploaded = Some(attachment.clone())),
                    Err(refusal) => {
                        set(&|f| f.sent = None);
                        let why = format!(
                            "{} could not be uploaded: {}.",
                            file.name,
                            refusal.trim_end_matches('.')
                        );
                        let _ = store.refused(in_thread).try_set(Some(why));
                        return;
                    }
                }
            }
            then();
        });
    }

    /// Asks for a signed link to a file in the file store, shown as its URL.
    pub(super) fn link(&self, resource: String, stored: StoredContent) {
        let loaded = self.loaded;
        let network = self.session.network_name();
        let me = self.session.me_text();
        wasm_bindgen_futures::spawn_local(async move {
            let secret = secret_of(&network, &me);
            let answer = file_link(&network, &me, &secret, stored.file.as_str()).await;
            let url = answer
                .ok()
                .and_then(|a| js_sys::Reflect::get(&a, &"url".into()).ok())
                .and_then(|u| u.as_string());
            let state = match url {
                Some(url) => Loaded::Url(url, stored.size),
                None => Loaded::Failed("the file could not be reached".into()),
            };
            let _ = loaded.try_update(|l| drop(l.insert(resource, state)));
        });
    }
}
