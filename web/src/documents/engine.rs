//! The shared documents' engine (Automerge) as a chunk of its own: the
//! replica reaches its documents through a trait object
//! (`agentnet_core::replica::DocumentCopies`), made here, so the first page
//! loads none of Automerge. [`super::Documents`] installs it when a live
//! document is first opened.

use agentnet_core::replica::{DocumentCopies, SyncedDocuments};
use leptos::wasm_split::SplitLoaderError;

/// The replica's shared documents, once their chunk has loaded.
#[leptos::wasm_split::wasm_split(documents_chunk, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn synced_documents() -> Result<Box<dyn DocumentCopies>, SplitLoaderError> {
    Ok(SyncedDocuments::boxed())
}
