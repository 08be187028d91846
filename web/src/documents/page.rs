//! A document on a page of its own (`/n/{network}/document/{address}`): a
//! file's or context's live text (or a structured context's editor), opened
//! as soon as the workspace has its connection, so a link to a document —
//! a task's artifact, say — lands in it.

use super::editor::DocumentEditor;
use super::live::LiveDocument;
use super::state::Documents;
use crate::resources::Shared;
use crate::routes::Place;
use crate::session::Session;
use leptos::prelude::*;

/// What the page shows of one document: its address, kind, whether the
/// person may write it and whether it is structured (JSON) context.
#[derive(Clone, Debug, PartialEq)]
struct Shown {
    address: String,
    kind: String,
    may_write: bool,
    structured: bool,
}

/// The document page.
#[component]
pub fn DocumentPage() -> impl IntoView {
    let session = Session::get();
    let documents = Documents::get();
    let listed = Shared::get().listed();
    let shown = Memo::new(move |_| {
        let Place::Document(address) = session.place.get() else {
            return None;
        };
        let resource = listed.with(|l| l.iter().find(|r| r.address == address).cloned());
        let kind = if address.starts_with("resource/context/") {
            "context"
        } else {
            "file"
        };
        Some(Shown {
            may_write: resource
                .as_ref()
                .is_some_and(|r| r.permissions.iter().any(|p| p == "write")),
            structured: resource
                .as_ref()
                .is_some_and(|r| r.content_type == "application/json"),
            kind: kind.to_owned(),
            address,
        })
    });
    // Opened once there is a connection (from storage when offline).
    Effect::new(move |_| {
        let _ = session.status.get();
        if let Some(doc) = shown.get().filter(|d| !d.structured)
            && !documents
                .live()
                .with_untracked(|l| l.contains_key(&doc.address))
        {
            documents.open_live(doc.address);
        }
    });
    view! {
        <section class="document-page" aria-label="Document">
            {move || shown.get().map(|doc| view! {
                <h2>{doc.address.clone()}</h2>
                {if doc.structured {
                    view! { <DocumentEditor address=doc.address kind=doc.kind may_write=doc.may_write /> }.into_any()
                } else {
                    view! { <LiveDocument address=doc.address kind=doc.kind may_write=doc.may_write /> }.into_any()
                }}
            })}
        </section>
    }
}
