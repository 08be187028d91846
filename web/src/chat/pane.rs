//! The open conversation: the session header or the thread bar, the
//! message list ([`super::list`]) and the composer ([`super::composer`]).

use super::composer::Composer;
use super::list::MessageList;
use super::state::Chat;
use crate::routes::Place;
use crate::session::{Pane, Session};
use leptos::prelude::*;

pub use super::rows::thread_of;

/// The open conversation: its messages, the reply being written and the composer.
#[component]
pub fn ChatPane() -> impl IntoView {
    let session = Session::get();
    let chat = Chat::get();
    view! {
        <main class="chat" hidden=move || session.pane() != Pane::Conversation>
            <Show when=move || session.problem.get().is_some()>
                <p class="problem" role="alert">{move || session.problem.get().unwrap_or_default()}</p>
            </Show>
            <Show when=move || chat.thread.get().is_none()>
                <Show when=move || chat.sessions.with(|s| s.title_of(&chat.current.get()).is_none())>
                    <header class="conversation-header">
                        <h2>{move || chat.title_of(&chat.current.get())}</h2>
                    </header>
                </Show>
                <super::session_header::SessionHeader />
            </Show>
            <Show when=move || chat.thread.get().is_some()>
                <p class="thread-bar">
                    <strong>"Thread"</strong>
                    <span class="thread-in">{move || format!("in {}", chat.title_of(&chat.thread_conversation()))}</span>
                    <a href=move || session.path(&Place::Conversation(chat.thread_conversation()))>"Back to the conversation"</a>
                </p>
            </Show>
            <MessageList />
            <Composer />
        </main>
    }
}
