//! The live documents a person has open in one network: what their editors
//! show (a signal of [`LiveDocs`]), the text cached at every change and the
//! list of open documents. Both are kept in localStorage, so a reload shows
//! each document's text at once, before the replica has loaded it; then
//! [`reopen`] opens each in the replica and applies what the person typed
//! into its cached copy meanwhile.

#[cfg(feature = "documents")]
use super::timing;
#[cfg(feature = "documents")]
use crate::connection::Connection;
#[cfg(feature = "documents")]
use crate::error::WebError;
use crate::storage;
#[cfg(feature = "documents")]
use agentnet_core::Address;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// What the workspace knows of one open document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveDoc {
    /// The text as the replica holds it.
    pub text: String,
    /// Members with the document open (from the network).
    pub editors: Vec<String>,
    /// Why the network refused this person's edits, once it has.
    pub refused: Option<String>,
    /// Bumped by every change not typed here, so the editor redraws.
    pub revision: u64,
    /// The text shown is the copy cached at the last change, and the document
    /// itself is still loading from IndexedDB.
    pub loading: bool,
    /// The person typed into the cached copy while the document was loading:
    /// [`LiveDoc::text`] is theirs, to apply to the document once it has loaded.
    pub typed_while_loading: bool,
}

impl LiveDoc {
    /// Shows `text` as the replica holds it: no longer the cached copy.
    pub fn show(&mut self, text: String) {
        self.text = text;
        self.loading = false;
        self.typed_while_loading = false;
    }

    /// The person typed into the cached copy before the document loaded:
    /// `text` is shown and kept until the document can take it.
    pub fn type_while_loading(&mut self, text: &str) {
        text.clone_into(&mut self.text);
        self.typed_while_loading = true;
    }

    /// The whole text the person typed while the document loaded, if they did.
    pub fn typed(&self) -> Option<&str> {
        self.typed_while_loading.then_some(self.text.as_str())
    }
}

/// What to apply to a document that has just loaded with the text `loaded`:
/// the text the person typed while it loaded, unless it is the same.
pub fn typing_to_apply(typed_while_loading: Option<String>, loaded: &str) -> Option<String> {
    typed_while_loading.filter(|typed| typed != loaded)
}

/// Open documents by address.
pub type LiveDocs = BTreeMap<String, LiveDoc>;

/// Where the text of the live document `address` in `network` is cached
/// (localStorage) so a reload shows it before the document itself has loaded.
pub fn cached_text_key(network: &str, address: &str) -> String {
    format!("document-text:{network}:{address}")
}

/// The open documents of one network; a handle, cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct OpenDocuments {
    docs: RwSignal<LiveDocs>,
    /// Why a document could not be opened, by address, until it is opened again.
    failed: RwSignal<BTreeMap<String, String>>,
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
                let doc = LiveDoc {
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
            failed: RwSignal::new(BTreeMap::new()),
            network: StoredValue::new(network.to_owned()),
        }
    }

    /// What the editors show, by address.
    pub fn docs(&self) -> ReadSignal<LiveDocs> {
        self.docs.read_only()
    }

    /// Why the document at `address` could not be opened, if it could not.
    pub fn failure(&self, address: &str) -> Option<String> {
        self.failed.with(|failed| failed.get(address).cloned())
    }

    /// The person tries to open the document at `address` again: why it could not be opened goes.
    pub fn retry(&self, address: &str) {
        if self
            .failed
            .with_untracked(|failed| failed.contains_key(address))
        {
            self.failed.update(|failed| {
                failed.remove(address);
            });
        }
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

    /// A document the person opens while the shared documents' chunk loads:
    /// its editor shows it as opening, with the text cached at its last change.
    pub fn start_opening(&self, address: &str) {
        let cached = self
            .network
            .with_value(|network| storage::recall(&cached_text_key(network, address)));
        self.docs.update(|docs| {
            let doc = docs.entry(address.to_owned()).or_default();
            doc.text = cached.unwrap_or_default();
            doc.loading = true;
        });
    }

    /// A document that could not be opened, and why: its editor goes, so it
    /// can be opened again, and says why in its place.
    pub fn failed(&self, address: &str, reason: String) {
        self.forget(address);
        self.failed.update(|failed| {
            failed.insert(address.to_owned(), reason);
        });
    }

    /// A document no longer shown: its editor goes, so it can be opened again.
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

/// Opens a document that was open before a reload (from the replica's
/// stored rows) on `connection`, then applies `typed`: the whole text the
/// person typed into its cached copy while it loaded, when that differs from
/// the loaded text. Returns the text to show and, if the typing could not be
/// applied, why (the document is open either way).
#[cfg(feature = "documents")]
pub fn reopen(
    connection: &Connection,
    address: &Address,
    typed: Option<String>,
) -> Result<(String, Option<WebError>), WebError> {
    let loaded = timing::measured("agentnet: load a saved document", || {
        connection.open_document(address)
    })?;
    Ok(match typing_to_apply(typed, &loaded) {
        None => (loaded, None),
        Some(typed) => match connection.edit_document(address, typed.clone()) {
            Ok(()) => (typed, None),
            Err(reason) => (loaded, Some(reason)),
        },
    })
}

/// The addresses remembered as open in `network`.
#[cfg(feature = "documents")]
fn remembered_in(network: &str) -> Vec<String> {
    storage::recall_json(&remembered_key(network)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_while_loading_is_kept_until_the_document_has_loaded() {
        let mut doc = LiveDoc {
            text: "cached".into(),
            loading: true,
            ..Default::default()
        };
        assert_eq!(doc.typed(), None, "nothing typed yet");
        doc.type_while_loading("cached!");
        assert_eq!(doc.text, "cached!");
        assert!(doc.loading, "still loading: the status says so");
        let typed = doc.typed().map(str::to_owned);
        assert_eq!(typed.as_deref(), Some("cached!"));
        // The loaded document lacks the typing: it is applied.
        assert_eq!(
            typing_to_apply(typed.clone(), "cached"),
            Some("cached!".into())
        );
        // Already there (or nothing typed): nothing to apply.
        assert_eq!(typing_to_apply(typed, "cached!"), None);
        assert_eq!(typing_to_apply(None, "cached"), None);
        // Once the document's own text is shown, the typing is done with.
        doc.show("cached!".into());
        assert!(!doc.loading);
        assert_eq!(doc.typed(), None);
    }
}
