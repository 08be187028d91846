//! The Admin pane's other cards: invitations (each a link to copy, with its
//! invitee and expiry), mods, settings and tokens. Each button sends one
//! `network.admin.*` (or `workspace.invitation.created`) event.

use super::state::Admin;
use crate::clock::now_ms;
use agentnet_core::network::admin_types as t;
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::{JsCast, JsValue};

/// The standard mods a master may load.
const STANDARD_MODS: [&str; 7] = agentnet_core::model::config::ModConfig::STANDARD_NAMES;

/// When an invitation expiring at `expires_at` (unix ms) does, seen at `now`, in words.
pub fn expiry_words(expires_at: u64, now: u64) -> String {
    let Some(left) = expires_at.checked_sub(now).filter(|l| *l > 0) else {
        return "expired".into();
    };
    let minutes = left / 60_000;
    match minutes {
        0 => "expires in under a minute".into(),
        1..=59 => format!("expires in {minutes} min"),
        60..=2879 => format!("expires in {} h", minutes / 60),
        _ => format!("expires in {} days", minutes / 1440),
    }
}

/// Puts `text` on the clipboard (`navigator.clipboard.writeText`); false when the browser cannot.
pub fn copy(text: &str) -> bool {
    let get = |on: &JsValue, key: &str| js_sys::Reflect::get(on, &JsValue::from_str(key)).ok();
    let clipboard = get(&window().into(), "navigator").and_then(|n| get(&n, "clipboard"));
    let Some(clipboard) = clipboard.filter(|c| !c.is_undefined()) else {
        return false;
    };
    let write = get(&clipboard, "writeText").and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    write.is_some_and(|f| f.call1(&clipboard, &JsValue::from_str(text)).is_ok())
}

