//! The "invite people" step, over the new network's workspace: a link for
//! anyone (how long it works, how many people it admits), invitations for
//! named people or agents, each link with a Copy button, and Done.

use super::{EXPIRIES, Made, USES, Welcome};
use crate::admin::sections::{copy, expiry_words};
use crate::bidi::isolate;
use crate::clock::now_ms;
use leptos::prelude::*;

/// One invitation made: its link to copy, whom it is for, its limits.
#[component]
fn MadeLink(made: Made) -> impl IntoView {
    let copied = RwSignal::new(false);
    let who = match &made.invitee {
        Some(who) => format!("For {}", isolate(who)),
        None => "For anyone with the link".to_owned(),
    };
    let limits = match (made.invitee.is_some(), made.max_uses) {
        (true, _) | (false, 1) => {
            format!("one person · {}", expiry_words(made.expires_at, now_ms()))
        }
        (false, n) => format!(
            "up to {n} people · {}",
            expiry_words(made.expires_at, now_ms())
        ),
    };
    let link = made.link.clone();
    view! {
        <li class="made-link">
            <span class="who">{who.clone()}<span class="limits">{limits}</span></span>
            <span class="link-row">
                <input class="invitation-link" readonly aria-label=format!("Invitation link ({who})") prop:value=made.link />
                <button type="button" class="secondary" on:click=move |_| copied.set(copy(&link))>
                    {move || if copied.get() { "Copied" } else { "Copy link" }}
                </button>
            </span>
        </li>
    }
}

/// The step, while it is open.
#[component]
pub fn WelcomeStep() -> impl IntoView {
    let welcome = Welcome::get();
    let expiry = RwSignal::new(EXPIRIES[0].1);
    let uses = RwSignal::new(USES[0]);
    let invitee = RwSignal::new(String::new());
    let name = move || {
        crate::networks::Networks::get().label_of(&crate::session::Session::get().network_name())
    };
    let make_link = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        welcome.invite(expiry.get_untracked(), uses.get_untracked(), None);
    };
    let invite_one = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let who = invitee.get_untracked().trim().to_owned();
        if who.is_empty() {
            welcome.problem.set(Some(
                "Write the address of the person or agent to invite.".into(),
            ));
            return;
        }
        welcome.invite(expiry.get_untracked(), 1, Some(who));
        invitee.set(String::new());
    };
    let title = NodeRef::<leptos::html::H2>::new();
    Effect::new(move |_| {
        if let Some(title) = title.get() {
            let _ = title.focus();
        }
    });
    view! {
        <Show when=move || welcome.open.get()>
            <div class="welcome-backdrop"></div>
            <section class="welcome-step" aria-labelledby="welcome-title">
                <h2 id="welcome-title" tabindex="-1" node_ref=title>{move || format!("{} is ready: invite people", isolate(&name()))}</h2>
                <p class="lead">"Share a link: whoever opens it picks a name and joins. You choose how long it works and how many people may use it."</p>
                <form class="link-form" on:submit=make_link>
                    <label>"Link works for"
                        <select on:change=move |ev| expiry.set(event_target_value(&ev).parse().unwrap_or(EXPIRIES[0].1))>
                            {EXPIRIES.map(|(label, ms)| view! { <option value=ms.to_string() selected=ms == EXPIRIES[0].1>{label}</option> }).collect_view()}
                        </select>
                    </label>
                    <label>"People who may use it"
                        <select on:change=move |ev| uses.set(event_target_value(&ev).parse().unwrap_or(USES[0]))>
                            {USES.map(|n| view! { <option value=n.to_string() selected=n == USES[0]>{n.to_string()}</option> }).collect_view()}
                        </select>
                    </label>
                    <button type="submit" class="primary">"Create invitation link"</button>
                </form>
                <form class="invitee-form" on:submit=invite_one>
                    <label>"Or invite one person or agent by address"
                        <input name="invitee" autocomplete="off" placeholder="human:ann or agent:helper"
                            prop:value=move || invitee.get() on:input=move |ev| invitee.set(event_target_value(&ev)) />
                    </label>
                    <button type="submit" class="secondary">"Invite"</button>
                </form>
                <Show when=move || welcome.problem.get().is_some()>
                    <p class="problem" role="alert">{move || welcome.problem.get().unwrap_or_default()}</p>
                </Show>
                <ul class="made-links" aria-label="Invitation links">
                    <For each=move || welcome.made.get() key=|m| m.link.clone() let:made>
                        <MadeLink made />
                    </For>
                </ul>
                <p class="later">"Admin lists every unused invitation, and can revoke one."</p>
                <div class="welcome-actions">
                    <button type="button" class="secondary" on:click=move |_| welcome.close()>"Done"</button>
                </div>
            </section>
        </Show>
    }
}
