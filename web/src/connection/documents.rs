//! The connection's shared documents (feature `documents`): installing the
//! replica's documents once their chunk has loaded
//! (`crate::documents::engine`), opening and editing them.

use super::Connection;
use crate::clock::now;
use crate::error::WebError;
use agentnet_core::Address;
use agentnet_core::replica::{DocumentCopies, DocumentEdit};

impl Connection {
    /// Whether the replica has its shared documents (they come from a chunk of their own).
    pub fn has_documents(&self) -> bool {
        self.inner.borrow().replica.has_documents()
    }

    /// Gives the replica its shared documents, once their chunk has loaded.
    pub fn install_documents(&self, copies: Box<dyn DocumentCopies>) {
        self.inner.borrow_mut().replica.install_documents(copies);
    }

    /// Opens a file's or context's shared text (from IndexedDB when stored, synced
    /// while online); returns its text. Others' edits arrive as `DocumentChanged`.
    pub fn open_document(&self, address: &Address) -> Result<String, WebError> {
        let mut actor = [0u8; 16];
        crate::clock::fill_random(&mut actor);
        self.run(
            |inner| match inner.replica.open_document(address, actor, now()) {
                Ok(effects) => (
                    Ok(inner.replica.document_text(address).unwrap_or_default()),
                    effects,
                ),
                Err(rejection) => (Err(WebError::from(rejection)), Vec::new()),
            },
        )
    }

    /// A local edit of an open document: its whole new text.
    pub fn edit_document(&self, address: &Address, text: String) -> Result<(), WebError> {
        let edit = DocumentEdit::Replace(text);
        self.run(
            |inner| match inner.replica.edit_document(address, edit, now()) {
                Ok(effects) => (Ok(()), effects),
                Err(rejection) => (Err(WebError::from(rejection)), Vec::new()),
            },
        )
    }
}
