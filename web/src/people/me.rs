//! The person's own name and face: the sidebar shows them with "Edit
//! profile"; on a first visit (no display name yet, not dismissed here) a
//! banner over the conversation asks for one, offering the name last used
//! anywhere on this browser. The form checks the name and picture by the core's own rules
//! ([`Profile::from_value`]) and sends `network.agent.profile` `{name,
//! picture}`: the network tells everyone (`workspace.member.updated`).

use super::face::Avatar;
use super::person::Members;
use crate::session::Session;
use crate::storage;
use agentnet_core::Address;
use agentnet_core::ids::event_type::core_types;
use agentnet_core::model::profile::Profile;
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/picture.js")]
extern "C" {
    #[wasm_bindgen(js_name = pictureOf)]
    async fn picture_of(file: web_sys::File) -> JsValue;
}

/// Where the name last used on this browser is kept (offered in the next network).
pub const LAST_NAME_KEY: &str = "display-name";

/// Where the name typed on an invitation page waits until its network is joined.
pub fn pending_name_key(network: &str) -> String {
    format!("pending-name:{network}")
}

/// The profile payload for `name` and `picture` (`null` clears either),
/// checked as the network will check it: the payload, or why not.
pub fn profile_payload(name: &str, picture: Option<&str>) -> Result<Value, String> {
    let payload = json!({
        "name": if name.trim().is_empty() { Value::Null } else { json!(name.trim()) },
        "picture": picture.map_or(Value::Null, |p| json!(p)),
    });
    Profile::from_value(&payload).map_err(|e| format!("{}.", capitalised(&e.to_string())))?;
    Ok(payload)
}

/// `text` with its first letter a capital: the core's messages are English,
/// so ASCII's capitals are enough (no Unicode case tables on the first page).
fn capitalised(text: &str) -> String {
    let mut text = text.to_owned();
    if let Some(first) = text.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    text
}

/// Sends the person's new name and picture; `Err` says why it cannot.
fn save(session: Session, name: &str, picture: Option<&str>) -> Result<(), String> {
    let payload = profile_payload(name, picture)?;
    if !name.trim().is_empty() {
        storage::keep(LAST_NAME_KEY, name.trim());
    }
    session
        .post(core_types::AGENT_PROFILE, Address::core(), payload)
        .map(|_| ())
        .ok_or_else(|| "Not connected: try again once the network is back.".to_owned())
}

/// The person's entry in the roster, once it has arrived: `(name, picture)`.
fn mine(session: Session) -> Option<(Option<String>, Option<String>)> {
    let me = session.me_text();
    Members::get()?.with(|people| {
        people
            .iter()
            .find(|p| p.address == me)
            .map(|p| (p.name.clone(), p.picture.clone()))
    })
}

/// The form: a name and an optional picture; `done` runs once sent or cancelled.
#[component]
pub fn ProfileForm(
    /// Runs when the form is done with (saved, skipped or cancelled).
    done: Callback<()>,
    /// The cancel button's words ("Not now" on a first visit).
    cancel_label: &'static str,
) -> impl IntoView {
    let session = Session::get();
    let (current_name, current_picture) = untrack(|| mine(session)).unwrap_or_default();
    let offered = current_name.or_else(|| storage::recall(LAST_NAME_KEY));
    let name = RwSignal::new(offered.unwrap_or_default());
    let picture = RwSignal::new(current_picture);
    let problem = RwSignal::new(None::<String>);
    let choose = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            match picture_of(file).await.as_string().filter(|u| !u.is_empty()) {
                Some(url) => {
                    let _ = picture.try_set(Some(url));
                }
                None => {
                    let _ = problem.try_set(Some(
                        "That file is not a picture this browser can read.".into(),
                    ));
                }
            }
        });
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match save(
            session,
            &name.get_untracked(),
            picture.get_untracked().as_deref(),
        ) {
            Ok(()) => done.run(()),
            Err(why) => problem.set(Some(why)),
        }
    };
    let me = session.me_text();
    view! {
        <form class="profile-form" on:submit=submit>
            <label class="field">
                <span>"Your name"</span>
                <input type="text" name="display-name" maxlength="64" autocomplete="name" required
                    placeholder="How people will see you"
                    prop:value=name on:input=move |ev| name.set(event_target_value(&ev)) />
            </label>
            <div class="picture-field">
                {move || match picture.get() {
                    Some(url) => view! { <img class="avatar large" src=url alt="Your picture" /> }.into_any(),
                    None => view! { <Avatar address=me.clone() /> }.into_any(),
                }}
                <label class="picture-choice">
                    <span>"Picture (optional)"</span>
                    <input type="file" accept="image/png,image/jpeg,image/webp,image/gif" on:change=choose />
                </label>
                <Show when=move || picture.with(Option::is_some)>
                    <button type="button" class="secondary" on:click=move |_| picture.set(None)>"Remove picture"</button>
                </Show>
            </div>
            {move || problem.get().map(|p| view! { <p class="problem" role="alert">{p}</p> })}
            <div class="actions">
                <button type="submit" class="primary">"Save"</button>
                <button type="button" class="secondary" on:click=move |_| done.run(())>{cancel_label}</button>
            </div>
        </form>
    }
}

