//! The Admin pane: a master pauses, resumes or archives the network, loads
//! and unloads mods, removes or bans members, issues and revokes
//! invitations, rotates tokens, changes settings, and reads the analytics
//! charts. Each button sends a `network.admin.*` (or
//! `workspace.invitation.created`) event; others see why they may not.

use super::charts::{BarChart, per_minute, top};
use super::state::Admin;
use crate::clock::now_ms;
use leptos::prelude::*;
use serde_json::{Value, json};

/// The standard mods a master may load.
const STANDARD_MODS: [&str; 7] = agentnet_core::model::config::ModConfig::STANDARD_NAMES;

/// The pane; reads the configuration and the counts when shown.
#[component]
pub fn AdminPane() -> impl IntoView {
    let admin = Admin::get();
    admin.refresh();
    view! {
        <section class="admin" aria-label="Admin">
            <h2>"Admin"</h2>
            <p class="notice" role="status">{move || admin.notice.get()}</p>
            {move || match admin.config.get() {
                None => view! { <p>"Reading the configuration…"</p> }.into_any(),
                Some(Err(reason)) => view! {
                    <p class="problem" role="alert">{format!("Only masters manage this network ({reason}).")}</p>
                }
                .into_any(),
                Some(Ok(read)) => view! { <Controls read /> <Analytics /> }.into_any(),
            }}
        </section>
    }
}

