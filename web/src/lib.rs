//! agentnet-web: the workspace in the browser (Leptos, client-side rendered).
//!
//! [`App`] joins the `demo` network as a guest human (the same one after a
//! reload), shows the messages posted there live and posts what the person
//! types. It is local-first: the replica's rows live in IndexedDB
//! ([`storage`]), so history and queued messages show without the network
//! and go out, once and in order, when it comes back. Protocol work happens
//! in `agentnet-core`; [`connection`] only moves frames.
//!
//! Every place has a URL ([`routes`]): the router maps `/n/{network}/…` to
//! the workspace of that network, which follows the location (the back
//! button and links opened in a new tab land where they point).
//!
//! This file only composes the page. Each feature owns its signals and its
//! requests and is provided through Leptos context: the [`session`] (the
//! connection, status and problem), [`chat`], [`people`], [`resources`],
//! [`documents`], [`search`] and the [`inspector`] (with its [`replay`]; [`ioa`] renders IOA messages in the chat);
//! the replica's effects reach each
//! through its `on_effect`. Definitions the features share live in leaf
//! modules, never here, so no feature depends on the page that composes
//! it; the workspace's event types and payloads are the core's
//! ([`agentnet_core::vocabulary`]). [`emoji`] (the picker,
//! `:shortcodes:`, recent emoji) serves the chat; [`swipe`] turns touch
//! swipes into opening sheets and threads; [`typed`] reads the word being
//! typed before the caret.

pub mod admin;
pub mod bidi;
pub mod chat;
pub mod clock;
pub mod connection;
pub mod directory;
pub mod documents;
pub mod emoji;
pub mod error;
pub mod frame;
pub mod inspector;
pub mod invite;
pub mod ioa;
pub mod lazy;
pub mod networks;
pub mod panic;
pub mod parts;
pub mod people;
pub mod profile;
pub mod replay;
pub mod resources;
pub mod routes;
pub mod search;
pub mod session;
pub mod storage;
pub mod swipe;
pub mod switcher;
pub mod tasks;
pub mod typed;
pub mod welcome;

use agentnet_core::replica::ReplicaEffect;
use agentnet_core::{Address, NetworkId};
use chat::{Chat, ChatPane, Conversations};
use clock::random_seed;
use documents::Documents;
use frame::{Panes, Sheets, TopBar};
use inspector::Seen;
use lazy::LazyPart;
use leptos::prelude::*;
use leptos_router::components::{FlatRoutes, Route, Router};
use leptos_router::hooks::use_location;
use leptos_router::path;
use networks::Networks;
use networks::bar::NetworkBar;
use people::{People, Roster};
use resources::{Shared, panel::Resources};
use routes::{Navigator, Place, network_path, place_of};
use session::{Pane, Session};
use tasks::Tasks;

/// The workspace page: the router, the bar of networks over the open one.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router>
            <Page />
        </Router>
    }
}

/// What the router shows: `/` opens the network open last, `/n/{network}/…`
/// that network's workspace at the place the path names.
#[component]
fn Page() -> impl IntoView {
    Navigator::provide();
    Networks::provide();
    view! {
        <NetworkBar />
        // Flat: no nested routes, and a smaller wasm than `<Routes>`.
        <FlatRoutes fallback=|| view! { <NotFound /> }>
            <Route path=path!("/") view=OpenLast />
            <Route path=path!("/n/*place") view=NetworkPage />
            <Route path=path!("/directory") view=|| view! { <LazyPart load=parts::directory what="the Directory" /> } />
            <Route path=path!("/invite/:network") view=|| view! { <LazyPart load=parts::invite_page what="the invitation" /> } />
        </FlatRoutes>
    }
}

/// `/`: goes to the network open last (in place of `/`, so Back leaves the app).
#[component]
fn OpenLast() -> impl IntoView {
    let last = Networks::get().last_open();
    Navigator::get().replace(&network_path(&last));
    view! { <p class="opening" role="status">"Opening the workspace…"</p> }
}

/// A path that names no place of the workspace.
#[component]
fn NotFound() -> impl IntoView {
    view! {
        <main class="not-found">
            <p role="alert">"There is nothing at this address."</p>
            <a href="/">"Open the workspace"</a>
        </main>
    }
}

