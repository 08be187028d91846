//! The networks this browser has joined: kept in localStorage with the name
//! each network gave itself, switched between in a bar ([`bar`]: links to
//! each network's workspace, named), joined by an invitation link, id or
//! URL (with a token when the network needs one) or created here
//! ([`add`], [`create`]: asking who may join; the creator joins with the
//! administrator token, and its workspace opens on the step that offers an
//! invitation link: [`created_key`] marks it).
//! A link to a network not joined yet joins it (without a token).

pub mod add;
pub mod bar;
pub mod create;
pub mod joined;

use crate::error::WebError;
use crate::routes::{Navigator, network_path};
use crate::storage;
use agentnet_core::bindings::route::paths;
use create::Access;
pub use joined::{DEFAULT_NETWORK, Joined, load, save};
use leptos::prelude::*;
use serde_json::Value;

/// A network id from what a person pastes: an id, or a URL containing `/networks/{id}`.
pub fn network_id_from(input: &str) -> Option<String> {
    let input = input.trim();
    let id = paths::network_in_url(input).unwrap_or_else(|| input.to_owned());
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

/// The localStorage key that marks network `id` as just created here: its
/// workspace opens on the step that invites people (cleared when done).
pub fn created_key(id: &str) -> String {
    format!("welcome:{id}")
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
    /// Counts joins and creations that succeeded: the form closes and clears on each.
    done: RwSignal<u64>,
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
            done: RwSignal::new(0),
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
                list.push(Joined::by_id(id.clone()));
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

    /// What to call network `id`: the name it gave itself, else its id.
    pub fn label_of(&self, id: &str) -> String {
        self.joined.with(|list| {
            list.iter()
                .find(|n| n.id == id)
                .map_or_else(|| id.to_owned(), |n| n.label().to_owned())
        })
    }

    /// Network `id` says its name is `name` (its profile): kept, so the bar
    /// and the header name it, offline too.
    pub fn learn_name(&self, id: &str, name: &str) {
        let name = name.trim();
        if name.is_empty() {
            return;
        }
        let known = self.joined.with_untracked(|list| {
            list.iter()
                .any(|n| n.id == id && n.name.as_deref() == Some(name))
        });
        if known {
            return;
        }
        self.joined.update(|list| {
            if let Some(network) = list.iter_mut().find(|n| n.id == id) {
                network.name = Some(name.to_owned());
                save(list);
            }
        });
    }

    /// Reads the name network `id` gives itself and keeps it (nothing when unreachable).
    pub fn read_name(&self, id: String) {
        let this = *self;
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(name) = create::profile_name(&id).await {
                this.learn_name(&id, &name);
            }
        });
    }

    /// How many joins or creations succeeded here (the form closes on each).
    pub fn done(&self) -> ReadSignal<u64> {
        self.done.read_only()
    }

    /// The joined networks (for the bar).
    pub fn joined(&self) -> RwSignal<Vec<Joined>> {
        self.joined
    }

    /// The open network's id.
    pub fn active(&self) -> RwSignal<String> {
        self.active
    }

    /// What went wrong with the last join or create, in words.
    pub fn problem(&self) -> RwSignal<Option<String>> {
        self.problem
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
        self.done.update(|n| *n += 1);
        if self.active.get_untracked() == id {
            // Joined the open network again: reopen it with the new credentials.
            self.joins.update(|n| *n += 1);
        }
        self.switch(id);
    }

    /// Accepts the invitation `code` to `network` (called `name`): joins it
    /// with the code and opens it. A browser that kept no networks yet (its
    /// list is only the default one, never opened) joins that one alone:
    /// an invitation does not make its holder a guest of the public demo too.
    pub fn accept_invitation(&self, network: String, name: String, code: String) {
        if storage::recall("networks").is_none() {
            self.joined.update(|list| list.retain(|n| n.id == network));
        }
        self.remember(Joined {
            invite: Some(code),
            name: Some(name),
            ..Joined::by_id(network)
        });
    }

    /// How many joins were made here (read to reopen a network joined again).
    pub fn joins(&self) -> u64 {
        self.joins.get()
    }

    /// Joins `target` (an id or URL) with `token`, or, when `creating` is
    /// `Some(access)`, creates a network named so that admits whom `access`
    /// says; `person` is the name to use there.
    pub fn add(
        &self,
        target: String,
        token: Option<String>,
        person: Option<String>,
        creating: Option<Access>,
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
        if let Some(access) = creating {
            if target.is_empty() {
                self.problem
                    .set(Some("Give the new network a name.".into()));
                return;
            }
            if let Err(error) = access.check() {
                self.problem.set(Some(format!("{error}.")));
                return;
            }
            wasm_bindgen_futures::spawn_local(async move {
                match create::create(&target, &access).await {
                    Ok(network) => {
                        // Its workspace opens on the step that invites people.
                        storage::keep(&created_key(&network.id), "1");
                        remember(network)
                    }
                    Err(error) => this
                        .problem
                        .set(Some(format!("Could not create it: {error}."))),
                }
            });
        } else {
            match network_id_from(&target) {
                Some(id) => remember(Joined {
                    token,
                    ..Joined::by_id(id)
                }),
                None => self.problem.set(Some(format!(
                    "“{target}” is not a network id or a network URL."
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_ids_or_urls_and_bad_input_is_none() {
        for (input, id) in [
            ("demo", Some("demo")),
            (
                " http://127.0.0.1:8787/networks/ab12cd34/v1/profile ",
                Some("ab12cd34"),
            ),
            ("https://edge.example/networks/lab", Some("lab")),
            ("not an id!", None),
            ("", None),
        ] {
            assert_eq!(network_id_from(input).as_deref(), id, "{input}");
        }
        assert_eq!(person_address("ada"), Ok("human:ada".into()));
        assert_eq!(person_address("human:ada"), Ok("human:ada".into()));
        let refused = person_address("a b").unwrap_err();
        assert_eq!(refused, WebError::InvalidName("a b".into()));
        assert!(refused.to_string().contains("cannot be a name"));
    }
}
