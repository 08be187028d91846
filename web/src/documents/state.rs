//! The state of one workspace's documents: [`Documents`] owns their signals
//! (the structured context being read or saved, the live documents) and the
//! read and save in flight, is provided through Leptos context and sees the
//! replica's effects in [`Documents::on_effect`].

use super::content::{Opened, content_from, text_of};
#[cfg(feature = "documents")]
use super::frames;
#[cfg(feature = "documents")]
use super::open;
use super::open::{LiveDocs, OpenDocuments};
#[cfg(feature = "documents")]
use crate::connection::Connection;
use crate::session::{DISCOVER_TIMEOUT_MS, Session};
use agentnet_core::ids::event_type::core_types;
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::{Address, EventId};
use leptos::prelude::*;
use serde_json::{Value, json};

/// The documents of one workspace: cheap to copy, from context with [`Documents::get`].
#[derive(Clone, Copy)]
pub struct Documents {
    session: Session,
    /// What is known of the structured context being read or saved, by address.
    opened: RwSignal<Option<(String, Opened)>>,
    /// The read in flight and its address.
    reading: StoredValue<Option<(EventId, String)>>,
    /// The save in flight, its address and the text saved.
    saving: StoredValue<Option<(EventId, String, String)>>,
    /// Live documents by address.
    live: OpenDocuments,
}

impl Documents {
    /// The documents of `session`'s network, provided to the components
    /// below; those open before a reload show their cached text at once.
    pub fn provide(session: Session) -> Self {
        let documents = Self {
            session,
            opened: RwSignal::new(None),
            reading: StoredValue::new(None),
            saving: StoredValue::new(None),
            live: OpenDocuments::restore(&session.network_name()),
        };
        provide_context(documents);
        documents
    }

    /// The documents of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// What is known of the structured context being read or saved.
    pub fn opened(&self) -> ReadSignal<Option<(String, Opened)>> {
        self.opened.read_only()
    }

    /// The live documents' state, by address.
    pub fn live(&self) -> ReadSignal<LiveDocs> {
        self.live.docs()
    }

    /// Why the live document at `address` could not be opened, if it could not.
    pub fn open_failure(&self, address: &str) -> Option<String> {
        self.live.failure(address)
    }

    /// Reads a structured context.
    pub fn read(&self, address: String) {
        let Ok(target) = address.parse::<Address>() else {
            return;
        };
        if let Some(id) = self.session.request(
            core_types::RESOURCE_READ,
            target,
            json!({}),
            DISCOVER_TIMEOUT_MS,
        ) {
            self.reading.set_value(Some((id, address.clone())));
            self.opened.set(Some((address, Opened::Reading)));
        }
    }

    /// Saves a structured context's text.
    pub fn save(&self, address: String, kind: &str, text: String) {
        let (Ok(target), Ok(content)) = (address.parse::<Address>(), content_from(kind, &text))
        else {
            return;
        };
        if let Some(id) = self.session.post(
            core_types::RESOURCE_UPDATE,
            target,
            json!({ "content": content }),
        ) {
            self.saving.set_value(Some((id, address, text)));
        }
    }

    /// Opens a live document. The first time, the shared documents' chunk
    /// loads first: the editor shows the document as opening meanwhile, and
    /// what the person types then is applied once it has opened.
    pub fn open_live(&self, address: String) {
        #[cfg(feature = "documents")]
        {
            self.live.retry(&address);
            match self.session.with_connection(Connection::has_documents) {
                // Opened once there is a connection (the callers ask again then).
                None => return,
                Some(true) => return self.open_now(address),
                Some(false) => self.live.start_opening(&address),
            }
            let this = *self;
            leptos::task::spawn_local(async move {
                let installed = this.install_documents().await;
                // Another network may have been opened meanwhile: this workspace is gone.
                if this.opened.try_get_untracked().is_none() {
                    return;
                }
                match installed {
                    Ok(()) => this.open_now(address),
                    Err(reason) => this.live.failed(&address, reason),
                }
            });
        }
        #[cfg(not(feature = "documents"))]
        let _ = address;
    }