/// The controls, from the configuration read.
#[component]
fn Controls(read: Value) -> impl IntoView {
    let admin = Admin::get();
    let config = read.get("config").cloned().unwrap_or(Value::Null);
    let status = config
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("active")
        .to_owned();
    let mods: Vec<String> = read
        .get("mods")
        .and_then(Value::as_array)
        .map(|m| {
            m.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let invitations = read
        .get("invitations")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let timeout = config
        .get("presence_timeout_ms")
        .and_then(Value::as_u64)
        .unwrap_or(60_000);
    let public = config
        .get("public")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let send = move |kind: &'static str, payload: Value, label: &'static str| {
        admin.change(kind, payload, label)
    };
    let member = RwSignal::new(String::new());
    let to_load = RwSignal::new("analytics".to_owned());
    let invitee = RwSignal::new(String::new());
    let seconds = RwSignal::new((timeout / 1000).to_string());
    let listed = RwSignal::new(public);
    let member_action = move |kind: &'static str, label: &'static str| {
        send(
            kind,
            json!({"address": member.get_untracked().trim()}),
            label,
        )
    };
    view! {
        <section aria-label="Status">
            <h3>"Status"</h3>
            <p>"The network is " <strong class="network-status">{status}</strong> "."</p>
            <button on:click=move |_| send("network.admin.pause", json!({}), "Pause")>"Pause"</button>
            <button on:click=move |_| send("network.admin.resume", json!({}), "Resume")>"Resume"</button>
            <button on:click=move |_| send("network.admin.archive", json!({}), "Archive")>"Archive (final)"</button>
        </section>
        <section aria-label="Mods">
            <h3>"Mods"</h3>
            <ul>
                {mods.into_iter().map(|m| {
                    let name = m.clone();
                    view! {
                        <li>{m.clone()} " "
                            <button aria-label=format!("Unload {m}") on:click=move |_| send("network.admin.mod.unload", json!({"name": name.clone()}), "Unload a mod")>"Unload"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <label>"Load " <select on:change=move |e| to_load.set(event_target_value(&e))>
                {STANDARD_MODS.map(|m| view! { <option value=m selected=m == "analytics">{m}</option> }).collect_view()}
            </select></label>
            <button on:click=move |_| send("network.admin.mod.load", json!({"name": to_load.get_untracked()}), "Load a mod")>"Load"</button>
        </section>
        <section aria-label="Members">
            <h3>"Members"</h3>
            <label>"Address " <input placeholder="agent:someone" prop:value=move || member.get() on:input=move |e| member.set(event_target_value(&e)) /></label>
            <button on:click=move |_| member_action("network.admin.member.remove", "Remove a member")>"Remove"</button>
            <button on:click=move |_| member_action("network.admin.member.ban", "Ban a member")>"Ban"</button>
            <button on:click=move |_| member_action("network.admin.member.unban", "Lift a ban")>"Unban"</button>
        </section>
        <section aria-label="Invitations">
            <h3>"Invitations"</h3>
            <label>"Invitee (optional) " <input placeholder="agent:guest" prop:value=move || invitee.get() on:input=move |e| invitee.set(event_target_value(&e)) /></label>
            <button on:click=move |_| {
                let who = invitee.get_untracked();
                let payload = if who.trim().is_empty() { json!({}) } else { json!({"invitee": who.trim()}) };
                send("workspace.invitation.created", payload, "Invite");
            }>"Invite"</button>
            <ul class="invitations">
                {invitations.into_iter().map(|i| {
                    let code = i.get("code").and_then(Value::as_str).unwrap_or("").to_owned();
                    let who = i.get("invitee").and_then(Value::as_str).unwrap_or("anyone").to_owned();
                    let revoke = code.clone();
                    view! {
                        <li>{format!("{who} · {}…", code.chars().take(8).collect::<String>())} " "
                            <button aria-label=format!("Revoke the invitation for {who}") on:click=move |_| send("network.admin.invitation.revoke", json!({"code": revoke.clone()}), "Revoke an invitation")>"Revoke"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <ul class="invitation-news" aria-label="Invitation news">
                {move || admin.news.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
            </ul>
        </section>
        <section aria-label="Tokens">
            <h3>"Tokens"</h3>
            <button on:click=move |_| send("network.admin.token.rotate", json!({"token": "access"}), "Rotate the access token")>"Rotate the access token"</button>
            <button on:click=move |_| send("network.admin.token.rotate", json!({"token": "admin"}), "Rotate the admin token")>"Rotate the admin token"</button>
        </section>
        <section aria-label="Settings">
            <h3>"Settings"</h3>
            <label>"Presence timeout (seconds) " <input type="number" min="5" prop:value=move || seconds.get() on:input=move |e| seconds.set(event_target_value(&e)) /></label>
            <label><input type="checkbox" prop:checked=move || listed.get() on:change=move |e| listed.set(event_target_checked(&e)) /> " Listed publicly"</label>
            <button on:click=move |_| {
                let ms = seconds.get_untracked().trim().parse::<u64>().unwrap_or(0).saturating_mul(1000);
                send("network.admin.settings.update", json!({"presence_timeout_ms": ms, "public": listed.get_untracked()}), "Save settings");
            }>"Save settings"</button>
        </section>
    }
}

/// The analytics charts: per type, per source, per minute over the last hour.
#[component]
fn Analytics() -> impl IntoView {
    let admin = Admin::get();
    view! {
        <section aria-label="Analytics" class="analytics">
            <h3>"Analytics"</h3>
            {move || match admin.analytics.get() {
                None => view! { <p>"Reading the counts…"</p> }.into_any(),
                Some(Err(reason)) => view! { <p>{format!("No analytics: {reason}. Load mod/analytics to count events.")}</p> }.into_any(),
                Some(Ok(counts)) => {
                    let total = counts.get("total").and_then(Value::as_u64).unwrap_or(0);
                    view! {
                        <p>"Events counted: " <strong class="analytics-total">{total}</strong></p>
                        <BarChart title="Events per type" bars=top(counts.get("by_type"), 10) />
                        <BarChart title="Events per source" bars=top(counts.get("by_source"), 10) />
                        <BarChart title="Events per minute (last hour, UTC)" bars=per_minute(counts.get("by_minute"), now_ms(), 60) />
                    }
                    .into_any()
                }
            }}
        </section>
    }
}
