//! The networks this browser has joined: kept in localStorage, switched
//! between in a bar (links to each network's workspace), joined by id or URL
//! (with a token when the network needs one) or created here (the creator
//! joins with the administrator token). A link to a network not joined yet
//! joins it (without a token).

use crate::error::WebError;
use crate::routes::{Navigator, network_path};
use crate::storage;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    #[wasm_bindgen(js_name = createNetwork, catch)]
    async fn create_network(body: String) -> Result<JsValue, JsValue>;
}

/// The network the workspace opens when none was joined yet.
pub const DEFAULT_NETWORK: &str = "demo";

/// One joined network and how to get in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Joined {
    /// The network's id.
    pub id: String,
    /// Its access token, for token networks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The administrator token, for networks created here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_token: Option<String>,
    /// The invitation code accepted, for networks joined by invitation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

impl Joined {
    /// The join credentials for this network, if any.
    pub fn credentials(&self) -> Option<Value> {
        let mut map = serde_json::Map::new();
        if let Some(token) = &self.token {
            map.insert("token".into(), json!(token));
        }
        if let Some(admin) = &self.admin_token {
            map.insert("admin_token".into(), json!(admin));
        }
        if let Some(code) = &self.invite {
            map.insert("invite".into(), json!(code));
        }
        (!map.is_empty()).then_some(Value::Object(map))
    }
}

/// The joined networks, `demo` first when nothing was kept.
pub fn load() -> Vec<Joined> {
    storage::recall_json::<Vec<Joined>>("networks")
        .filter(|list| !list.is_empty())
        .unwrap_or_else(|| {
            vec![Joined {
                id: DEFAULT_NETWORK.into(),
                token: None,
                admin_token: None,
                invite: None,
            }]
        })
}

/// Keeps the list.
pub fn save(list: &[Joined]) {
    if let Ok(text) = serde_json::to_string(list) {
        storage::keep("networks", &text);
    }
}

/// A network id from what a person pastes: an id, or a URL containing `/networks/{id}`.
pub fn network_id_from(input: &str) -> Option<String> {
    let input = input.trim();
    let id = match input.find("/networks/") {
        Some(at) => input[at + "/networks/".len()..]
            .split(['/', '?', '#'])
            .next()?,
        None => input,
    };
    id.parse::<agentnet_core::NetworkId>()
        .ok()
        .map(|id| id.to_string())
}

/// The address a person's chosen name gives (`ada` → `human:ada`), or why it cannot be one.
pub fn person_address(name: &str) -> Result<String, WebError> {
    let name = name.trim().trim_start_matches("human:");
    format!("human:{name}")
        .parse::<agentnet_core::Address>()
        .map(|a| a.to_string())
        .map_err(|_| WebError::InvalidName(name.to_owned()))
}

/// Creates a network on this edge; resolves with `{id, admin_token}` or why not.
pub async fn create(name: &str, token: Option<&str>) -> Result<Joined, WebError> {
    let mut body = json!({ "name": name, "mods": ["workspace", "persistence"] });
    if let Some(token) = token {
        body["access"] = json!({ "policy": "token", "token": token });
    }
    let answer = create_network(body.to_string()).await.map_err(|e| {
        WebError::Edge(
            js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "the edge could not create it".into()),
        )
    })?;
    let answer: Value = answer
        .as_string()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or(WebError::UnexpectedAnswer)?;
    let id = answer
        .get("id")
        .and_then(Value::as_str)
        .ok_or(WebError::NoNetworkId)?;
    Ok(Joined {
        id: id.to_owned(),
        token: token.map(str::to_owned),
        admin_token: answer
            .get("admin_token")
            .and_then(Value::as_str)
            .map(str::to_owned),
        invite: None,
    })
}