/// `/n/{network}/…`: that network's workspace, following the place in the
/// path; only a change of network makes a new workspace (and connection).
#[component]
fn NetworkPage() -> impl IntoView {
    let networks = Networks::get();
    let location = use_location();
    let found = Memo::new(move |_| {
        let path = location.pathname.get();
        let path = js_sys::decode_uri_component(&path)
            .ok()
            .and_then(|p| p.as_string())
            .unwrap_or(path);
        place_of(&path)
    });
    let network = Memo::new(move |_| found.get().map(|(network, _)| network));
    let place = Memo::new(move |_| found.get().map(|(_, place)| place).unwrap_or_default());
    // `?message={id}`: the message the link points at.
    let focus = Memo::new(move |_| {
        location
            .query
            .with(|q| routes::message_in(q.get_str(routes::MESSAGE)))
    });
    Effect::new(move |_| {
        if let Some(id) = network.get() {
            networks.opened(id);
        }
    });
    move || {
        // Joined again (another token or name): a new workspace with those.
        networks.joins();
        match network.get().map(|id| (id.parse::<NetworkId>(), id)) {
            Some((Ok(network), id)) => {
                let credentials = networks.credentials(&id);
                view! { <Workspace network credentials place focus /> }.into_any()
            }
            _ => view! { <NotFound /> }.into_any(),
        }
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
    let key = storage::secret_key(network, &address.to_string());
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

/// The panes whose part loads when first opened: the pane, its split point,
/// and what it is for the loading line.
const LAZY_PANES: [(Pane, lazy::Loader, &str); 5] = [
    (Pane::Inspector, parts::inspector, "the inspector"),
    (Pane::About, parts::about, "this network's page"),
    (Pane::Document, parts::document_page, "the document"),
    (Pane::Tasks, parts::tasks_pane, "the tasks"),
    (Pane::Admin, parts::admin_pane, "the Admin pane"),
];

/// The workspace of one network, at `place`.
#[component]
fn Workspace(
    network: NetworkId,
    credentials: Option<serde_json::Value>,
    place: Memo<Place>,
    focus: Memo<Option<agentnet_core::EventId>>,
) -> impl IntoView {
    let network_key = network.to_string();
    let me = my_address(&network_key);
    let secret = my_secret(&network_key, &me);
    let session = Session::provide(network, me.clone(), place);
    let chat = Chat::provide(session);
    let attachments = chat::files::attach::Attachments::provide(session);
    let viewer = chat::files::file_view::Viewer::provide();
    let people = People::provide(session, chat);
    let shared = Shared::provide(session);
    let documents = Documents::provide(session);
    let seen = Seen::provide();
    let tasks = Tasks::provide(session);
    let admin = admin::Admin::provide(session);
    let search = search::Search::provide(session);
    let invite_step = welcome::Welcome::provide(session);
    let typing = chat::composer::typing::Typing::provide(session);
    let sheets = Sheets::provide(place);
    Networks::get().read_name(network_key.clone());

    // The place in the URL: the conversation it opens, the thread it shows,
    // the message it points at.
    Effect::new(move |_| {
        chat.follow(&place.get());
        chat.aim(focus.get());
    });

    // Leaving this network (switching to another) closes its connection for good.
    on_cleanup(move || session.close());

    // Open from storage first, so history and the outbox show without the network.
    wasm_bindgen_futures::spawn_local(async move {
        let Some(mut replica) = session.restore().await else {
            return;
        };
        replica.set_member_secret(Some(secret));
        // A person here answers no tasks (the Tasks view follows and
        // cancels one's own, it cannot work one): every join says so, and
        // the network refuses a task to them at once (`takes_no_tasks`).
        replica.set_takes_tasks(Some(false));
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
            attachments.on_effect(&effect);
            people.on_effect(&effect);
            shared.on_effect(&effect);
            documents.on_effect(&effect);
            tasks.see(&effect);
            admin.on_effect(&effect);
            search.on_effect(&effect);
            invite_step.on_effect(&effect);
            typing.on_effect(&effect);
        };
        if session.connect(replica, credentials, on_effect) {
            documents.reopen_remembered().await;
        }
    });

    // Swipes on a touch screen ([`swipe`]), for as long as the workspace is here.
    let root = NodeRef::<leptos::html::Div>::new();
    let swipes = StoredValue::new_local(Vec::new());
    Effect::new(move |_| {
        if let Some(root) = root.get() {
            swipes.set_value(swipe::listen(&root));
        }
    });
    on_cleanup(move || {
        let _ = swipes.try_set_value(Vec::new());
    });

    view! {
        <div class="workspace" node_ref=root data-sheet=move || sheets.open().as_str()
            on:keydown=move |ev| if ev.key() == "Escape" { sheets.close() }>
        <TopBar />
        <div class="layout">
            <div class="sidebar" id="workspace-menu">
                <people::me::MyProfile />
                <Panes />
                <Conversations />
            </div>
            {LAZY_PANES.into_iter().map(|(pane, load, what)| view! {
                <Show when=move || session.pane() == pane>
                    <LazyPart load=load what=what />
                </Show>
            }).collect_view()}
            <ChatPane />
            <div class="side" id="workspace-people">
                <Roster />
                <Resources />
            </div>
            <div class="scrim" aria-hidden="true" on:click=move |_| sheets.close()></div>
            <search::view::SearchKeys />
            <Show when=move || search.open.get()>
                <LazyPart load=parts::search_panel what="search" overlay=true />
            </Show>
            <Show when=move || viewer.is_showing()>
                <LazyPart load=parts::lightbox what="the viewer" overlay=true />
            </Show>
            <welcome::view::WelcomeStep />
            <switcher::view::Switcher />
        </div>
        </div>
    }
}
