//! The Directory view (`/directory`): the public networks
//! ([`networks`], joined by a click) and a search for agents by what they
//! offer — skills, tags, and the tools a listed member offers — across
//! networks (the registry's `GET /registry/v1/discover`); an agent's ANP
//! description and A2A card open, and a direct conversation with it starts
//! in its network.
//!
//! [`found::Found`] reads one search result and where it can be reached;
//! the components here only fetch and show.

pub mod found;
pub mod networks;

pub use found::{Found, reach_of};

use crate::routes::{Place, network_path};
use leptos::prelude::*;
use networks::{Listed, PublicNetworks, listed_from};
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    #[wasm_bindgen(js_name = getJson, catch)]
    async fn get_json(url: &str) -> Result<JsValue, JsValue>;
}

/// The Directory's path.
pub const PATH: &str = "/directory";

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
    let interfaces = crate::profile::endpoints(doc, "interfaces", ("protocol", "url"), " · ");
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
            <a class="directory-button primary" href=talk>"Start a conversation"</a>
            <a class="directory-button" href=network_path(&network)>"Join its network"</a>
        }
    });
    view! {
        <section class="directory-card agent-description" aria-label="Agent description">
            <h3>{found.name.clone()}</h3>
            {move || match facts.get() {
                None => view! { <p class="directory-hint">"Reading the description…"</p> }.into_any(),
                Some(Err(reason)) => view! { <p class="problem" role="alert">{reason}</p> }.into_any(),
                Some(Ok(facts)) => view! {
                    <dl>{facts.into_iter().map(|(l, t)| view! { <dt>{l}</dt><dd>{t}</dd> }).collect_view()}</dl>
                }.into_any(),
            }}
            <p class="actions">
                {found.card_url.clone().map(|card| view! { <a class="directory-button" href=card target="_blank">"Agent card"</a> })}
                {reach}
            </p>
        </section>
    }
}

/// Chips: one per name, `class` saying what they are.
fn chips(names: &[String], class: &'static str, label: &'static str) -> impl IntoView + use<> {
    (!names.is_empty()).then(|| {
        view! {
            <ul class=format!("chips {class}") aria-label=label>
                {names.iter().map(|n| view! { <li class="chip">{n.clone()}</li> }).collect_view()}
            </ul>
        }
    })
}

/// The name of network `id` among the public networks listed (its id when not listed).
fn network_name(listing: Option<&Result<Vec<Listed>, String>>, id: &str) -> String {
    listing
        .and_then(|l| l.as_ref().ok())
        .and_then(|l| l.iter().find(|n| n.id == id))
        .map_or_else(|| id.to_owned(), |n| n.name.clone())
}

/// The agents a search found, each opening its description.
#[component]
fn Results(
    /// The agents found.
    found: Vec<Found>,
    /// Opens one.
    set_open: WriteSignal<Option<Found>>,
    /// The public networks listed, to name the network an agent is in.
    listing: ReadSignal<Option<Result<Vec<Listed>, String>>>,
) -> impl IntoView {
    view! {
        <ul class="found" aria-label="Agents found">
            {found.into_iter().map(|f| {
                let chosen = f.clone();
                let initial = f.name.chars().next().unwrap_or('?').to_uppercase().to_string();
                let place = f.network.clone().map(|n| {
                    let name = listing.with(|l| network_name(l.as_ref(), &n));
                    view! { <span title=format!("network {n}")>{format!(" · member of {}", crate::bidi::isolate(&name))}</span> }
                });
                view! {
                    <li class="directory-card agent-card">
                        <span class="agent-mark" aria-hidden="true">{initial}</span>
                        <div class="card-body">
                            <h4><button type="button" class="agent-open" on:click=move |_| set_open.set(Some(chosen.clone()))>{f.name.clone()}</button></h4>
                            <p class="card-text">{f.description.clone()}</p>
                            {chips(&f.tools, "tools", "Tools")}
                            {chips(&f.skills, "skills", "Skills")}
                            <p class="directory-hint level">
                                {crate::people::order::verification_words(f.verification)}
                                {place}
                            </p>
                        </div>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// The Directory page.
#[component]
pub fn Directory() -> impl IntoView {
    let (query, set_query) = signal(String::new());
    let (results, set_results) = signal(None::<Result<Vec<Found>, String>>);
    let (open, set_open) = signal(None::<Found>);
    let (listing, set_listing) = signal(None::<Result<Vec<Listed>, String>>);
    wasm_bindgen_futures::spawn_local(async move {
        let url = format!("/v1/networks?limit={}", networks::SHOWN);
        let answer = fetch_json(&url).await.map(|body| listed_from(&body));
        let _ = set_listing.try_set(Some(answer));
    });
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
            <header class="directory-head">
                <h2>"Directory"</h2>
                <p class="directory-lede">"Public networks to join, and agents to work with, found by the tools and skills they offer."</p>
                <form class="directory-search" role="search" on:submit=move |ev| { ev.prevent_default(); search(); }>
                    <label for="directory-q">"Search agents by capability"</label>
                    <div class="search-row">
                        <input id="directory-q" name="q" type="search" placeholder="e.g. calculator, translation"
                            prop:value=move || query.get()
                            on:input=move |ev| set_query.set(event_target_value(&ev)) />
                        <button type="submit" class="directory-button primary">"Search"</button>
                    </div>
                </form>
            </header>
            {move || results.get().map(|answer| view! {
                <section class="directory-section" aria-labelledby="directory-agents">
                    <h3 id="directory-agents">"Agents"</h3>
                    {match answer {
                        Err(reason) => view! { <p class="problem" role="alert">{reason}</p> }.into_any(),
                        Ok(found) if found.is_empty() => view! {
                            <p class="directory-hint" role="status">"No agent matches. Agents show here when they register with the directory, or are members of a public network who chose to be listed."</p>
                        }.into_any(),
                        Ok(found) => view! { <Results found set_open listing /> }.into_any(),
                    }}
                </section>
            })}
            {move || open.get().map(|found| view! { <Opened found /> })}
            <PublicNetworks listing />
        </main>
    }
}
