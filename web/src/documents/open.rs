//! The live documents a person has open in one network: what their editors
//! show (a signal of [`LiveDocs`]), the text cached at every change and the
//! list of open documents. Both are kept in localStorage, so a reload shows
//! each document's text at once, before the replica has loaded it.

use super::live::{LiveDocs, cached_text_key};
use crate::storage;
use leptos::prelude::*;

/// The open documents of one network; a handle, cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct OpenDocuments {
    docs: RwSignal<LiveDocs>,
    network: StoredValue<String>,
}

/// Where the addresses of the documents open in `network` are remembered.
#[cfg(feature = "documents")]
fn remembered_key(network: &str) -> String {
    format!("documents:{network}")
}

impl OpenDocuments {
    /// The documents open in `network` before the last reload, each showing
    /// its cached text while it loads (none without the `documents` feature).
    pub fn restore(network: &str) -> Self {
        #[cfg(feature = "documents")]
        let docs = remembered_in(network)
            .into_iter()
            .filter_map(|address| {
                let text = storage::recall(&cached_text_key(network, &address))?;
                let doc = super::live::LiveDoc {
                    text,
                    loading: true,
                    ..Default::default()
                };
                Some((address, doc))
            })
            .collect();
        #[cfg(not(feature = "documents"))]
        let docs = LiveDocs::new();
        Self {
            docs: RwSignal::new(docs),
            network: StoredValue::new(network.to_owned()),
        }
    }

    /// What the editors show, by address.
    pub fn docs(&self) -> ReadSignal<LiveDocs> {
        self.docs.read_only()
    }

    /// Keeps `text` as the document's text for the next reload.
    fn cache(&self, address: &str, text: &str) {
        self.network
            .with_value(|network| storage::keep(&cached_text_key(network, address), text));
    }

    /// Someone else's change, or the network's list of editors: the text as the replica holds it now.
    pub fn changed(&self, address: String, text: String, editors: Vec<String>) {
        self.cache(&address, &text);
        self.docs.update(|docs| {
            let doc = docs.entry(address).or_default();
            doc.show(text);
            doc.editors = editors;
            doc.revision += 1;
        });
    }

    /// The network refused this person's edits to the document.
    pub fn refused(&self, address: String, reason: String) {
        self.docs
            .update(|docs| docs.entry(address).or_default().refused = Some(reason));
    }
}

#[cfg(feature = "documents")]
impl OpenDocuments {
    /// The addresses of the documents that were open, to reopen after a reload.
    pub fn remembered(&self) -> Vec<String> {
        self.network.with_value(|network| remembered_in(network))
    }

    /// Remembers that `address` is open, so a reload reopens it.
    pub fn remember(&self, address: &str) {
        let mut open = self.remembered();
        if !open.iter().any(|a| a == address) {
            open.push(address.to_owned());
            let key = self.network.with_value(|network| remembered_key(network));
            storage::keep(&key, &serde_json::json!(open).to_string());
        }
    }

    /// Shows `text` as the replica holds it (no longer a cached copy) and caches it.
    pub fn show(&self, address: String, text: String) {
        self.cache(&address, &text);
        self.docs
            .update(|docs| docs.entry(address).or_default().show(text));
    }

    /// A document that could not be reopened: its editor goes, so it can be opened again.
    pub fn forget(&self, address: &str) {
        self.docs.update(|docs| {
            docs.remove(address);
        });
    }

    /// What the person typed into the document's cached copy while it loaded.
    pub fn typed_while_loading(&self, address: &str) -> Option<String> {
        self.docs
            .with_untracked(|docs| docs.get(address).and_then(|d| d.typed().map(str::to_owned)))
    }

    /// Keeps `text`, typed into the document's cached copy, when the document
    /// is still loading (it is applied once it has); false when it has loaded.
    pub fn keep_if_loading(&self, address: &str, text: &str) -> bool {
        let loading = self
            .docs
            .with_untracked(|docs| docs.get(address).is_some_and(|d| d.loading));
        if loading {
            self.cache(address, text);
            self.docs.update(|docs| {
                docs.entry(address.to_owned())
                    .or_default()
                    .type_while_loading(text);
            });
        }
        loading
    }
}

/// The addresses remembered as open in `network`.
#[cfg(feature = "documents")]
fn remembered_in(network: &str) -> Vec<String> {
    storage::recall_json(&remembered_key(network)).unwrap_or_default()
}
