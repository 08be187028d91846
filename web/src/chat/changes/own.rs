//! What the person can do with their own message: edit it in place (Enter
//! saves, Escape cancels) or delete it (asked once more, in place). The
//! changes are events ([`crate::chat::changes::edits`]); the network refuses them from
//! anyone but the author.

use crate::chat::messages::Line;
use crate::chat::state::Chat;
use leptos::prelude::*;

/// The edit box of `line`, shown while `editing`.
#[component]
pub fn EditForm(
    /// The message edited.
    line: Line,
    /// True while the box shows.
    editing: RwSignal<bool>,
) -> impl IntoView {
    let chat = Chat::get();
    let text = RwSignal::new(line.content.clone());
    let save = {
        let line = line.clone();
        move || {
            chat.edit(&line, &text.get_untracked());
            editing.set(false);
        }
    };
    let on_submit = {
        let save = save.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            save();
        }
    };
    let keydown = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "Enter" if !ev.shift_key() && !ev.is_composing() => {
            ev.prevent_default();
            save();
        }
        "Escape" => editing.set(false),
        _ => {}
    };
    let area = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        if let Some(el) = area.get() {
            let _ = el.focus();
        }
    });
    view! {
        <form class="edit-message" on:submit=on_submit>
            <label class="visually-hidden" for=format!("edit-{}", line.id)>"Edit message"</label>
            <textarea id=format!("edit-{}", line.id) node_ref=area rows="2"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
                on:keydown=keydown></textarea>
            <span class="edit-actions">
                <button type="submit">"Save"</button>
                <button type="button" class="quiet" on:click=move |_| editing.set(false)>"Cancel"</button>
                <span class="hint">"Enter saves · Escape cancels"</span>
            </span>
        </form>
    }
}

/// Edit and Delete for the person's own sent message (Delete asks once more).
#[component]
pub fn OwnActions(
    /// The person's message.
    line: Line,
    /// Set while its edit box shows.
    editing: RwSignal<bool>,
) -> impl IntoView {
    let chat = Chat::get();
    let confirming = RwSignal::new(false);
    let line = StoredValue::new(line);
    view! {
        <Show when=move || !confirming.get()
            fallback=move || view! {
                <span class="confirm-delete" role="group" aria-label="Delete this message?">
                    "Delete this message?"
                    <button type="button" class="danger"
                        on:click=move |_| { confirming.set(false); line.with_value(|l| chat.delete(l)); }>"Delete"</button>
                    <button type="button" class="quiet" on:click=move |_| confirming.set(false)>"Keep"</button>
                </span>
            }>
            <button type="button" class="edit" on:click=move |_| editing.set(true)>"Edit"</button>
            <button type="button" class="delete" on:click=move |_| confirming.set(true)>"Delete"</button>
        </Show>
    }
}
