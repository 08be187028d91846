//! The open conversation: the session header, the message list
//! ([`crate::chat::list::view`]) and the composer ([`crate::chat::composer::view`]); and the open
//! thread with its own list and composer — beside the conversation on wide
//! screens (1024 px and more), instead of it on narrower ones (the style
//! sheet decides, on `.chat.with-thread`).

use crate::chat::composer::view::Composer;
use crate::chat::list::view::MessageList;
use crate::chat::state::Chat;
use crate::routes::Place;
use crate::session::{Pane, Session};
use leptos::prelude::*;

pub use crate::chat::list::rows::thread_of;

/// The open conversation: its messages, the reply being written and the
/// composer; and the open thread.
#[component]
pub fn ChatPane() -> impl IntoView {
    let session = Session::get();
    let chat = Chat::get();
    let threaded = move || chat.thread.get().is_some();
    // Beside a thread (opened by a link, say), its own conversation.
    Effect::new(move |_| {
        if chat.thread.get().is_some() {
            let conversation = chat.thread_conversation();
            if conversation != chat.current.get_untracked() {
                chat.current.set(conversation);
            }
        }
    });
    view! {
        <main class="chat" class:with-thread=threaded hidden=move || session.pane() != Pane::Conversation>
            <Show when=move || session.problem.get().is_some()>
                <p class="problem" role="alert">{move || session.problem.get().unwrap_or_default()}</p>
            </Show>
            <crate::chat::files::attachment_view::DropZone>
                <Show when=move || chat.sessions.with(|s| s.title_of(&chat.current.get()).is_none())>
                    <header class="conversation-header">
                        <h2>{move || chat.title_of(&chat.current.get())}</h2>
                        // A direct conversation: whom exactly (`agent:ann` and `human:ann` share a name).
                        {move || {
                            let current = chat.current.get();
                            crate::chat::conversations::direct_address(&current)
                                .map(|address| view! { <span class="address">{address.to_owned()}</span> })
                        }}
                    </header>
                </Show>
                <crate::chat::sessions::header::SessionHeader />
                <crate::people::me::NamePrompt />
                <MessageList in_thread=false />
                <Composer in_thread=false />
            </crate::chat::files::attachment_view::DropZone>
            <Show when=threaded>
                <section class="thread-pane" aria-label="Thread">
                    <p class="thread-bar">
                        <strong>"Thread"</strong>
                        <span class="thread-in">{move || format!("in {}", crate::bidi::isolate(&chat.title_of(&chat.thread_conversation())))}</span>
                        <a href=move || session.path(&Place::Conversation(chat.thread_conversation()))>"Back to the conversation"</a>
                    </p>
                    <MessageList in_thread=true />
                    <Composer in_thread=true />
                </section>
            </Show>
        </main>
    }
}
