//! One thread model, as in Slack: a message's "Reply in thread" opens its
//! thread (beside the conversation on wide screens, instead of it on
//! phones) with the thread's composer focused; replies stay in the thread
//! (the conversation shows "N replies" under the message), unless the
//! sender ticks "also send to the conversation"
//! ([`super::messages::ALSO_IN_CONVERSATION`]). [`ThreadUi`] (in
//! [`super::state::Chat`]) holds the thread composer's choices;
//! [`super::composer`] and [`super::line`] use them; [`crate::swipe`] opens
//! and closes threads through [`super::state::Chat::reply_in_thread`] and
//! [`super::state::Chat::close_thread`].

use leptos::prelude::*;

/// The thread composer's state beyond its draft.
#[derive(Clone, Copy)]
pub struct ThreadUi {
    /// "Also send to the conversation" is ticked (cleared after each reply).
    pub also_send: RwSignal<bool>,
    /// "Reply in thread" asked for the focus in the thread's composer:
    /// taken (and cleared) once that composer is there.
    pub focus: RwSignal<bool>,
}

impl ThreadUi {
    /// Nothing ticked, no focus asked for.
    pub fn new() -> Self {
        Self {
            also_send: RwSignal::new(false),
            focus: RwSignal::new(false),
        }
    }
}

impl Default for ThreadUi {
    fn default() -> Self {
        Self::new()
    }
}

impl super::state::Chat {
    /// The open thread's first message, if a thread is open.
    pub fn open_thread(&self) -> Option<agentnet_core::EventId> {
        self.thread.get_untracked()
    }

    /// Opens the thread `message` is in, its composer focused (what "Reply in thread" does).
    pub fn reply_in_thread(&self, message: agentnet_core::EventId) {
        let root = self
            .lines
            .with_untracked(|all| super::jump::thread_root(all, message))
            .unwrap_or(message);
        self.threads.focus.set(true);
        self.session.go(&crate::routes::Place::Thread(root));
    }

    /// Closes the open thread: back to its conversation.
    pub fn close_thread(&self) {
        let conversation = self.thread_conversation_untracked();
        self.session
            .go(&crate::routes::Place::Conversation(conversation));
    }
}
