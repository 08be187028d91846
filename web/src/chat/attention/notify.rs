//! Browser notifications for what is for the person — a mention or a
//! direct message ([`crate::chat::attention::unread::is_for`]) — while the tab is hidden.
//! The permission is asked for only when the person clicks the bell
//! ([`NotifyControl`]), never on load; the browser calls are in
//! `web/js/notify.js`.

use crate::chat::attention::unread::is_for;
use crate::chat::messages::{Line, excerpt_of};
use crate::chat::state::Chat;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/notify.js")]
extern "C" {
    #[wasm_bindgen(js_name = notificationState)]
    fn notification_state() -> String;
    #[wasm_bindgen(js_name = askNotifications)]
    async fn ask_notifications() -> JsValue;
    #[wasm_bindgen(js_name = showNotification)]
    fn show_notification(title: &str, body: &str, tag: &str) -> bool;
}

/// The notification's title for `line`: who (by the name `who` goes by),
/// and where.
pub fn title_for(line: &Line, who: &str, conversation_title: &str) -> String {
    if crate::chat::conversations::is_direct(&line.conversation) {
        format!("{} wrote to you", crate::bidi::isolate(who))
    } else {
        format!(
            "{} mentioned you in {}",
            crate::bidi::isolate(who),
            crate::bidi::isolate(conversation_title)
        )
    }
}

/// True when the page is hidden (a background tab or a minimised window).
fn page_hidden() -> bool {
    document().visibility_state() != web_sys::VisibilityState::Visible
}

impl Chat {
    /// Shows a notification for a message just received, when it is for the
    /// person, the tab is hidden and the person allowed notifications.
    pub(crate) fn notify(&self, line: &Line) {
        let me = self.session.me_text();
        if !is_for(line, &me) || !page_hidden() || notification_state() != "granted" {
            return;
        }
        let who = untrack(|| crate::people::person::Members::name_of(&line.source));
        let title = title_for(line, &who, &untrack(|| self.title_of(&line.conversation)));
        show_notification(&title, &excerpt_of(&line.content), &line.id.to_string());
    }
}

/// The bell: "Enable notifications" until the person allows them (asked on
/// this click only), then what the browser decided.
#[component]
pub fn NotifyControl() -> impl IntoView {
    let state = RwSignal::new(notification_state());
    let ask = move |_| {
        wasm_bindgen_futures::spawn_local(async move {
            let answer = ask_notifications().await.as_string();
            let _ = state.try_set(answer.unwrap_or_else(notification_state));
        });
    };
    move || {
        match state.get().as_str() {
        "unsupported" => ().into_any(),
        "granted" => view! {
            <p class="notify-state" role="status">"Notifications on for mentions and direct messages"</p>
            <crate::chat::attention::push::PushControl />
        }
        .into_any(),
        "denied" => view! {
            <p class="notify-state">"Notifications are blocked in this browser's site settings"</p>
        }
        .into_any(),
        _ => view! {
            <button type="button" class="notify" on:click=ask
                title="Be notified of mentions and direct messages while this tab is hidden">
                "Enable notifications"
            </button>
        }
        .into_any(),
    }
    }
}
