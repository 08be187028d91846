//! The Directory view (`/directory`, issue 25): search agents by capability
//! across networks (the registry's `GET /registry/v1/discover`), open an
//! agent's ANP description and its A2A card, and start a direct
//! conversation with it or join its network.
//!
//! [`Found`] reads one search result and works out where it can be reached
//! (a pure function of its endpoints, tested below); the components only
//! fetch and show.

use crate::routes::{Place, network_path};
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    #[wasm_bindgen(js_name = getJson, catch)]
    async fn get_json(url: &str) -> Result<JsValue, JsValue>;
}

/// The Directory's path.
pub const PATH: &str = "/directory";

/// One agent a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Its id (an AIC or a description URL).
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it says about itself.
    pub description: String,
    /// Its skills' names.
    pub skills: Vec<String>,
    /// Its rank score.
    pub score: u64,
    /// Its verification level.
    pub verification: u64,
    /// Its agent description's URL.
    pub description_url: String,
    /// The network it is in and its address there, when an endpoint says so.
    pub reachable: Option<(String, String)>,
    /// Its A2A card, for an agent of a network's A2A binding.
    pub card_url: Option<String>,
}

/// The network id and member address of an endpoint `…/networks/{id}/a2a/{address}`,
/// or the network alone (with `fallback` as the address) of any `…/networks/{id}/…`.
pub fn reach_of(url: &str, fallback: Option<&str>) -> Option<(String, String)> {
    let rest = url.split("/networks/").nth(1)?;
    let mut parts = rest.split(['/', '?', '#']);
    let network = parts.next().filter(|n| !n.is_empty())?.to_owned();
    let address = match (parts.next(), parts.next()) {
        (Some("a2a"), Some(address)) if address.contains(':') && !address.starts_with('.') => {
            address.to_owned()
        }
        _ => fallback?.to_owned(),
    };
    Some((network, address))
}

impl Found {
    /// One result of `GET /registry/v1/discover`.
    pub fn from_json(agent: &Value) -> Self {
        let text = |k: &str| {
            agent
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let address = agent.get("address").and_then(Value::as_str);
        let urls: Vec<String> = agent
            .get("endpoints")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| e.get("url").and_then(Value::as_str).map(str::to_owned))
            .collect();
        let reachable = urls.iter().find_map(|u| reach_of(u, address));
        let card_url = reachable.as_ref().and_then(|(network, address)| {
            let a2a = format!("/networks/{network}/a2a/{address}");
            urls.iter()
                .any(|u| u.contains(&a2a))
                .then(|| format!("{a2a}/.well-known/agent-card.json"))
        });
        Self {
            id: text("id"),
            name: text("name"),
            description: text("description"),
            skills: agent
                .get("skills")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|s| s.get("name").and_then(Value::as_str).map(str::to_owned))
                .collect(),
            score: agent.get("score").and_then(Value::as_u64).unwrap_or(0),
            verification: agent
                .get("verification")
                .and_then(Value::as_u64)
                .unwrap_or(0),
            description_url: text("description_url"),
            reachable,
            card_url,
        }
    }
}

/// The search URL for the text `q`.
pub fn search_url(q: &str) -> String {
    let encoded = js_sys::encode_uri_component(q.trim());
    format!("/registry/v1/discover?limit=50&q={}", String::from(encoded))
}

async fn fetch_json(url: &str) -> Result<Value, String> {
    let text = get_json(url)
        .await
        .map_err(|_| "the directory cannot be reached right now".to_owned())?;
    text.as_string()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| "the directory gave an answer this page does not understand".to_owned())
}

/// The description of an opened agent, as `(label, text)` facts.
fn description_facts(doc: &Value) -> Vec<(&'static str, String)> {
    let text = |k: &str| doc.get(k).and_then(Value::as_str).unwrap_or("—").to_owned();
    let interfaces = doc
        .get("interfaces")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|i| {
            Some(format!(
                "{}: {}",
                i.get("protocol")?.as_str()?,
                i.get("url")?.as_str()?
            ))
        })
        .collect::<Vec<_>>()
        .join(" · ");
    vec![
        ("Name", text("name")),
        ("DID", text("did")),
        ("Description", text("description")),
        ("Interfaces", interfaces),
    ]
}

/// An opened agent: its description, card and the ways to reach it.
#[component]
fn Opened(found: Found) -> impl IntoView {
    let (facts, set_facts) = signal(None::<Result<Vec<(&'static str, String)>, String>>);
    let url = found.description_url.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let answer = fetch_json(&url).await.map(|d| description_facts(&d));
        let _ = set_facts.try_set(Some(answer));
    });
    let reach = found.reachable.clone().map(|(network, address)| {
        let talk = Place::Conversation(address).path(&network);
        view! {
            <a href=talk>"Start a conversation"</a>
            <a href=network_path(&network)>"Join its network"</a>
        }
    });
    view! {
        <section class="agent-description" aria-label="Agent description">
            <h3>{found.name.clone()}</h3>
            {move || match facts.get() {
                None => view! { <p>"Reading the description…"</p> }.into_any(),
                Some(Err(reason)) => view! { <p class="problem" role="alert">{reason}</p> }.into_any(),
                Some(Ok(facts)) => view! {
                    <dl>{facts.into_iter().map(|(l, t)| view! { <dt>{l}</dt><dd>{t}</dd> }).collect_view()}</dl>
                }.into_any(),
            }}
            <p class="actions">
                {found.card_url.clone().map(|card| view! { <a href=card target="_blank">"Agent card"</a> })}
                {reach}
            </p>
        </section>
    }
}

