//! The Admin pane's members: a list of the network's members (online
//! first, then by name) with their role and presence, each with the buttons
//! for the actions the core offers on it (remove, ban — never against
//! oneself), and the banned addresses with Unban. Without a connection the
//! presence it read is not known to hold: the count says so and the dots grey out.

use super::state::{Admin, member_action_label, offered};
use crate::people::order::{display_name, natural_cmp, presence_words, verification_words};
use crate::session::{Session, Status};
use agentnet_core::sorting::sort_by;
use leptos::prelude::*;
use serde_json::{Value, json};

/// One member as the Admin list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Its address.
    pub address: String,
    /// `master`, `member` or `observer`.
    pub role: String,
    /// `online` or `offline`.
    pub status: String,
    /// Its verification level.
    pub verification: u64,
    /// The admin event types the core offers on it.
    pub actions: Vec<String>,
}

/// The rows of an offer's `members` (or `banned`), online first, then by name.
pub fn rows(members: &[Value]) -> Vec<Row> {
    let text = |m: &Value, k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let mut rows: Vec<Row> = members
        .iter()
        .filter(|m| m.get("address").and_then(Value::as_str).is_some())
        .map(|m| Row {
            address: text(m, "address"),
            role: text(m, "role"),
            status: text(m, "status"),
            verification: m.get("verification").and_then(Value::as_u64).unwrap_or(0),
            actions: offered(m),
        })
        .collect();
    sort_by(&mut rows, |a, b| {
        (a.status != "online")
            .cmp(&(b.status != "online"))
            .then_with(|| natural_cmp(display_name(&a.address), display_name(&b.address)))
            .then_with(|| a.address.cmp(&b.address))
    });
    rows
}

/// The buttons for a row's actions.
fn action_buttons(address: &str, actions: &[String]) -> impl IntoView + use<> {
    let admin = Admin::get();
    actions
        .iter()
        .filter_map(|kind| {
            let (kind, label, notice) = member_action_label(kind)?;
            let who = address.to_owned();
            let class = if label == "Ban" { "admin-button small danger" } else { "admin-button small" };
            Some(view! {
                <button type="button" class=class aria-label=format!("{label} {who}")
                    on:click=move |_| admin.change(kind, json!({"address": who.clone()}), notice)>{label}</button>
            })
        })
        .collect_view()
}

/// The members card.
#[component]
pub fn Members(
    /// The offer's `members`.
    members: Vec<Value>,
    /// The offer's `banned`.
    banned: Vec<Value>,
) -> impl IntoView {
    let me = Session::get().me_text();
    let members = rows(&members);
    let banned = rows(&banned);
    let online = members.iter().filter(|m| m.status == "online").count();
    let total = members.len();
    let joined = Session::get().status;
    let joined = move || joined.get() == Status::Online;
    let count = move || format!("{total} · {}", presence_words(joined(), online));
    view! {
        <section class="admin-card" aria-label="Members">
            <h3>"Members" <span class="count">{count}</span></h3>
            <ul class="admin-members" aria-label="Members of this network">
                {members.into_iter().map(|m| {
                    let mine = m.address == me;
                    let buttons = action_buttons(&m.address, &m.actions);
                    view! {
                        <li class="admin-member" data-address=m.address.clone() data-status=m.status.clone()>
                            <span class="presence" role="img" aria-label=m.status.clone()></span>
                            <span class="who">
                                <span class="name">{display_name(&m.address).to_owned()}</span>
                                {mine.then(|| view! { <span class="badge you">"you"</span> })}
                                <span class="address">{m.address.clone()}</span>
                            </span>
                            <span class="badge role" data-role=m.role.clone()>{m.role.clone()}</span>
                            <span class="admin-hint verification">{verification_words(m.verification)}</span>
                            <span class="admin-actions">{buttons}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
            {(!banned.is_empty()).then(|| view! {
                <h4>"Banned"</h4>
                <ul class="admin-members banned" aria-label="Banned">
                    {banned.into_iter().map(|b| {
                        let buttons = action_buttons(&b.address, &b.actions);
                        view! {
                            <li class="admin-member" data-address=b.address.clone()>
                                <span class="who"><span class="name">{b.address.clone()}</span></span>
                                <span class="admin-actions">{buttons}</span>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            })}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn online_members_come_first_then_by_name_in_natural_order() {
        let members = [
            json!({"address": "agent:idle10", "status": "online", "actions": []}),
            json!({"address": "agent:zed", "status": "offline"}),
            json!({"address": "agent:idle2", "status": "online", "role": "master",
                "actions": ["network.admin.member.remove"]}),
            json!({"status": "online"}),
        ];
        let rows = rows(&members);
        assert_eq!(
            rows.iter().map(|r| r.address.as_str()).collect::<Vec<_>>(),
            ["agent:idle2", "agent:idle10", "agent:zed"]
        );
        assert_eq!(rows[0].actions, ["network.admin.member.remove"]);
        assert_eq!(rows[0].role, "master");
    }
}