/// The sidebar's "you": face, name, address, and Edit profile.
#[component]
pub fn MyProfile() -> impl IntoView {
    let session = Session::get();
    let me = session.me_text();
    let editing = RwSignal::new(false);
    let for_name = me.clone();
    view! {
        <section class="whoami" aria-label="You">
            <div class="my-card">
                <Avatar address=me.clone() />
                <p>
                    <strong class="my-name">{move || Members::name_of(&for_name)}</strong>
                    <span class="address">{me.clone()}</span>
                </p>
                <button type="button" class="edit-profile secondary" aria-expanded=move || editing.get().to_string()
                    on:click=move |_| editing.update(|e| *e = !*e)>"Edit profile"</button>
            </div>
            <Show when=move || editing.get()>
                <ProfileForm done=Callback::new(move |()| editing.set(false)) cancel_label="Cancel" />
            </Show>
        </section>
    }
}

/// The first visit's question, a banner at the top of the conversation
/// (never in the way: the conversation and its composer stay usable below
/// it): shown while the person has no display name and has not said "Not
/// now" in this network.
#[component]
pub fn NamePrompt() -> impl IntoView {
    let session = Session::get();
    let key = format!("named:{}", session.network_name());
    let waiting =
        storage::recall(&pending_name_key(&session.network_name())).is_some_and(|n| !n.is_empty());
    let dismissed = RwSignal::new(waiting || storage::recall(&key).is_some());
    let unnamed = move || matches!(mine(session), Some((None, _)));
    // The name typed on the invitation page is set as soon as the roster shows the person.
    let pending = pending_name_key(&session.network_name());
    Effect::new(move |_| {
        if unnamed()
            && let Some(name) = storage::recall(&pending).filter(|n| !n.is_empty())
            && save(session, &name, None).is_ok()
        {
            storage::keep(&pending, "");
        }
    });
    let done = Callback::new(move |()| {
        storage::keep(&key, "1");
        dismissed.set(true);
    });
    view! {
        <Show when=move || unnamed() && !dismissed.get()>
            <section class="name-prompt" aria-labelledby="name-prompt-title">
                <h2 id="name-prompt-title">"What should people here call you?"</h2>
                <p class="hint">"Your name and picture show beside your messages; you can change them any time."</p>
                <ProfileForm done cancel_label="Not now" />
            </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_checked_as_the_network_checks_it() {
        assert_eq!(
            profile_payload(" Ada ", None),
            Ok(json!({"name": "Ada", "picture": null}))
        );
        assert_eq!(
            profile_payload("", Some("data:image/jpeg;base64,AAAA")),
            Ok(json!({"name": null, "picture": "data:image/jpeg;base64,AAAA"}))
        );
        let long = profile_payload(&"x".repeat(65), None).unwrap_err();
        assert!(long.starts_with("Profile.name has at most 64"), "{long}");
        assert!(profile_payload("a\u{202e}b", None).is_err());
    }
}
