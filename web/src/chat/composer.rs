//! The composer: a text area that grows with what is typed (Enter sends,
//! Shift+Enter breaks the line), the reply being written above it, and
//! posting — to the open conversation, or in a thread view as a reply in
//! that thread.

use super::messages::mentions_in;
use super::state::Chat;
use super::tabs::TabNews;
use crate::event_types::MESSAGE_POSTED;
use agentnet_core::{Address, EventType};
use leptos::prelude::*;
use serde_json::json;

impl Chat {
    /// Where the draft goes: the open thread's conversation (answering the
    /// message a Reply picked, else the thread's first), or the open
    /// conversation (answering the message a Reply picked, if any).
    pub(super) fn destination(&self) -> (String, Option<agentnet_core::EventId>) {
        let replying = self.replying.get_untracked().map(|(id, _)| id);
        match self.thread.get_untracked() {
            Some(root) => (
                self.thread_conversation_untracked(),
                replying.or(Some(root)),
            ),
            None => (self.current.get_untracked(), replying),
        }
    }

    /// Posts the draft (as a reply when it is one, with its mentions).
    pub(super) fn post(&self) {
        let content = self.draft.get_untracked().trim().to_owned();
        if content.is_empty() {
            return;
        }
        let (conversation, parent) = self.destination();
        let Ok(target) = conversation.parse::<Address>() else {
            return;
        };
        let Ok(kind) = MESSAGE_POSTED.parse::<EventType>() else {
            return;
        };
        let mut metadata = serde_json::Map::new();
        if let Some(parent) = parent {
            metadata.insert("in_reply_to".into(), json!(parent));
        }
        let mentions = mentions_in(&content);
        if !mentions.is_empty() {
            metadata.insert("mentions".into(), json!(mentions));
        }
        let posted = self.session.with_connection(|c| {
            let id = c.post_with(kind, target, json!({ "content": content }), metadata);
            c.outgoing(id)
        });
        match posted.flatten() {
            Some(event) => {
                self.tell(TabNews::Posted {
                    event: Box::new(event),
                });
                self.draft.set(String::new());
                self.replying.set(None);
                // This worked: an earlier problem no longer holds.
                self.session.problem.set(None);
            }
            None => self
                .session
                .report("The workspace is still opening: try again in a moment."),
        }
    }
}

/// The reply being written, and the composer.
#[component]
pub fn Composer() -> impl IntoView {
    let chat = Chat::get();
    let post = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        chat.post();
    };
    // Enter sends; Shift+Enter (or Enter while an input method composes) breaks the line.
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() {
            ev.prevent_default();
            chat.post();
        }
    };
    let placeholder = move || match chat.thread.get() {
        Some(_) => "Reply in this thread".to_owned(),
        None => format!("Message {}", chat.title_of(&chat.current.get())),
    };
    view! {
        <Show when=move || chat.replying.get().is_some()>
            <p class="replying">
                {move || chat.replying.get().map(|(_, e)| format!("Replying to “{e}”")).unwrap_or_default()}
                <button type="button" on:click=move |_| chat.replying.set(None)>"Cancel reply"</button>
            </p>
        </Show>
        <form class="composer" on:submit=post>
            <label for="message" class="visually-hidden">"Message"</label>
            <textarea id="message" name="message" rows="1" autocomplete="off"
                placeholder=placeholder
                aria-describedby="composer-hint"
                prop:value=move || chat.draft.get()
                on:keydown=keydown
                on:input=move |ev| chat.draft.set(event_target_value(&ev))></textarea>
            <button type="submit">"Send"</button>
            <span id="composer-hint" class="hint">"Enter sends · Shift+Enter for a new line"</span>
        </form>
    }
}