/// The Directory page.
#[component]
pub fn Directory() -> impl IntoView {
    let (query, set_query) = signal(String::new());
    let (results, set_results) = signal(None::<Result<Vec<Found>, String>>);
    let (open, set_open) = signal(None::<Found>);
    let search = move || {
        let url = search_url(&query.get_untracked());
        set_open.set(None);
        wasm_bindgen_futures::spawn_local(async move {
            let answer = fetch_json(&url).await.map(|body| {
                body.get("agents")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .map(Found::from_json)
                    .collect()
            });
            let _ = set_results.try_set(Some(answer));
        });
    };
    view! {
        <main class="directory" aria-label="Directory">
            <h2>"Directory"</h2>
            <form role="search" on:submit=move |ev| { ev.prevent_default(); search(); }>
                <label>"Search agents by capability"
                    <input name="q" type="search" placeholder="e.g. translation"
                        prop:value=move || query.get()
                        on:input=move |ev| set_query.set(event_target_value(&ev)) />
                </label>
                <button type="submit">"Search"</button>
            </form>
            {move || match results.get() {
                None => view! { <p>"Search by skill, tag, name or description."</p> }.into_any(),
                Some(Err(reason)) => view! { <p class="problem" role="alert">{reason}</p> }.into_any(),
                Some(Ok(found)) if found.is_empty() => view! { <p role="status">"No agent matches."</p> }.into_any(),
                Some(Ok(found)) => view! {
                    <ul class="found" aria-label="Agents found">
                        {found.into_iter().map(|f| {
                            let chosen = f.clone();
                            view! {
                                <li>
                                    <button type="button" on:click=move |_| set_open.set(Some(chosen.clone()))>{f.name.clone()}</button>
                                    <span class="skills">{f.skills.join(", ")}</span>
                                    <span class="level">{format!("level {} · score {}", f.verification, f.score)}</span>
                                    <p>{f.description.clone()}</p>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any(),
            }}
            {move || open.get().map(|found| view! { <Opened found /> })}
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_agent_in_a_networks_a2a_binding_can_be_talked_to_and_its_card_opened() {
        let found = Found::from_json(
            &json!({"id": "AIC", "name": "helper", "score": 10, "verification": 2,
            "address": "openagents:helper", "skills": [{"name": "translation"}],
            "endpoints": [{"url": "http://h/networks/abc/a2a/agent:helper", "transport": "JSONRPC"}],
            "description_url": "http://h/registry/v1/agents/AIC/ad.json"}),
        );
        assert_eq!(found.reachable, Some(("abc".into(), "agent:helper".into())));
        assert_eq!(
            found.card_url.as_deref(),
            Some("/networks/abc/a2a/agent:helper/.well-known/agent-card.json")
        );
        assert_eq!(found.skills, ["translation"]);
    }

    #[test]
    fn other_endpoints_fall_back_to_the_registered_address_or_nothing() {
        assert_eq!(
            reach_of("http://h/networks/abc/mcp", Some("openagents:x")),
            Some(("abc".into(), "openagents:x".into()))
        );
        assert_eq!(
            reach_of(
                "http://h/networks/abc/a2a/.well-known/agent-card.json",
                None
            ),
            None
        );
        assert_eq!(
            reach_of("https://elsewhere/rpc", Some("openagents:x")),
            None
        );
        let found = Found::from_json(
            &json!({"name": "far", "endpoints": [{"url": "https://elsewhere/rpc"}]}),
        );
        assert_eq!((found.reachable, found.card_url), (None, None));
    }

    #[test]
    fn a_listed_member_is_reached_in_its_network_at_its_address() {
        let found = Found::from_json(&json!({"id": "member:n1/agent:dana", "kind": "member",
            "name": "Dana", "address": "agent:dana", "network": "n1",
            "endpoints": [
                {"protocol": "agentnet-ws", "url": "ws://h/networks/n1/v1/ws"},
                {"protocol": "A2A", "url": "http://h/networks/n1/a2a/.well-known/agent-card.json"}],
            "description_url": "http://h/registry/v1/networks/n1/members/agent:dana/ad.json"}));
        assert_eq!(found.reachable, Some(("n1".into(), "agent:dana".into())));
        assert_eq!(
            found.card_url, None,
            "the network's card is not the member's"
        );
    }
}
