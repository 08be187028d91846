//! The Admin pane: a master's settings page, in cards — the network's status
//! (only the changes its state allows are enabled), its members with the
//! actions the core offers on each ([`super::members`]), mods, invitations,
//! tokens and settings ([`super::sections`]), and the analytics charts.
//! Someone who is not a master is told so plainly (the tab is hidden from
//! them; this is what its URL shows).

use super::charts::{BarChart, per_minute, top};
use super::hosted::HostedAgents;
use super::members::Members;
use super::sections::{Invitations, Mods, Settings, Tokens};
use super::state::{Admin, offered};
use crate::clock::now_ms;
use agentnet_core::network::admin_types as t;
use leptos::prelude::*;
use serde_json::{Value, json};

/// The pane; reads the configuration and the counts when shown.
#[component]
pub fn AdminPane() -> impl IntoView {
    let admin = Admin::get();
    admin.refresh();
    view! {
        <section class="admin" aria-label="Admin">
            <header class="admin-head">
                <h2>"Admin"</h2>
                <p class="admin-lede">"Manage who is in this network, what runs in it, and how it is doing."</p>
            </header>
            <p class="notice" role="status">{move || admin.notice.get()}</p>
            {move || match admin.config.get() {
                None => view! { <p class="admin-waiting">"Reading the configuration…"</p> }.into_any(),
                Some(Err(_)) => view! {
                    <div class="admin-denied">
                        <p class="admin-denied-title">"You are not an admin of this network."</p>
                        <p>"Only its masters manage it: its members, mods, invitations and settings. Ask one of them if you need a change."</p>
                    </div>
                }
                .into_any(),
                Some(Ok(read)) => view! { <Controls read /> <Analytics /> }.into_any(),
            }}
        </section>
    }
}

/// The cards, from the configuration read.
#[component]
fn Controls(
    /// The configuration read's ack.
    read: Value,
) -> impl IntoView {
    let config = read.get("config").cloned().unwrap_or(Value::Null);
    let mods: Vec<String> = read
        .get("mods")
        .and_then(Value::as_array)
        .map(|m| {
            m.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let list = |key: &str| {
        read.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let (invitations, members, banned) = (list("invitations"), list("members"), list("banned"));
    view! {
        <Status config=config.clone() actions=offered(&read) />
        <Members members banned />
        <HostedAgents />
        <Invitations invitations />
        <Mods mods />
        <Settings config />
        <Tokens />
    }
}

/// The network's status and the changes its state allows.
#[component]
fn Status(
    /// The network's configuration.
    config: Value,
    /// The status changes offered.
    actions: Vec<String>,
) -> impl IntoView {
    let admin = Admin::get();
    let status = config
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("active")
        .to_owned();
    let allows = |kind: &str| actions.iter().any(|a| a == kind);
    let (pause, resume, archive) = (allows(t::PAUSE), allows(t::RESUME), allows(t::ARCHIVE));
    let explain = match status.as_str() {
        "paused" => "Paused: members can read, but nothing new is accepted until you resume.",
        "archived" => "Archived for good: nobody can join or post, and nothing changes it back.",
        _ => "Active: members can join and post.",
    };
    let archive_now = move |_| {
        let sure = window()
            .confirm_with_message(
                "Archive this network? Everyone's session ends, yours too, and nobody can join or post again. This cannot be undone.",
            )
            .unwrap_or(false);
        if sure {
            admin.change(t::ARCHIVE, json!({}), "Archive");
        }
    };
    view! {
        <section class="admin-card" aria-labelledby="admin-status">
            <h3 id="admin-status">"Status"</h3>
            <p class="admin-status-line">
                <span class="network-status" data-status=status.clone()>{status.clone()}</span>
                <span class="admin-hint">{explain}</span>
            </p>
            <div class="admin-actions">
                <button type="button" class="admin-button" disabled=!pause
                    on:click=move |_| admin.change(t::PAUSE, json!({}), "Pause")>"Pause"</button>
                <button type="button" class="admin-button" disabled=!resume
                    on:click=move |_| admin.change(t::RESUME, json!({}), "Resume")>"Resume"</button>
                <button type="button" class="admin-button danger" disabled=!archive
                    on:click=archive_now>"Archive (final)"</button>
            </div>
        </section>
    }
}

/// The analytics charts: per type, per source, per minute over the last hour.
#[component]
fn Analytics() -> impl IntoView {
    let admin = Admin::get();
    view! {
        <section aria-labelledby="admin-analytics" class="admin-card analytics">
            <h3 id="admin-analytics">"Analytics"</h3>
            {move || match admin.analytics.get() {
                None => view! { <p class="admin-hint">"Reading the counts…"</p> }.into_any(),
                Some(Err(reason)) => view! { <p class="admin-hint">{format!("No analytics: {reason}. Load mod/analytics (Mods, above) to count events.")}</p> }.into_any(),
                Some(Ok(counts)) => {
                    let total = counts.get("total").and_then(Value::as_u64).unwrap_or(0);
                    view! {
                        <p>"Events counted: " <strong class="analytics-total">{total}</strong></p>
                        <div class="charts">
                            <BarChart title="Events per type" bars=top(counts.get("by_type"), 10) />
                            <BarChart title="Events per source" bars=top(counts.get("by_source"), 10) />
                        </div>
                        <BarChart title="Events per minute (last hour, UTC)" bars=per_minute(counts.get("by_minute"), now_ms(), 60) />
                    }
                    .into_any()
                }
            }}
        </section>
    }
}
