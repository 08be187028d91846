//! The "About" view: the network's public profile (ONM §9) — name,
//! description, access policy and verification minimum, delivery, mods,
//! capabilities, transports and who is online.

use crate::error::WebError;
use crate::people::order::verification_words;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    #[wasm_bindgen(js_name = getJson, catch)]
    async fn get_json(url: &str) -> Result<JsValue, JsValue>;
}

/// The facts the view lists, as `(label, text)` pairs, from a profile.
pub fn facts(profile: &Value) -> Vec<(&'static str, String)> {
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_owned))
            .collect::<Vec<_>>()
            .join(", "),
        None | Some(Value::Null | Value::String(_)) => "—".to_owned(),
        Some(other) => other.to_string(),
    };
    let transports = profile
        .get("transports")
        .and_then(Value::as_array)
        .map(|t| {
            t.iter()
                .filter_map(|t| {
                    Some(format!(
                        "{}: {}",
                        t.get("type")?.as_str()?,
                        t.get("endpoint")?.as_str()?
                    ))
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    let access = profile
        .pointer("/access/policy")
        .and_then(Value::as_str)
        .map_or_else(|| "—".to_owned(), |p| access_words(p).to_owned());
    let minimum = profile
        .pointer("/access/min_verification")
        .and_then(Value::as_u64)
        .map_or_else(
            || "—".to_owned(),
            |level| format!("{} (level {level})", verification_words(level)),
        );
    vec![
        ("Name", text(profile.get("name"))),
        ("Id", text(profile.get("id"))),
        ("Description", text(profile.get("description"))),
        ("Who may join", access),
        ("Minimum verification", minimum),
        ("Delivery", text(profile.get("delivery"))),
        ("Status", text(profile.get("status"))),
        ("Mods", text(profile.get("mods"))),
        ("Capabilities", text(profile.get("capabilities"))),
        ("Online now", text(profile.get("agents_online"))),
        ("Transports", transports),
    ]
}

/// Who a join policy admits, in words.
pub fn access_words(policy: &str) -> &str {
    match policy {
        "open" => "Anyone with the link (open)",
        "token" => "Whoever holds the access token (token)",
        "invite" => "Only people a member invites (invite)",
        "did-verify" => "Only members with a verified DID (did-verify)",
        other => other,
    }
}

/// The view; reads the profile when shown.
#[component]
pub fn About(
    /// The network's id.
    network: String,
) -> impl IntoView {
    let networks = crate::networks::Networks::get();
    let title = {
        let network = network.clone();
        move || {
            format!(
                "About {}",
                crate::bidi::isolate(&networks.label_of(&network))
            )
        }
    };
    let (profile, set_profile) = signal(None::<Result<Vec<(&'static str, String)>, WebError>>);
    let url = format!("/networks/{network}/v1/profile");
    wasm_bindgen_futures::spawn_local(async move {
        let answer = match get_json(&url).await {
            Ok(text) => text
                .as_string()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .map(|p| facts(&p))
                .ok_or(WebError::UnreadableProfile),
            Err(_) => Err(WebError::Unreachable),
        };
        let _ = set_profile.try_set(Some(answer));
    });
    view! {
        <section class="about" aria-label="About this network" tabindex="0">
            <h2 class="pane-title">{title}</h2>
            {move || match profile.get() {
                None => view! { <p>"Reading the network's profile…"</p> }.into_any(),
                Some(Err(reason)) => view! { <p class="problem" role="alert">{format!("Sorry: {reason}.")}</p> }.into_any(),
                Some(Ok(facts)) => view! {
                    <dl>
                        {facts.into_iter().map(|(label, text)| view! { <dt>{label}</dt><dd>{text}</dd> }).collect_view()}
                    </dl>
                }
                .into_any(),
            }}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_profile_becomes_labelled_facts() {
        let facts = facts(&json!({
            "id": "demo", "name": "Demo", "description": "", "access": {"policy": "open", "min_verification": 0},
            "delivery": "at-least-once", "mods": ["mod/workspace", "mod/persistence"], "agents_online": 2,
            "transports": [{"type": "websocket", "endpoint": "ws://x/networks/demo/v1/ws"}]
        }));
        let get = |label: &str| {
            facts
                .iter()
                .find(|(l, _)| *l == label)
                .map(|(_, t)| t.clone())
                .unwrap()
        };
        assert_eq!(get("Who may join"), "Anyone with the link (open)");
        assert_eq!(get("Minimum verification"), "unverified (level 0)");
        assert_eq!(get("Mods"), "mod/workspace, mod/persistence");
        assert_eq!(get("Transports"), "websocket: ws://x/networks/demo/v1/ws");
        assert_eq!(
            access_words("invite"),
            "Only people a member invites (invite)"
        );
        assert_eq!(access_words("future-policy"), "future-policy");
        assert_eq!(get("Capabilities"), "—");
        assert_eq!(get("Description"), "—");
    }
}
