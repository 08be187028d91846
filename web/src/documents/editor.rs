//! Structured (JSON) context in the resources panel: open one to read its
//! content (`network.resource.read`) and, with write permission, edit and
//! save it (`network.resource.update`). What it shows and sends is in
//! [`super::content`].

use super::content::{Opened, content_from};
use super::labels::{ReadOnlyNote, read_only_reason};
use super::state::Documents;
use leptos::prelude::*;

/// The editor of one file or context.
#[component]
pub fn DocumentEditor(
    /// The resource's address.
    address: String,
    /// `file` or `context`.
    kind: String,
    /// Whether the person may write it.
    may_write: bool,
    /// Who shares it (says why it is read-only).
    #[prop(optional_no_strip)]
    owner: Option<String>,
) -> impl IntoView {
    let read_only = read_only_reason(may_write, owner.as_deref());
    let documents = Documents::get();
    let opened = documents.opened();
    let (draft, set_draft) = signal(String::new());
    let (problem, set_problem) = signal(None::<String>);
    let mine = address.clone();
    let state = Memo::new(move |_| opened.get().filter(|(a, _)| *a == mine).map(|(_, o)| o));
    // A freshly read text replaces the draft.
    Effect::new(move |_| {
        if let Some(Opened::Text(text)) = state.get() {
            set_draft.set(text);
        }
    });
    let open_address = address.clone();
    let save_address = address.clone();
    let label = format!("Content of {address}");
    view! {
        <div class="document">
            <button type="button" class="open-document" on:click=move |_| documents.read(open_address.clone())>
                {format!("Open {kind}")}
            </button>
            {move || match state.get() {
                None => None,
                Some(Opened::Reading) => Some(view! { <p class="outcome" role="status">"Reading…"</p> }.into_any()),
                Some(Opened::Failed(reason)) => Some(view! { <p class="outcome error" role="alert">{reason}</p> }.into_any()),
                Some(Opened::Text(_) | Opened::Saved(_)) => Some(view! {
                    {read_only.clone().map(|reason| view! { <ReadOnlyNote reason /> })}
                    <textarea aria-label=label.clone() rows="6" readonly=!may_write
                        prop:value=move || draft.get()
                        on:input=move |ev| set_draft.set(event_target_value(&ev))></textarea>
                }.into_any()),
            }}
            <Show when=move || may_write && matches!(state.get(), Some(Opened::Text(_) | Opened::Saved(_)))>
                <button type="button" class="save-document" on:click={
                    let address = save_address.clone();
                    let kind = kind.clone();
                    move |_| match content_from(&kind, &draft.get_untracked()) {
                        Ok(_) => {
                            set_problem.set(None);
                            documents.save(address.clone(), &kind, draft.get_untracked());
                        }
                        Err(error) => set_problem.set(Some(error.to_string())),
                    }
                }>"Save"</button>
            </Show>
            {move || matches!(state.get(), Some(Opened::Saved(_))).then(|| view! { <p class="outcome" role="status">"Saved."</p> })}
            <Show when=move || problem.get().is_some()>
                <p class="problem" role="alert">{move || problem.get().unwrap_or_default()}</p>
            </Show>
        </div>
    }
}
