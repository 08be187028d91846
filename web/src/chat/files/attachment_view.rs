//! Files in the conversation, as the page shows them ([`crate::chat::files::attach`]
//! holds the state): the composer's paperclip ([`AttachButton`]) and
//! pending chips ([`PendingFiles`]), the conversation as a drop zone
//! ([`DropZone`]), paste ([`on_paste`]), and a message's files
//! ([`AttachmentList`]) — pictures previewed inline (a click opens the
//! picture viewer), other files as cards to open or download
//! ([`crate::chat::files::file_view`]). Content comes through the replica as `blob:`
//! URLs, read once the message scrolls into view; nothing is injected as HTML.

use crate::chat::files::attach::Attached;
use crate::chat::files::attach::{Attachments, Pending, files_of, files_of_input, limit_text};
use crate::chat::files::file_view::{FileCard, FileRef, Picture, icon_of};
use agentnet_core::model::attachment::{is_inline_image, size_label};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

/// The paperclip: chooses files for a composer (`in_thread`: the thread's).
#[component]
pub fn AttachButton(
    /// The thread's composer.
    in_thread: bool,
) -> impl IntoView {
    let files = Attachments::get();
    let input = NodeRef::<leptos::html::Input>::new();
    let id = if in_thread {
        "thread-files"
    } else {
        "message-files"
    };
    view! {
        <input type="file" multiple class="attach-input" id=id node_ref=input tabindex="-1" aria-hidden="true" aria-label="Choose files"
            on:change=move |ev| files.add_files(files_of_input(ev.target()), in_thread) />
        <button type="button" class="attach" aria-label="Attach a file"
            title=format!("Attach a file ({})", limit_text())
            on:click=move |_| { if let Some(input) = input.get() { input.click(); } }>
            <span aria-hidden="true">"📎"</span>
        </button>
    }
}

/// A composer's pending files as chips (each with Remove), and why a file was refused.
#[component]
pub fn PendingFiles(
    /// The thread's composer.
    in_thread: bool,
) -> impl IntoView {
    let files = Attachments::get();
    let pending = files.pending(in_thread);
    let refused = files.refused(in_thread);
    view! {
        <Show when=move || refused.get().is_some()>
            <p class="attach-refused" role="alert">
                {move || refused.get().unwrap_or_default()}
                <button type="button" class="quiet" aria-label="Dismiss" on:click=move |_| refused.set(None)>"×"</button>
            </p>
        </Show>
        <Show when=move || pending.with(|p| !p.is_empty())>
            <ul class="pending-files" aria-label="Files to send">
                <For each=move || pending.get() key=|p| p.key let:file>
                    <PendingChip file in_thread />
                </For>
            </ul>
        </Show>
    }
}

#[component]
fn PendingChip(file: Pending, in_thread: bool) -> impl IntoView {
    let files = Attachments::get();
    let key = file.key;
    let thumb = match file.preview.clone() {
        Some(url) => view! { <img class="chip-thumb" src=url alt="" /> }.into_any(),
        None => view! { <span class="chip-icon" aria-hidden="true">{icon_of(&file.mime)}</span> }
            .into_any(),
    };
    let size = file.size;
    let pending = files.pending(in_thread);
    // Bytes stored so far, while the file uploads to the file store.
    let sent = move || {
        pending.with(|p| {
            p.iter()
                .find(|f| f.key == key)
                .and_then(|f| f.sent.filter(|_| f.uploaded.is_none()))
        })
    };
    let percent = move || sent().map(|s| (s * 100).checked_div(size).unwrap_or(100));
    view! {
        <li class="file-chip" title=file.mime.clone() class:uploading=move || sent().is_some()>
            {thumb}
            <span class="chip-name">{file.name.clone()}</span>
            <span class="chip-size">{size_label(size)}</span>
            {move || percent().map(|p| view! {
                <progress class="chip-progress" max="100" value=p.to_string()
                    aria-label=format!("Uploading, {p}%")></progress>
                <span class="chip-percent" aria-hidden="true">{format!("{p}%")}</span>
            })}
            <button type="button" class="chip-remove" aria-label=format!("Remove {}", crate::bidi::isolate(&file.name))
                on:click=move |_| files.remove(in_thread, key)>"×"</button>
        </li>
    }
}