/// The joined networks and the open one: cheap to copy, from context with [`Networks::get`].
#[derive(Clone, Copy)]
pub struct Networks {
    /// Joined networks.
    joined: RwSignal<Vec<Joined>>,
    /// The open one's id.
    active: RwSignal<String>,
    /// What went wrong with the last join or create, in words.
    problem: RwSignal<Option<String>>,
    /// Counts joins made here: a join again (a new token or name) reopens the network.
    joins: RwSignal<u64>,
    navigator: Navigator,
}

impl Networks {
    /// The networks kept in this browser, the last one open, provided to the components below.
    pub fn provide() -> Self {
        let joined = load();
        let active = storage::recall("active")
            .filter(|id| joined.iter().any(|n| &n.id == id))
            .or_else(|| joined.first().map(|n| n.id.clone()))
            .unwrap_or_else(|| DEFAULT_NETWORK.to_owned());
        let networks = Self {
            joined: RwSignal::new(joined),
            active: RwSignal::new(active),
            problem: RwSignal::new(None),
            joins: RwSignal::new(0),
            navigator: Navigator::get(),
        };
        provide_context(networks);
        networks
    }

    /// The networks of the page.
    pub fn get() -> Self {
        expect_context()
    }

    /// The network open last (where `/` goes).
    pub fn last_open(&self) -> String {
        self.active.get_untracked()
    }

    /// The URL opened network `id`: it is the open one, and joined if it was not.
    pub fn opened(&self, id: String) {
        storage::keep("active", &id);
        self.joined.update(|list| {
            if !list.iter().any(|n| n.id == id) {
                list.push(Joined {
                    id: id.clone(),
                    token: None,
                    admin_token: None,
                    invite: None,
                });
                save(list);
            }
        });
        self.active.set(id);
    }

    /// The join credentials of network `id`, if any.
    pub fn credentials(&self, id: &str) -> Option<Value> {
        self.joined.with_untracked(|list| {
            list.iter()
                .find(|n| n.id == id)
                .and_then(Joined::credentials)
        })
    }

    /// Opens network `id` (its workspace's URL).
    pub fn switch(&self, id: String) {
        self.navigator.go(&network_path(&id));
    }

    /// Keeps `network` in the list and opens it.
    fn remember(&self, network: Joined) {
        let id = network.id.clone();
        self.joined.update(|list| {
            list.retain(|n| n.id != id);
            list.push(network);
            save(list);
        });
        self.problem.set(None);
        if self.active.get_untracked() == id {
            // Joined the open network again: reopen it with the new credentials.
            self.joins.update(|n| *n += 1);
        }
        self.switch(id);
    }

    /// Accepts the invitation `code` to `network`: joins it with the code and opens it.
    pub fn accept_invitation(&self, network: String, code: String) {
        self.remember(Joined {
            id: network,
            token: None,
            admin_token: None,
            invite: Some(code),
        });
    }

    /// How many joins were made here (read to reopen a network joined again).
    pub fn joins(&self) -> u64 {
        self.joins.get()
    }

    /// Joins `target` (an id or URL) or, `creating`, creates a network named
    /// so; `person` is the name to use there.
    pub fn add(
        &self,
        target: String,
        token: Option<String>,
        person: Option<String>,
        creating: bool,
    ) {
        // A chosen name becomes the person's address in that network.
        let person = match person.map(|p| person_address(&p)).transpose() {
            Ok(person) => person,
            Err(error) => {
                self.problem.set(Some(format!("{error}.")));
                return;
            }
        };
        let this = *self;
        let remember = move |network: Joined| {
            if let Some(address) = &person {
                storage::keep(&format!("name:{}", network.id), address);
            }
            this.remember(network);
        };
        if creating {
            if target.is_empty() {
                self.problem
                    .set(Some("Give the new network a name.".into()));
                return;
            }
            wasm_bindgen_futures::spawn_local(async move {
                match create(&target, token.as_deref()).await {
                    Ok(network) => remember(network),
                    Err(error) => this
                        .problem
                        .set(Some(format!("Could not create it: {error}."))),
                }
            });
        } else {
            match network_id_from(&target) {
                Some(id) => remember(Joined {
                    id,
                    token,
                    admin_token: None,
                    invite: None,
                }),
                None => self.problem.set(Some(format!(
                    "“{target}” is not a network id or a network URL."
                ))),
            }
        }
    }
}

