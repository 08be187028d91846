//! One thread model, as in Slack: a message's "Reply in thread" opens its
//! thread (beside the conversation on wide screens, instead of it on
//! phones) with the thread's composer focused; replies stay in the thread
//! (the conversation shows "N replies" under the message), unless the
//! sender ticks "also send to the conversation"
//! ([`crate::chat::messages::ALSO_IN_CONVERSATION`]). [`ThreadUi`] (in
//! [`crate::chat::state::Chat`]) holds the thread composer's choices;
//! [`crate::chat::composer::view`] and [`crate::chat::list::line`] use them.

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
