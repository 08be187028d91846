//! The resources panel: each shared resource with its details, a form for
//! tools (built from the input schema) with the invocation's latest outcome
//! (a form to correct replaces it too), and the editor of files and
//! contexts — a file that is not text (a picture, a PDF) opens as what it is
//! ([`crate::chat::files::file_view`]). The editors are a part
//! ([`resource_editor`]), loaded when the panel first lists a file or a context.

use super::Shared;
use super::forms::{Field, Resource, fields_of, input_from};
use super::outcome::OutcomeView;
use crate::chat::files::file_view::{FileRef, FileView, is_attachment, is_text_type};
use crate::documents::editor::DocumentEditor;
use crate::documents::live::LiveDocument;
use crate::lazy::{LazyPart, split_views};
use crate::routes::Place;
use crate::session::Session;
use leptos::context::Provider;
use leptos::prelude::*;
use serde_json::{Map, Value};

/// The resources panel.
#[component]
pub fn Resources() -> impl IntoView {
    let shared = Shared::get();
    let people = crate::people::People::get();
    let resources = shared.listed();
    view! {
        <section class="resources" aria-label="Resources">
            <h2>"Resources" <button type="button" class="refresh" on:click=move |_| {
                // Asks again for everything discovery lists: people and channels too.
                people.refresh();
                shared.refresh();
            }>"Refresh"</button></h2>
            <Show when=move || resources.get().is_empty()>
                <p class="empty">"Nothing shared yet."</p>
            </Show>
            <ul>
                <For each=move || resources.get() key=|r| (r.address.clone(), r.permissions.join(",")) let:resource>
                    <ResourceItem resource />
                </For>
            </ul>
        </section>
    }
}

#[component]
fn ResourceItem(resource: Resource) -> impl IntoView {
    let shared = Shared::get();
    let outcome = shared.outcome();
    let may_write = resource.permissions.iter().any(|p| p == "write");
    // Text is a live shared document; structured (JSON) context is edited whole and saved.
    let document = match (resource.kind.as_str(), resource.content_type.as_str()) {
        ("tool", _) => None,
        // A picture, a PDF, an archive — and any attachment, whose bytes are
        // stored as they were sent (base64), not as an editable text — opens
        // as what it is.
        ("file", mime) if !is_text_type(mime) || is_attachment(&resource.address) => Some(view! {
            <FileOpener file=FileRef::of_resource(&resource.address, &resource.description, &resource.content_type) />
        }.into_any()),
        (_, content_type) => {
            let editing = Editing {
                address: resource.address.clone(),
                kind: resource.kind.clone(),
                may_write,
                owner: resource.owner.clone(),
                content_type: content_type.to_owned(),
            };
            Some(view! {
                <Provider value=editing>
                    <LazyPart load=resource_editor what="the editor" />
                </Provider>
            }.into_any())
        }
    };
    let fields = fields_of(&resource.schema);
    let may_invoke = resource.kind == "tool" && resource.permissions.iter().any(|p| p == "invoke");
    let address = resource.address.clone();
    let form_fields = fields.clone();
    let tool = address.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(form) = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlFormElement>(t).ok())
        else {
            return;
        };
        let mut values = Map::new();
        for field in &form_fields {
            let value = form
                .elements()
                .named_item(&field.name)
                .and_then(|e| {
                    if field.kind == "boolean" {
                        wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(e)
                            .ok()
                            .map(|i| i.checked().to_string())
                    } else {
                        js_sys::Reflect::get(&e, &"value".into())
                            .ok()
                            .and_then(|v| v.as_string())
                    }
                })
                .unwrap_or_default();
            values.insert(field.name.clone(), Value::String(value));
        }
        match input_from(&form_fields, &values) {
            Ok(input) => shared.invoke(tool.clone(), input),
            Err(error) => shared.fail(tool.clone(), error.to_string()),
        }
    };
    let mine = address.clone();
    let form_label = format!("Invoke {address}");
    let shown = Signal::derive(move || {
        outcome
            .get()
            .filter(|(tool, _)| *tool == mine)
            .map(|(_, o)| o)
    });
    view! {
        <li class="resource" data-address=address.clone()>
            <div class="title">
                <span class="address">{address.clone()}</span>
                <span class="details">{format!("{} · by {} · you may {}", resource.kind, resource.owner,
                    if resource.permissions.is_empty() { "nothing".to_owned() } else { resource.permissions.join(", ") })}</span>
            </div>
            <p class="description">{resource.description.clone()}</p>
            {(resource.kind != "tool").then(|| view! {
                <a class="document-link" href=Session::get().path(&Place::Document(address.clone()))
                    aria-label=format!("Open {address} on its own page")>"Own page"</a>
            })}
            {document}
            <Show when=move || may_invoke>
                <form class="tool-form" aria-label=form_label.clone() on:submit=submit.clone()>
                    {fields.clone().into_iter().map(|field| view! { <FieldInput field /> }).collect_view()}
                    <button type="submit">"Invoke"</button>
                </form>
            </Show>
            <OutcomeView outcome=shown tool=address.clone() />
        </li>
    }
}

/// The resource a [`ResourceEditor`] edits: given to its part alone.
#[derive(Clone)]
struct Editing {
    address: String,
    kind: String,
    may_write: bool,
    owner: String,
    content_type: String,
}

split_views! {
    /// A file's or a context's editor in the resources panel, as a part.
    resource_editor in resource_editor_chunk => view! { <ResourceEditor /> };
}

/// The editor of the resource its [`Editing`] names: structured (JSON)
/// context is edited whole and saved, text is a live shared document.
#[component]
fn ResourceEditor() -> impl IntoView {
    use_context::<Editing>().map(|e| match e.content_type.as_str() {
        "application/json" => view! {
            <DocumentEditor address=e.address kind=e.kind may_write=e.may_write owner=Some(e.owner) />
        }
        .into_any(),
        _ => view! {
            <LiveDocument address=e.address kind=e.kind may_write=e.may_write owner=Some(e.owner)
                content_type=e.content_type />
        }
        .into_any(),
    })
}

/// "Open file" for a file that is not text: the file viewer, once asked for.
#[component]
fn FileOpener(file: FileRef) -> impl IntoView {
    let open = RwSignal::new(false);
    view! {
        <div class="document file-open">
            <Show when=move || !open.get()>
                <button type="button" class="open-document" on:click=move |_| open.set(true)>"Open file"</button>
            </Show>
            <Show when=move || open.get()>
                <FileView file=file.clone() />
            </Show>
        </div>
    }
}

#[component]
fn FieldInput(field: Field) -> impl IntoView {
    let label = if field.required {
        format!("{} (required)", field.name)
    } else {
        field.name.clone()
    };
    match field.kind.as_str() {
        "enum" => view! {
            <label>{label}
                <select name=field.name.clone()>
                    {field.choices.iter().map(|c| view! { <option value=c.clone()>{c.clone()}</option> }).collect_view()}
                </select>
            </label>
        }
        .into_any(),
        "boolean" => view! { <label><input type="checkbox" name=field.name.clone() />{label}</label> }.into_any(),
        "number" | "integer" => view! {
            <label>{label} <input type="number" step="any" name=field.name.clone() /></label>
        }
        .into_any(),
        _ => view! { <label>{label} <input type="text" name=field.name.clone() /></label> }.into_any(),
    }
}
