//! The header of an open Workspace session: its title, status and master,
//! and a form to rename it or change its status (a
//! `workspace.session.updated`; `mod/workspace` decides who may).

use crate::chat::sessions::model::{status_named, update_payload};
use crate::chat::state::Chat;
use crate::session::Session;
use agentnet_core::Address;
use agentnet_core::model::payloads::Payload;
use agentnet_core::vocabulary::event_types::SESSION_UPDATED;
use leptos::prelude::*;

/// The header of the open conversation when it is a session: its title,
/// status and master, and a form to change them.
#[component]
pub fn SessionHeader() -> impl IntoView {
    let chat = Chat::get();
    let session = Session::get();
    let info = move || {
        let open = chat.current.get();
        chat.sessions
            .with(|s| s.0.get(&open).cloned().map(|info| (open, info)))
    };
    let title = RwSignal::new(String::new());
    let status = RwSignal::new(String::new());
    // The form shows the open session's status again when another session
    // is opened or that status changes, not whenever any session does (a
    // choice not yet submitted stays).
    let current_status = Memo::new(move |_| info().map(|(open, info)| (open, info.status)));
    Effect::new(move |_| {
        if let Some((_, current)) = current_status.get() {
            status.set(current.as_str().to_owned());
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some((channel, current)) = info() else {
            return;
        };
        let Some(update) = update_payload(
            &channel,
            &title.get_untracked(),
            status_named(&status.get_untracked()),
            &current,
        ) else {
            return;
        };
        match session.post(SESSION_UPDATED, Address::broadcast(), update.to_json()) {
            Some(id) => chat.expect_session_update(id, channel, update),
            None => session.report("The workspace is still opening: try again in a moment."),
        }
        title.set(String::new());
    };
    move || {
        info().map(|(_, info)| {
            let shown = info.title.clone().unwrap_or_else(|| "Untitled session".into());
            view! {
                <section class="session-header" aria-label="Session">
                    <h2 class="session-title">{shown}</h2>
                    <span class="session-status" data-status=info.status.as_str()>{info.status.as_str()}</span>
                    {info.master.as_ref().map(|m| view! { <span class="session-master">"master: " {m.to_string()}</span> })}
                    <form class="session-update" on:submit=submit>
                        <span class="session-field session-field-title">
                            <label for="session-title">"Session title"</label>
                            <input id="session-title" autocomplete="off" prop:value=move || title.get()
                                on:input=move |ev| title.set(event_target_value(&ev)) />
                        </span>
                        <span class="session-field">
                            <label for="session-status">"Status"</label>
                            <select id="session-status" prop:value=move || status.get()
                                on:change=move |ev| status.set(event_target_value(&ev))>
                                <option value="open">"open"</option>
                                <option value="closed">"closed"</option>
                                <option value="archived">"archived"</option>
                            </select>
                        </span>
                        <button type="submit">"Update session"</button>
                    </form>
                </section>
            }
        })
    }
}