/// The bar of joined networks with the join and create forms.
#[component]
pub fn NetworkBar() -> impl IntoView {
    let state = Networks::get();
    let (networks, active, problem) = (state.joined, state.active, state.problem);
    let (target, set_target) = signal(String::new());
    let (token, set_token) = signal(String::new());
    let (person, set_person) = signal(String::new());
    let submit = move |creating: bool| {
        let token = Some(token.get_untracked().trim().to_owned()).filter(|t| !t.is_empty());
        let person = Some(person.get_untracked().trim().to_owned()).filter(|p| !p.is_empty());
        state.add(
            target.get_untracked().trim().to_owned(),
            token,
            person,
            creating,
        );
    };
    view! {
        <nav class="networks" aria-label="Networks">
            <ul>
                <For each=move || networks.get() key=|n| n.id.clone() let:network>
                    <li>
                        <a href=network_path(&network.id)
                            aria-current={
                                let id = network.id.clone();
                                move || (active.get() == id).then_some("page")
                            }>{network.id.clone()}</a>
                    </li>
                </For>
            </ul>
            <a class="directory-link" href=crate::directory::PATH>"Directory"</a>
            <details class="add-network">
                <summary>"Join or create a network"</summary>
                <form on:submit=move |ev| { ev.prevent_default(); submit(false); }>
                    <label>"Network (id, URL or new name)"
                        <input name="network" autocomplete="off"
                            prop:value=move || target.get()
                            on:input=move |ev| set_target.set(event_target_value(&ev)) />
                    </label>
                    <label>"Token (if it needs one)"
                        <input name="token" type="password" autocomplete="off"
                            prop:value=move || token.get()
                            on:input=move |ev| set_token.set(event_target_value(&ev)) />
                    </label>
                    <label>"Your name"
                        <input name="person" autocomplete="nickname" placeholder="e.g. ada"
                            prop:value=move || person.get()
                            on:input=move |ev| set_person.set(event_target_value(&ev)) />
                    </label>
                    <button type="submit">"Join"</button>
                    <button type="button" on:click=move |_| submit(true)>"Create"</button>
                </form>
                <Show when=move || problem.get().is_some()>
                    <p class="problem" role="alert">{move || problem.get().unwrap_or_default()}</p>
                </Show>
            </details>
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_ids_or_urls_and_bad_input_is_none() {
        assert_eq!(network_id_from("demo"), Some("demo".into()));
        assert_eq!(
            network_id_from(" http://127.0.0.1:8787/networks/ab12cd34/v1/profile "),
            Some("ab12cd34".into())
        );
        assert_eq!(
            network_id_from("https://edge.example/networks/lab"),
            Some("lab".into())
        );
        assert_eq!(network_id_from("not an id!"), None);
        assert_eq!(person_address("ada"), Ok("human:ada".into()));
        assert_eq!(person_address("human:ada"), Ok("human:ada".into()));
        let refused = person_address("a b").unwrap_err();
        assert_eq!(refused, WebError::InvalidName("a b".into()));
        assert!(refused.to_string().contains("cannot be a name"));
        assert_eq!(network_id_from(""), None);
    }

    #[test]
    fn credentials_carry_the_tokens_there_are() {
        let joined = Joined {
            id: "x".into(),
            token: Some("t".into()),
            admin_token: None,
            invite: None,
        };
        assert_eq!(joined.credentials(), Some(json!({"token": "t"})));
        let open = Joined {
            id: "x".into(),
            token: None,
            admin_token: None,
            invite: None,
        };
        assert_eq!(open.credentials(), None);
    }
}