/// Adds the files of a paste to a composer (text pastes as usual).
pub fn on_paste(ev: leptos::ev::ClipboardEvent, in_thread: bool) {
    let found = files_of(ev.clipboard_data());
    if !found.is_empty() {
        ev.prevent_default();
        Attachments::get().add_files(found, in_thread);
    }
}

/// True when a drag carries files (not text or a link from the page).
fn carries_files(ev: &leptos::ev::DragEvent) -> bool {
    ev.data_transfer().is_some_and(|t| {
        t.types()
            .iter()
            .any(|k| k.as_string().as_deref() == Some("Files"))
    })
}

/// The conversation's column, which takes dropped files for its composer;
/// while files are dragged over it, it says where they go and the limit.
#[component]
pub fn DropZone(children: Children) -> impl IntoView {
    let files = Attachments::get();
    // Enter and leave fire for every child crossed: count them.
    let depth = RwSignal::new(0i32);
    let dragging = move || depth.get() > 0;
    view! {
        <div class="conversation-column" class:dragging=dragging
            on:dragenter=move |ev: leptos::ev::DragEvent| {
                if carries_files(&ev) {
                    ev.prevent_default();
                    depth.update(|d| *d += 1);
                }
            }
            on:dragover=move |ev: leptos::ev::DragEvent| {
                if carries_files(&ev) {
                    ev.prevent_default();
                }
            }
            on:dragleave=move |_| depth.update(|d| *d = (*d - 1).max(0))
            on:drop=move |ev: leptos::ev::DragEvent| {
                depth.set(0);
                let found = files_of(ev.data_transfer());
                if !found.is_empty() {
                    ev.prevent_default();
                    files.add_files(found, false);
                }
            }>
            {children()}
            <div class="drop-zone" aria-hidden="true" hidden=move || !dragging()>
                <p><strong>"Drop files to attach them"</strong><span>{limit_text()}</span></p>
            </div>
        </div>
    }
}

/// Calls `visible` once, when `element` first scrolls into view (at once
/// where the browser cannot tell).
fn when_visible(element: &web_sys::Element, visible: impl FnOnce() + 'static) {
    let visible = std::cell::Cell::new(Some(visible));
    let seen = Closure::<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>::new(
        move |entries: js_sys::Array, observer: web_sys::IntersectionObserver| {
            let shown = entries.iter().any(|e| {
                e.dyn_into::<web_sys::IntersectionObserverEntry>()
                    .is_ok_and(|e| e.is_intersecting())
            });
            if shown && let Some(f) = visible.take() {
                observer.disconnect();
                f();
            }
        },
    );
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin("200px");
    match web_sys::IntersectionObserver::new_with_options(seen.as_ref().unchecked_ref(), &options) {
        Ok(observer) => {
            observer.observe(element);
            let _ = observer;
            // Freed with the page; one small closure per message with files.
            seen.forget();
        }
        Err(_) => {
            drop(seen);
        }
    }
}

/// A message's files: pictures inline, other files as cards.
#[component]
pub fn AttachmentList(
    /// The message's files.
    attachments: Vec<Attached>,
) -> impl IntoView {
    if attachments.is_empty() {
        return ().into_any();
    }
    let files = Attachments::get();
    let list = NodeRef::<leptos::html::Ul>::new();
    let wanted: Vec<String> = attachments.iter().map(|a| a.resource.clone()).collect();
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(element) = list.get() else {
            return false;
        };
        let wanted = wanted.clone();
        when_visible(&element, move || {
            for resource in &wanted {
                files.load(resource);
            }
        });
        true
    });
    view! {
        <ul class="attachments" node_ref=list aria-label="Attached files">
            {attachments.into_iter().map(|a| view! { <AttachmentItem attachment=a /> }).collect_view()}
        </ul>
    }
    .into_any()
}

#[component]
fn AttachmentItem(attachment: Attached) -> impl IntoView {
    let file = FileRef {
        resource: attachment.resource.clone(),
        name: attachment.name.clone(),
        mime: attachment.mime.clone(),
        size: Some(attachment.size),
    };
    if is_inline_image(&attachment.mime) {
        let about = format!(
            "{} · {} · {}",
            attachment.name,
            size_label(attachment.size),
            attachment.mime
        );
        return view! {
            <li class="attachment image" data-resource=attachment.resource>
                <Picture file />
                <span class="file-meta">{about}</span>
            </li>
        }
        .into_any();
    }
    view! {
        <li class="attachment file" data-resource=attachment.resource>
            <FileCard file />
        </li>
    }
    .into_any()
}