/// The invitations card: invite (anyone, or one address), the unused invitations, the news.
#[component]
pub fn Invitations(
    /// The unused invitations (the read's `invitations`).
    invitations: Vec<Value>,
) -> impl IntoView {
    let admin = Admin::get();
    let invitee = RwSignal::new(String::new());
    let origin = window().location().origin().unwrap_or_default();
    let network = crate::session::Session::get().network_name();
    let now = now_ms();
    let invite = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let who = invitee.get_untracked();
        let payload = if who.trim().is_empty() {
            json!({})
        } else {
            json!({"invitee": who.trim()})
        };
        admin.change("workspace.invitation.created", payload, "Invite");
    };
    view! {
        <section class="admin-card" aria-labelledby="admin-invitations">
            <h3 id="admin-invitations">"Invitations"</h3>
            <form class="admin-row" on:submit=invite>
                <label class="admin-field">"Invitee (optional)"
                    <input placeholder="agent:guest — empty: anyone with the link" prop:value=move || invitee.get()
                        on:input=move |e| invitee.set(event_target_value(&e)) />
                </label>
                <button type="submit" class="admin-button primary">"Invite"</button>
            </form>
            {invitations.is_empty().then(|| view! { <p class="admin-hint">"No unused invitations."</p> })}
            <ul class="admin-invitations" aria-label="Unused invitations">
                {invitations.into_iter().map(|i| {
                    let code = i.get("code").and_then(Value::as_str).unwrap_or("").to_owned();
                    let who = crate::bidi::isolate(i.get("invitee").and_then(Value::as_str).unwrap_or("anyone"));
                    let expires = i.get("expires_at").and_then(Value::as_u64).map(|at| expiry_words(at, now));
                    let link = crate::invite::invitation_link(&origin, &network, &code);
                    let (revoke, to_copy) = (code.clone(), link.clone());
                    let copied = RwSignal::new(false);
                    view! {
                        <li class="admin-invitation">
                            <span class="who"><span class="name">{format!("For {who}")}</span>
                                <span class="admin-hint">{expires}</span></span>
                            <input class="invitation-link" readonly aria-label=format!("Invitation link for {who}") prop:value=link />
                            <span class="admin-actions">
                                <button type="button" class="admin-button small"
                                    on:click=move |_| copied.set(copy(&to_copy))>
                                    {move || if copied.get() { "Copied" } else { "Copy link" }}
                                </button>
                                <button type="button" class="admin-button small danger" aria-label=format!("Revoke the invitation for {who}")
                                    on:click=move |_| admin.change(t::INVITATION_REVOKE, json!({"code": revoke.clone()}), "Revoke an invitation")>"Revoke"</button>
                            </span>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <ul class="invitation-news" aria-label="Invitation news">
                {move || admin.news.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
            </ul>
        </section>
    }
}

/// The mods card: those loaded (each may be unloaded), and one to load.
#[component]
pub fn Mods(
    /// The loaded mods' addresses.
    mods: Vec<String>,
) -> impl IntoView {
    let admin = Admin::get();
    let to_load = RwSignal::new("analytics".to_owned());
    view! {
        <section class="admin-card" aria-labelledby="admin-mods">
            <h3 id="admin-mods">"Mods"</h3>
            {mods.is_empty().then(|| view! { <p class="admin-hint">"No mods loaded."</p> })}
            <ul class="admin-list">
                {mods.into_iter().map(|m| {
                    let name = m.clone();
                    view! {
                        <li><span class="name">{m.clone()}</span>
                            <button type="button" class="admin-button small" aria-label=format!("Unload {m}")
                                on:click=move |_| admin.change(t::MOD_UNLOAD, json!({"name": name.clone()}), "Unload a mod")>"Unload"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <div class="admin-row">
                <label class="admin-field">"Mod to load"
                    <select on:change=move |e| to_load.set(event_target_value(&e))>
                        {STANDARD_MODS.map(|m| view! { <option value=m selected=m == "analytics">{m}</option> }).collect_view()}
                    </select>
                </label>
                <button type="button" class="admin-button primary"
                    on:click=move |_| admin.change(t::MOD_LOAD, json!({"name": to_load.get_untracked()}), "Load a mod")>"Load"</button>
            </div>
        </section>
    }
}

/// The settings card: presence timeout and public listing.
#[component]
pub fn Settings(
    /// The network's configuration.
    config: Value,
) -> impl IntoView {
    let admin = Admin::get();
    let timeout = config
        .get("presence_timeout_ms")
        .and_then(Value::as_u64)
        .unwrap_or(60_000);
    let public = config
        .get("public")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let seconds = RwSignal::new((timeout / 1000).to_string());
    let listed = RwSignal::new(public);
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let ms = seconds
            .get_untracked()
            .trim()
            .parse::<u64>()
            .unwrap_or(0)
            .saturating_mul(1000);
        admin.change(
            t::SETTINGS,
            json!({"presence_timeout_ms": ms, "public": listed.get_untracked()}),
            "Save settings",
        );
    };
    view! {
        <section class="admin-card" aria-labelledby="admin-settings">
            <h3 id="admin-settings">"Settings"</h3>
            <form class="admin-form" on:submit=save>
                <label class="admin-field">"Presence timeout (seconds)"
                    <input type="number" min="5" prop:value=move || seconds.get() on:input=move |e| seconds.set(event_target_value(&e)) />
                </label>
                <label class="admin-check">
                    <input type="checkbox" prop:checked=move || listed.get() on:change=move |e| listed.set(event_target_checked(&e)) />
                    " Listed publicly (in the Directory)"
                </label>
                <button type="submit" class="admin-button primary">"Save settings"</button>
            </form>
        </section>
    }
}

/// The tokens card: new network or admin tokens (each shown once).
#[component]
pub fn Tokens() -> impl IntoView {
    let admin = Admin::get();
    view! {
        <section class="admin-card" aria-labelledby="admin-tokens">
            <h3 id="admin-tokens">"Tokens"</h3>
            <p class="admin-hint">"A new token replaces the old one at once; it is shown once, here."</p>
            <div class="admin-actions">
                <button type="button" class="admin-button" on:click=move |_| admin.change(t::TOKEN_ROTATE, json!({"token": "access"}), "Rotate the access token")>"Rotate the access token"</button>
                <button type="button" class="admin-button" on:click=move |_| admin.change(t::TOKEN_ROTATE, json!({"token": "admin"}), "Rotate the admin token")>"Rotate the admin token"</button>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invitations_expiry_is_said_in_the_largest_fitting_unit() {
        let now = 1_000_000_000;
        assert_eq!(expiry_words(now - 1, now), "expired");
        assert_eq!(expiry_words(now + 30_000, now), "expires in under a minute");
        assert_eq!(expiry_words(now + 5 * 60_000, now), "expires in 5 min");
        assert_eq!(expiry_words(now + 3 * 3_600_000, now), "expires in 3 h");
        assert_eq!(expiry_words(now + 7 * 86_400_000, now), "expires in 7 days");
    }
}
