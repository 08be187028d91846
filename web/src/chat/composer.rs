//! The composer: a text area that grows with what is typed (Enter sends,
//! Shift+Enter breaks the line), the reply being written above it, and
//! posting — to the open conversation, or from the thread's own composer
//! (beside the conversation on wide screens) as a reply in that thread.

use super::attach::Attachments;
use super::attachment_view::{AttachButton, PendingFiles, on_paste};
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
    pub(super) fn destination(&self, in_thread: bool) -> (String, Option<agentnet_core::EventId>) {
        let replying = self
            .replying_in(in_thread)
            .get_untracked()
            .map(|(id, _)| id);
        match self.thread.get_untracked().filter(|_| in_thread) {
            Some(root) => (
                self.thread_conversation_untracked(),
                replying.or(Some(root)),
            ),
            None => (self.current.get_untracked(), replying),
        }
    }

    /// The draft of the conversation's composer, or of the thread's.
    pub(super) fn draft_in(&self, in_thread: bool) -> RwSignal<String> {
        if in_thread {
            self.thread_draft
        } else {
            self.draft
        }
    }

    /// The reply being written in the conversation's composer, or in the thread's.
    pub(super) fn replying_in(
        &self,
        in_thread: bool,
    ) -> RwSignal<Option<(agentnet_core::EventId, String)>> {
        if in_thread {
            self.thread_replying
        } else {
            self.replying
        }
    }

    /// Posts the draft (as a reply when it is one, with its mentions and files).
    pub(super) fn post(&self, in_thread: bool, files: Attachments) {
        let content = self.draft_in(in_thread).get_untracked().trim().to_owned();
        if content.is_empty() && files.pending(in_thread).with_untracked(Vec::is_empty) {
            return;
        }
        let (conversation, parent) = self.destination(in_thread);
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
        let mut payload = json!({ "content": content });
        match files.send_pending(in_thread, &target) {
            Some(attached) if !attached.is_empty() => payload["attachments"] = json!(attached),
            Some(_) => {}
            None => {
                return self
                    .session
                    .report("The workspace is still opening: try again in a moment.");
            }
        }
        let posted = self.session.with_connection(|c| {
            let id = c.post_with(kind, target, payload, metadata);
            c.outgoing(id)
        });
        match posted.flatten() {
            Some(event) => {
                self.tell(TabNews::Posted {
                    event: Box::new(event),
                });
                self.draft_in(in_thread).set(String::new());
                self.replying_in(in_thread).set(None);
                // This worked: an earlier problem no longer holds.
                self.session.problem.set(None);
            }
            None => self
                .session
                .report("The workspace is still opening: try again in a moment."),
        }
    }
}

/// The reply being written, and the composer (`in_thread`: the thread's).
#[component]
pub fn Composer(
    /// The open thread's composer, replying in it.
    in_thread: bool,
) -> impl IntoView {
    let chat = Chat::get();
    let files = Attachments::get();
    let draft = chat.draft_in(in_thread);
    let replying = chat.replying_in(in_thread);
    let post = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        chat.post(in_thread, files);
    };
    // Enter sends; Shift+Enter (or Enter while an input method composes) breaks the line.
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() {
            ev.prevent_default();
            chat.post(in_thread, files);
        }
    };
    let placeholder = move || match in_thread {
        true => "Reply in this thread".to_owned(),
        false => format!("Message {}", chat.title_of(&chat.current.get())),
    };
    let (id, label, hint) = match in_thread {
        true => ("thread-reply", "Thread reply", "thread-reply-hint"),
        false => ("message", "Message", "composer-hint"),
    };
    view! {
        <Show when=move || replying.get().is_some()>
            <p class="replying">
                {move || replying.get().map(|(_, e)| format!("Replying to “{e}”")).unwrap_or_default()}
                <button type="button" on:click=move |_| replying.set(None)>"Cancel reply"</button>
            </p>
        </Show>
        <PendingFiles in_thread />
        <form class="composer" on:submit=post>
            <label for=id class="visually-hidden">{label}</label>
            <textarea id=id name=id rows="1" autocomplete="off"
                placeholder=placeholder
                aria-describedby=hint
                prop:value=move || draft.get()
                on:keydown=keydown
                on:paste=move |ev| on_paste(ev, in_thread)
                on:input=move |ev| draft.set(event_target_value(&ev))></textarea>
            <AttachButton in_thread />
            <button type="submit">"Send"</button>
            <span id=hint class="hint">"Enter sends · Shift+Enter for a new line"</span>
        </form>
    }
}