    /// Opens `address` in the replica, whose documents are installed, and
    /// applies what was typed into its editor while it opened.
    #[cfg(feature = "documents")]
    fn open_now(&self, address: String) {
        let Ok(target) = address.parse::<Address>() else {
            self.live.forget(&address);
            return;
        };
        // Read before the open: the open shows the loaded text, which ends the typing.
        let typed = self.live.typed_while_loading(&address);
        match self
            .session
            .with_connection(|c| open::reopen(c, &target, typed))
        {
            Some(Ok((text, problem))) => {
                self.live.remember(&address);
                self.live.show(address, text);
                if let Some(problem) = problem {
                    self.session.report(problem);
                }
            }
            // Not opened after all: offer to open it again, saying why.
            Some(Err(error)) => self.live.failed(&address, error.to_string()),
            None => {}
        }
    }

    /// Gives the replica its shared documents, loading their chunk the first
    /// time; why not when it cannot.
    #[cfg(feature = "documents")]
    async fn install_documents(&self) -> Result<(), String> {
        if self.session.with_connection(Connection::has_documents) != Some(false) {
            // Installed already, or no connection to open anything on.
            return Ok(());
        }
        let copies = super::engine::synced_documents()
            .await
            .map_err(|_| "Could not load shared documents: check the connection.".to_owned())?;
        // The connection may have gone while the chunk loaded: nothing opens then.
        self.session
            .with_connection(|c| c.install_documents(copies));
        Ok(())
    }

    /// A local edit of a live document: its whole new text.
    pub fn edit_live(&self, address: String, text: String) {
        #[cfg(feature = "documents")]
        {
            let Ok(target) = address.parse::<Address>() else {
                return;
            };
            // Typed into the cached copy: kept, and applied once the document has loaded.
            if self.live.keep_if_loading(&address, &text) {
                return;
            }
            match self
                .session
                .with_connection(|c| c.edit_document(&target, text.clone()))
            {
                Some(Ok(())) => self.live.show(address, text),
                Some(Err(error)) => self.session.report(error),
                None => {}
            }
        }
        #[cfg(not(feature = "documents"))]
        let _ = (address, text);
    }

    /// Reopens the live documents that were open before the reload, once
    /// their cached text and the history are on screen.
    pub async fn reopen_remembered(&self) {
        #[cfg(feature = "documents")]
        {
            let remembered = self.live.remembered();
            if remembered.is_empty() {
                return;
            }
            frames::after_paint().await;
            // Another network may have been opened meanwhile: this workspace is gone.
            if self.opened.try_get_untracked().is_none() {
                return;
            }
            let installed = self.install_documents().await;
            if self.opened.try_get_untracked().is_none() {
                return;
            }
            if let Err(reason) = installed {
                for address in &remembered {
                    self.live.failed(address, reason.clone());
                }
                return;
            }
            for address in remembered {
                self.open_now(address);
            }
        }
    }

    fn read_in_flight(&self, request: EventId) -> Option<String> {
        self.reading
            .with_value(|r| r.clone())
            .filter(|(id, _)| *id == request)
            .map(|(_, address)| address)
    }

    fn save_in_flight(&self, id: EventId) -> Option<(String, String)> {
        self.saving
            .with_value(|s| s.clone())
            .filter(|(saved, _, _)| *saved == id)
            .map(|(_, address, text)| (address, text))
    }

    /// What the replica reports that concerns documents.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        match effect {
            ReplicaEffect::Replied { request, reply } => {
                if let Some(address) = self.read_in_flight(*request) {
                    let text = text_of(reply.payload.get("content").unwrap_or(&Value::Null));
                    self.opened.set(Some((address, Opened::Text(text))));
                }
            }
            ReplicaEffect::RequestFailed { request, rejection } => {
                if let Some(address) = self.read_in_flight(*request) {
                    let reason = format!(
                        "Could not read it: {}",
                        crate::bidi::isolate(&rejection.message)
                    );
                    self.opened.set(Some((address, Opened::Failed(reason))));
                }
            }
            ReplicaEffect::Accepted { id, .. } => {
                if let Some((address, text)) = self.save_in_flight(*id) {
                    self.opened.set(Some((address, Opened::Saved(text))));
                }
            }
            ReplicaEffect::Rejected { id, rejection } => {
                if let Some((address, _)) = self.save_in_flight(*id) {
                    let reason = format!("Not saved: {}", crate::bidi::isolate(&rejection.message));
                    self.opened.set(Some((address, Opened::Failed(reason))));
                }
            }
            ReplicaEffect::DocumentChanged {
                address,
                text,
                editors,
            } => self.live.changed(
                address.to_string(),
                text.clone(),
                editors.iter().map(ToString::to_string).collect(),
            ),
            ReplicaEffect::DocumentRejected { address, rejection } => self
                .live
                .refused(address.to_string(), rejection.message.clone()),
            _ => {}
        }
    }
}
