//! The setting that notifies the person when the workspace's tab is
//! closed: Web Push through the service worker. Turning it on subscribes
//! this browser with the network's VAPID key and hands the subscription to
//! the edge, which then pushes what `agentnet_core::webpush::recipients`
//! says is for the person; `www/sw.js` shows it and opens the conversation
//! on a click. The browser calls are in `web/js/push.js`.

use crate::chat::state::Chat;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/push.js")]
extern "C" {
    #[wasm_bindgen(js_name = pushState)]
    fn push_state(network: &str) -> String;
    #[wasm_bindgen(js_name = enablePush, catch)]
    async fn enable_push(network: &str, me: &str, secret: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = disablePush, catch)]
    async fn disable_push(network: &str, me: &str, secret: &str) -> Result<JsValue, JsValue>;
}

/// The message of a JS error, for people.
fn message_of(error: &JsValue) -> String {
    crate::error::js_message(error, "the browser refused")
}

/// "Also when this tab is closed": a switch, and what became of the last change.
#[component]
pub fn PushControl() -> impl IntoView {
    let chat = Chat::get();
    let network = chat.session.network_name();
    let me = chat.session.me_text();
    let state = RwSignal::new(push_state(&network));
    let problem = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let toggle = move |_| {
        let (network, me) = (network.clone(), me.clone());
        let turn_on = state.get_untracked() != "on";
        busy.set(true);
        wasm_bindgen_futures::spawn_local(async move {
            let secret = crate::storage::recall(&crate::storage::secret_key(&network, &me))
                .unwrap_or_default();
            let done = if turn_on {
                enable_push(&network, &me, &secret).await
            } else {
                disable_push(&network, &me, &secret).await
            };
            let _ = problem.try_set(done.as_ref().err().map(message_of));
            let _ = state.try_set(push_state(&network));
            let _ = busy.try_set(false);
        });
    };
    move || {
        (state.get() != "unsupported").then(|| {
            view! {
                <div class="push-setting">
                    <label>
                        <input type="checkbox" prop:checked=move || state.get() == "on"
                            prop:disabled=move || busy.get() on:change=toggle.clone() />
                        " Also when this tab is closed"
                    </label>
                    {move || problem.get().map(|p| view! { <p class="push-problem" role="alert">{p}</p> })}
                </div>
            }
        })
    }
}
