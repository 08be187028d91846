//! The "About" view: the network's public profile (ONM §9) read as people
//! read it — its name, its description and a few sentences (how many are
//! here, who may join, whether the away get what they missed, whether
//! history is kept) — with the protocol's facts (id, delivery, mods,
//! capabilities, transports) behind a "Protocol details" toggle.

use crate::error::WebError;
use crate::people::order::verification_words;
use agentnet_core::bindings::route::paths;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    #[wasm_bindgen(js_name = getJson, catch)]
    async fn get_json(url: &str) -> Result<JsValue, JsValue>;
}

/// The entries of the list under `key` in `doc` as `kind: address`, read from
/// each entry's `kind` and `address` fields (an entry without both is left
/// out), joined by `separator`: a profile's transports, a description's interfaces.
pub fn endpoints(doc: &Value, key: &str, (kind, address): (&str, &str), separator: &str) -> String {
    doc.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let kind = entry.get(kind)?.as_str()?;
            Some(format!("{kind}: {}", entry.get(address)?.as_str()?))
        })
        .collect::<Vec<_>>()
        .join(separator)
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
    let transports = endpoints(profile, "transports", ("type", "endpoint"), "\n");
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

/// The profile in a few sentences, for people: the description (or that
/// there is none), how many are here, who may join, what the away get, and
/// whether history is kept or the network is read-only.
pub fn summary(profile: &Value) -> (String, Vec<String>) {
    let description = profile
        .get("description")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map_or_else(|| "No description yet.".to_owned(), str::to_owned);
    let count = |key: &str| profile.get(key).and_then(Value::as_u64);
    let mut lines = Vec::new();
    match (count("members"), count("agents_online")) {
        (Some(members), online) => lines.push(format!(
            "{} here, {} online now.",
            plural(members, "member"),
            online.unwrap_or(0)
        )),
        (None, Some(online)) => lines.push(format!("{online} online now.")),
        (None, None) => {}
    }
    let policy = profile.pointer("/access/policy").and_then(Value::as_str);
    lines.push(
        POLICIES
            .iter()
            .find(|(name, ..)| Some(*name) == policy)
            .map_or("Who may join is not said.", |(.., sentence)| sentence)
            .to_owned(),
    );
    if let Some(level) = profile
        .pointer("/access/min_verification")
        .and_then(Value::as_u64)
        .filter(|l| *l > 0)
    {
        lines.push(format!(
            "Members must be {} (level {level}) or better.",
            verification_words(level)
        ));
    }
    lines.push(
        match profile.get("delivery").and_then(Value::as_str) {
            Some("at-most-once") => "Messages reach whoever is online when they are sent.",
            _ => "A member who was away gets what it missed when it is back.",
        }
        .to_owned(),
    );
    let has_mod = |name: &str| {
        profile
            .get("mods")
            .and_then(Value::as_array)
            .is_some_and(|mods| mods.iter().any(|m| m.as_str() == Some(name)))
    };
    if has_mod("mod/persistence") {
        lines.push("History is kept: whoever joins later can read back and search.".to_owned());
    }
    match profile.get("status").and_then(Value::as_str) {
        Some("archived") => lines.push("Archived: it can be read, not written to.".to_owned()),
        Some("paused") => {
            lines.push("Paused for now: read-only until a master resumes it.".to_owned())
        }
        _ => {}
    }
    (description, lines)
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Each join policy: its name, the fact About lists, and the sentence it reads as.
const POLICIES: [(&str, &str, &str); 4] = [
    (
        "open",
        "Anyone with the link (open)",
        "Anyone with the link can join.",
    ),
    (
        "token",
        "Whoever holds the access token (token)",
        "Joining takes the network's access token.",
    ),
    (
        "invite",
        "Only people a member invites (invite)",
        "Only people a member invites can join.",
    ),
    (
        "did-verify",
        "Only members with a verified DID (did-verify)",
        "Only members who prove a DID can join.",
    ),
];

/// Who a join policy admits, in words.
pub fn access_words(policy: &str) -> &str {
    POLICIES
        .iter()
        .find(|(name, ..)| *name == policy)
        .map_or(policy, |(_, words, _)| words)
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
    let (profile, set_profile) = signal(None::<Result<Value, WebError>>);
    let url = paths::network_path(&network, "/v1/profile");
    wasm_bindgen_futures::spawn_local(async move {
        let answer = match get_json(&url).await {
            Ok(text) => text
                .as_string()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .filter(Value::is_object)
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
                Some(Ok(profile)) => {
                    let (description, lines) = summary(&profile);
                    view! {
                        <p class="about-description">{description}</p>
                        <ul class="about-summary">
                            {lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                        </ul>
                        <details class="protocol-details">
                            <summary>"Protocol details"</summary>
                            <dl>
                                {facts(&profile).into_iter().map(|(label, text)| view! { <dt>{label}</dt><dd>{text}</dd> }).collect_view()}
                            </dl>
                        </details>
                    }
                    .into_any()
                }
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
        for (label, text) in [
            ("Who may join", "Anyone with the link (open)"),
            ("Minimum verification", "unverified (level 0)"),
            ("Mods", "mod/workspace, mod/persistence"),
            ("Transports", "websocket: ws://x/networks/demo/v1/ws"),
            ("Capabilities", "—"),
            ("Description", "—"),
        ] {
            let fact = facts.iter().find(|(l, _)| *l == label);
            assert_eq!(fact.map(|(_, t)| t.as_str()), Some(text), "{label}");
        }
        assert_eq!(
            access_words("invite"),
            "Only people a member invites (invite)"
        );
        assert_eq!(access_words("future-policy"), "future-policy");
    }

    #[test]
    fn a_profile_reads_as_a_few_sentences() {
        let (description, lines) = summary(&json!({
            "id": "demo", "name": "Demo", "description": "  ", "access": {"policy": "invite", "min_verification": 2},
            "delivery": "at-least-once", "mods": ["mod/workspace", "mod/persistence"], "agents_online": 1,
            "members": 3, "status": "archived"
        }));
        assert_eq!(description, "No description yet.");
        assert_eq!(
            lines,
            [
                "3 members here, 1 online now.",
                "Only people a member invites can join.",
                &format!(
                    "Members must be {} (level 2) or better.",
                    verification_words(2)
                ),
                "A member who was away gets what it missed when it is back.",
                "History is kept: whoever joins later can read back and search.",
                "Archived: it can be read, not written to.",
            ]
        );
        let (description, lines) = summary(&json!({
            "description": "The team room", "access": {"policy": "open", "min_verification": 0},
            "delivery": "at-most-once", "members": 1, "agents_online": 0
        }));
        assert_eq!(description, "The team room");
        assert_eq!(
            lines,
            [
                "1 member here, 0 online now.",
                "Anyone with the link can join.",
                "Messages reach whoever is online when they are sent.",
            ]
        );
    }
}
