//! agentnet-web: the workspace in the browser (Leptos, client-side rendered).
//!
//! [`App`] joins the `demo` network as a guest human (the same one after a
//! reload), shows the messages posted there live and posts what the person
//! types. It is local-first: the replica's rows live in IndexedDB
//! ([`storage`]), so history and queued messages show without the network
//! and go out, once and in order, when it comes back. Protocol work happens
//! in `agentnet-core`; [`connection`] only moves frames.
//!
//! This file only composes the page. Each feature owns its signals and its
//! requests and is provided through Leptos context: the [`session`] (the
//! connection, status and problem), [`chat`], [`people`], [`resources`],
//! [`documents`] and the [`inspector`] ([`ioa`] renders IOA messages in the chat);
//! the replica's effects reach each
//! through its `on_effect`. Definitions the features share live in leaf
//! modules (the workspace's [`event_types`], for one), never here, so no
//! feature depends on the page that composes it.

pub mod chat;
pub mod connection;
pub mod documents;
pub mod error;
pub mod event_types;
pub mod inspector;
pub mod ioa;
pub mod networks;
pub mod people;
pub mod profile;
pub mod resources;
pub mod session;
pub mod storage;

use agentnet_core::replica::ReplicaEffect;
use agentnet_core::{Address, NetworkId};
use chat::{Chat, ChatPane, Conversations};
use connection::random_seed;
use documents::Documents;
use inspector::{Inspector, Seen};
use leptos::prelude::*;
use networks::{NetworkBar, Networks};
use people::{People, Roster};
use resources::{Shared, panel::Resources};
use session::{Pane, Session, Status};

/// The workspace page: the bar of networks over the open one.
#[component]
pub fn App() -> impl IntoView {
    let networks = Networks::provide();
    view! {
        <NetworkBar />
        {move || {
            let id = networks.active();
            let credentials = networks.credentials(&id);
            match id.parse::<NetworkId>() {
                Ok(network) => view! { <Workspace network credentials /> }.into_any(),
                Err(_) => view! { <p role="alert">"That network id is not valid."</p> }.into_any(),
            }
        }}
    }
}

fn guest_address() -> Address {
    let seed = random_seed();
    let suffix = u16::from_le_bytes([seed[0], seed[1]]);
    format!("human:guest-{suffix:05}")
        .parse()
        .unwrap_or_else(|_| Address::broadcast())
}

/// The address the person uses in `network`: remembered across reloads, so a
/// reload (even offline) is the same participant with the same outbox.
fn my_address(network: &str) -> Address {
    let key = format!("name:{network}");
    if let Some(address) = storage::recall(&key).and_then(|a| a.parse().ok()) {
        return address;
    }
    let address = guest_address();
    storage::keep(&key, &address.to_string());
    address
}

/// The member secret that keeps `address` this person's in `network` (an
/// address belongs to whoever first joined as it): made up before the first
/// join and remembered (localStorage, shared by the tabs) like the address.
fn my_secret(network: &str, address: &Address) -> String {
    let key = format!("secret:{network}:{address}");
    if let Some(secret) = storage::recall(&key).filter(|s| s.len() >= 16) {
        return secret;
    }
    let secret = agentnet_core::crypto::to_hex(&random_seed());
    storage::keep(&key, &secret);
    secret
}

/// A guest name another browser already holds (`address_in_use`): this
/// browser becomes a new guest. True when the page reloads to do so.
fn become_new_guest(network: &str, me: &Address, rejection: &agentnet_core::Rejection) -> bool {
    if rejection.code != agentnet_core::ErrorCode::AddressInUse
        || !me.to_string().starts_with("human:guest-")
    {
        return false;
    }
    storage::keep(&format!("name:{network}"), &guest_address().to_string());
    window().location().reload().is_ok()
}

/// The workspace of one network.
#[component]
fn Workspace(network: NetworkId, credentials: Option<serde_json::Value>) -> impl IntoView {
    let network_key = network.to_string();
    let me = my_address(&network_key);
    let secret = my_secret(&network_key, &me);
    let session = Session::provide(network, me.clone());
    let chat = Chat::provide(session);
    let people = People::provide(session, chat);
    let shared = Shared::provide(session);
    let documents = Documents::provide(session);
    let seen = Seen::provide();

    // Leaving this network (switching to another) closes its connection for good.
    on_cleanup(move || session.close());

    // Open from storage first, so history and the outbox show without the network.
    wasm_bindgen_futures::spawn_local(async move {
        let mut replica = session.restore().await;
        replica.set_member_secret(Some(secret));
        chat.restore(&replica);
        seen.restore(&replica);
        let on_effect = move |effect: ReplicaEffect| {
            if let ReplicaEffect::JoinFailed(rejection) = &effect
                && become_new_guest(&network_key, &me, rejection)
            {
                return;
            }
            seen.on_effect(&effect);
            chat.on_effect(&effect);
            people.on_effect(&effect);
            shared.on_effect(&effect);
            documents.on_effect(&effect);
        };
        if session.connect(replica, credentials, on_effect) {
            documents.reopen_remembered().await;
        }
    });

    view! {
        <TopBar />
        <Panes />
        <div class="layout">
            <Conversations />
            <Show when=move || session.pane.get() == Pane::Inspector>
                <Inspector />
            </Show>
            <Show when=move || session.pane.get() == Pane::About>
                <profile::About network=session.network_name() />
            </Show>
            <ChatPane />
            <div class="side">
                <Roster />
                <Resources />
            </div>
        </div>
    }
}

/// The network, the person and the connection's state (with what is queued).
#[component]
fn TopBar() -> impl IntoView {
    let session = Session::get();
    let chat = Chat::get();
    view! {
        <header class="topbar">
            <h1>"agentnet"</h1>
            <span class="network">"network: " {session.network_name()}</span>
            <span class="me">"you are " <strong>{session.me_text()}</strong></span>
            <span class="status" role="status" data-state=move || session.status.get().as_str()>
                {move || match (session.status.get(), chat.queued()) {
                    (Status::Online, _) => "online".to_owned(),
                    (state, 0) => state.as_str().to_owned(),
                    (state, n) => format!("{} · {n} queued", state.as_str()),
                }}
            </span>
        </header>
    }
}

/// The buttons that switch the main pane.
#[component]
fn Panes() -> impl IntoView {
    let pane = Session::get().pane;
    let button = move |which: Pane, label: &'static str| {
        view! {
            <button type="button" aria-pressed=move || (pane.get() == which).to_string()
                on:click=move |_| pane.set(which)>{label}</button>
        }
    };
    view! {
        <nav class="views" aria-label="Views">
            {button(Pane::Conversation, "Conversation")}
            {button(Pane::Inspector, "Inspector")}
            {button(Pane::About, "About")}
        </nav>
    }
}
