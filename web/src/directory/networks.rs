//! The Directory's public networks (`GET /v1/networks`): each with its name,
//! its description (nothing when it has none), how many members it has and
//! how many are online (read from its profile), joined by a click (its
//! workspace, `/n/{id}`).

use crate::routes::network_path;
use leptos::prelude::*;
use serde_json::Value;

/// Most networks the Directory lists.
pub const SHOWN: u32 = 50;

/// One public network as the Directory lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// Its name (its id when it has none).
    pub name: String,
    /// What it says about itself (may be empty).
    pub description: String,
}

/// The networks of a `GET /v1/networks` answer (`{networks: [...]}`); rows without an id are left out.
pub fn listed_from(body: &Value) -> Vec<Listed> {
    body.get("networks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|n| {
            let id = n
                .get("id")
                .and_then(Value::as_str)
                .filter(|i| !i.is_empty())?;
            let text = |k: &str| {
                n.get(k)
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .unwrap_or("")
            };
            let name = match text("name") {
                "" => id,
                name => name,
            };
            Some(Listed {
                id: id.to_owned(),
                name: name.to_owned(),
                description: text("description").to_owned(),
            })
        })
        .collect()
}

/// The public networks section, from the listing's answer (or why there is none).
#[component]
pub fn PublicNetworks(
    /// The listing, once read (or why it could not be).
    listing: ReadSignal<Option<Result<Vec<Listed>, String>>>,
) -> impl IntoView {
    view! {
        <section class="directory-section" aria-labelledby="directory-networks">
            <h3 id="directory-networks">"Public networks"</h3>
            {move || match listing.get() {
                None => view! { <p class="directory-hint">"Reading the public networks…"</p> }.into_any(),
                Some(Err(reason)) => view! { <p class="problem" role="alert">{reason}</p> }.into_any(),
                Some(Ok(networks)) if networks.is_empty() => view! {
                    <p class="directory-hint">"No public networks yet. A network's masters can list theirs (Admin → Settings → Listed publicly)."</p>
                }.into_any(),
                Some(Ok(networks)) => view! {
                    <ul class="directory-networks" aria-label="Public networks">
                        {networks.into_iter().map(|n| {
                            let initial = n.name.chars().next().unwrap_or('#').to_uppercase().to_string();
                            view! {
                                <li class="directory-card network-card" data-network=n.id.clone()>
                                    <span class="network-mark" aria-hidden="true">{initial}</span>
                                    <div class="card-body">
                                        <h4>{n.name.clone()}</h4>
                                        {(!n.description.is_empty()).then(|| view! { <p class="card-text">{n.description.clone()}</p> })}
                                        <Counts id=n.id.clone() />
                                    </div>
                                    <a class="directory-button primary" href=network_path(&n.id)
                                        aria-label=format!("Join {}", crate::bidi::isolate(&n.name))>"Join"</a>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any(),
            }}
        </section>
    }
}

/// "N members · M online" from a profile (`members`, `agents_online`).
pub fn counts_of(profile: &Value) -> Option<String> {
    let members = profile.get("members").and_then(Value::as_u64)?;
    let online = profile
        .get("agents_online")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let people = match members {
        1 => "1 member".to_owned(),
        n => format!("{n} members"),
    };
    Some(format!("{people} · {online} online"))
}

/// A listed network's member counts, once its profile is read.
#[component]
fn Counts(id: String) -> impl IntoView {
    let counts = RwSignal::new(None::<String>);
    wasm_bindgen_futures::spawn_local(async move {
        if let Some(profile) = crate::networks::create::profile(&id).await {
            let _ = counts.try_set(counts_of(&profile));
        }
    });
    move || {
        counts
            .get()
            .map(|c| view! { <p class="card-counts">{c}</p> })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_network_without_a_name_is_listed_by_its_id_and_rows_without_an_id_are_left_out() {
        let body = json!({"networks": [
            {"id": "n1", "name": "UX Team", "description": " We test the workspace "},
            {"id": "n2", "name": null},
            {"name": "no id"}
        ]});
        assert_eq!(
            listed_from(&body),
            vec![
                Listed {
                    id: "n1".into(),
                    name: "UX Team".into(),
                    description: "We test the workspace".into()
                },
                Listed {
                    id: "n2".into(),
                    name: "n2".into(),
                    description: String::new()
                },
            ]
        );
        assert!(listed_from(&json!({})).is_empty());
    }

    #[test]
    fn counts_read_members_and_who_is_online() {
        assert_eq!(
            counts_of(&json!({"members": 5, "agents_online": 2})).as_deref(),
            Some("5 members · 2 online")
        );
        assert_eq!(
            counts_of(&json!({"members": 1})).as_deref(),
            Some("1 member · 0 online")
        );
        assert_eq!(counts_of(&json!({"agents_online": 2})), None);
    }
}
