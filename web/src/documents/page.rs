//! A document on a page of its own (`/n/{network}/document/{address}`): a
//! file's or context's live text (or a structured context's editor), opened
//! as soon as the workspace has its connection, so a link to a document —
//! a task's artifact, say — lands in it; a file that is not text (a picture,
//! a PDF) shows as what it is ([`crate::chat::files::file_view::FileView`]). Its heading is its name (a task
//! artifact's own name, with a link back to its task); the address is shown
//! small beneath, where it can be copied.

use super::editor::DocumentEditor;
use super::labels::title_of;
use super::live::LiveDocument;
use super::state::Documents;
use crate::chat::files::file_view::{FileRef, FileView, is_attachment, is_text_type};
use crate::resources::Shared;
use crate::routes::Place;
use crate::session::Session;
use crate::tasks::Tasks;
use leptos::prelude::*;

/// What the page shows of one document: its address, kind, whether the
/// person may write it and whether it is structured (JSON) context.
#[derive(Clone, Debug, PartialEq)]
struct Shown {
    address: String,
    kind: String,
    may_write: bool,
    structured: bool,
    owner: Option<String>,
    content_type: String,
    title: String,
    /// The task it is an artifact of: its id and first words.
    task: Option<(String, String)>,
    /// Text (the live editor), not a picture or another file shown as what it is.
    text: bool,
    /// The file as the file viewer takes it (a file the listing knows).
    file: Option<FileRef>,
}

/// The document page.
#[component]
pub fn DocumentPage() -> impl IntoView {
    let session = Session::get();
    let documents = Documents::get();
    let listed = Shared::get().listed();
    let tasks = use_context::<Tasks>();
    // A task's artifact is named for its task: the tasks are read from here on.
    if let Some(tasks) = tasks {
        tasks.follow();
    }
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
        let artifact = tasks.and_then(|t| t.artifact(&address));
        Some(Shown {
            title: title_of(&address, artifact.as_ref().map(|a| a.0.as_str())),
            // A task's Markdown artifact is Markdown (rendered), listed yet or not.
            content_type: match (&artifact, &resource) {
                (Some((.., "text/markdown")), _) => "text/markdown".to_owned(),
                (_, Some(r)) => r.content_type.clone(),
                _ => String::new(),
            },
            task: artifact.map(|(_, id, summary, _)| (id, summary)),
            owner: resource.as_ref().map(|r| r.owner.clone()),
            may_write: resource
                .as_ref()
                .is_some_and(|r| r.permissions.iter().any(|p| p == "write")),
            structured: resource
                .as_ref()
                .is_some_and(|r| r.content_type == "application/json"),
            text: resource.as_ref().is_none_or(|r| {
                r.kind != "file" || (is_text_type(&r.content_type) && !is_attachment(&r.address))
            }),
            file: resource
                .as_ref()
                .map(|r| FileRef::of_resource(&r.address, &r.description, &r.content_type)),
            kind: kind.to_owned(),
            address,
        })
    });
    // Opened once there is a connection (from storage when offline).
    Effect::new(move |_| {
        let _ = session.status.get();
        if let Some(doc) = shown.get().filter(|d| !d.structured && d.text)
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
                <header class="document-head">
                    <h2>{doc.title.clone()}</h2>
                    <p class="details"><code class="document-address">{doc.address.clone()}</code></p>
                    {doc.task.clone().map(|(id, summary)| view! {
                        <p class="details">"An artifact of the task "
                            <a href=session.path(&Place::Task(id))>{summary}</a></p>
                    })}
                </header>
                {if doc.structured {
                    view! { <DocumentEditor address=doc.address kind=doc.kind may_write=doc.may_write owner=doc.owner /> }.into_any()
                } else if let Some(file) = doc.file.clone().filter(|_| !doc.text) {
                    view! { <FileView file /> }.into_any()
                } else {
                    view! { <LiveDocument address=doc.address kind=doc.kind may_write=doc.may_write
                        owner=doc.owner content_type=doc.content_type title=doc.title /> }.into_any()
                }}
            })}
        </section>
    }
}
