//! The roster panel: who is in the network, with role, verification level
//! and presence, kept current from `network.agent.discover` answers and
//! `workspace.presence.changed` events.

use leptos::prelude::*;
use serde_json::Value;

/// One member as the panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    /// Address.
    pub address: String,
    /// Role (`member`, `master`, `observer`, …).
    pub role: String,
    /// `online` or `offline`.
    pub status: String,
    /// Verification level 0–3.
    pub verification: u64,
}

/// The members in a discover answer's payload (`{agents: [...]}`), sorted by address.
pub fn people_from(payload: &Value) -> Vec<Person> {
    let text = |agent: &Value, key: &str| {
        agent
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let mut people: Vec<Person> = payload
        .get("agents")
        .and_then(Value::as_array)
        .map(|agents| {
            agents
                .iter()
                .map(|agent| Person {
                    address: text(agent, "address"),
                    role: text(agent, "role"),
                    status: text(agent, "status"),
                    verification: agent
                        .get("verification")
                        .and_then(Value::as_u64)
                        .unwrap_or(0),
                })
                .filter(|p| !p.address.is_empty())
                .collect()
        })
        .unwrap_or_default();
    people.sort_by(|a, b| a.address.cmp(&b.address));
    people
}

/// True when a `workspace.presence.changed` from `source` may be believed:
/// the network says it (`core`, a mod), or a member says it of itself.
pub fn trusts_presence(source: &str, payload: &Value) -> bool {
    source == "core"
        || source.starts_with("mod/")
        || payload.get("address").and_then(Value::as_str) == Some(source)
}

/// Applies a `workspace.presence.changed` payload (`{address, status}`).
pub fn apply_presence(people: &mut Vec<Person>, payload: &Value) {
    let (Some(address), Some(status)) = (
        payload.get("address").and_then(Value::as_str),
        payload.get("status").and_then(Value::as_str),
    ) else {
        return;
    };
    match people.iter_mut().find(|p| p.address == address) {
        Some(person) => person.status = status.to_owned(),
        None => {
            people.push(Person {
                address: address.to_owned(),
                role: "member".into(),
                status: status.to_owned(),
                verification: 0,
            });
            people.sort_by(|a, b| a.address.cmp(&b.address));
        }
    }
}

/// The panel.
#[component]
pub fn Roster(
    /// The members to show.
    people: ReadSignal<Vec<Person>>,
    /// Opens a direct conversation with a member.
    open: Callback<String>,
) -> impl IntoView {
    view! {
        <aside class="roster" aria-label="People">
            <h2>"People"</h2>
            <ul>
                <For each=move || people.get() key=|p| (p.address.clone(), p.status.clone(), p.role.clone()) let:person>
                    <li class="person" data-address=person.address.clone() data-status=person.status.clone()>
                        <span class="presence" aria-hidden="true"></span>
                        <button type="button" class="address" title="Open a direct conversation"
                            on:click={
                                let address = person.address.clone();
                                move |_| open.run(address.clone())
                            }>{person.address.clone()}</button>
                        <span class="details">
                            {format!("{} · level {} · {}", person.role, person.verification, person.status)}
                        </span>
                    </li>
                </For>
            </ul>
        </aside>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn discover_answers_and_presence_changes_update_the_people() {
        let mut people = people_from(&json!({"agents": [
            {"address": "human:zoe", "role": "member", "status": "online", "verification": 0},
            {"address": "agent:echo", "role": "master", "status": "online", "verification": 1},
            {"role": "member"}
        ]}));
        assert_eq!(people.len(), 2);
        assert_eq!(people[0].address, "agent:echo");
        assert_eq!(people[0].verification, 1);
        apply_presence(
            &mut people,
            &json!({"address": "agent:echo", "status": "offline"}),
        );
        assert_eq!(people[0].status, "offline");
        apply_presence(
            &mut people,
            &json!({"address": "agent:new", "status": "online"}),
        );
        assert_eq!(
            people
                .iter()
                .map(|p| p.address.as_str())
                .collect::<Vec<_>>(),
            ["agent:echo", "agent:new", "human:zoe"]
        );
        apply_presence(&mut people, &json!({"nonsense": true}));
        assert_eq!(people.len(), 3);
    }

    #[test]
    fn presence_is_believed_from_the_network_or_the_member_itself() {
        let about_echo = json!({"address": "agent:echo", "status": "offline"});
        assert!(trusts_presence("mod/workspace", &about_echo));
        assert!(trusts_presence("core", &about_echo));
        assert!(trusts_presence("agent:echo", &about_echo));
        assert!(!trusts_presence("agent:eve", &about_echo));
    }
}
