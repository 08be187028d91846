//! The workspace's session in one network: who the person is, the
//! connection, its status, the problem to show, and the place the URL names
//! (which decides the pane that is open).
//!
//! Every feature (chat, people, resources, documents, inspector) takes the
//! [`Session`] from Leptos context to send what it needs; it owns its own
//! signals and pending requests, and sees the replica's effects through its
//! own `on_effect`.

use crate::clock::random_seed;
use crate::connection::{Connection, Signal};
use crate::routes::Place;
use crate::storage;
use agentnet_core::bindings::route::paths;
use agentnet_core::replica::{Replica, ReplicaEffect};
use agentnet_core::{Address, EventId, EventType, NetworkId};
use leptos::prelude::*;

/// How long a roster, listing or read request may take.
pub const DISCOVER_TIMEOUT_MS: u64 = 10_000;

/// The main pane of the workspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    /// The open conversation.
    Conversation,
    /// The event inspector.
    Inspector,
    /// The network's profile.
    About,
    /// A document on a page of its own.
    Document,
    /// The person's tasks.
    Tasks,
    /// Managing the network (masters).
    Admin,
}

impl Pane {
    /// The pane that shows `place`.
    pub fn of(place: &Place) -> Self {
        match place {
            Place::Conversation(_) | Place::Thread(_) => Self::Conversation,
            Place::Inspector | Place::Event(_) => Self::Inspector,
            Place::About => Self::About,
            Place::Document(_) => Self::Document,
            Place::Tasks | Place::Task(_) => Self::Tasks,
            Place::Admin => Self::Admin,
        }
    }
}

/// The connection state the top bar shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Opening a connection.
    Connecting,
    /// Joined.
    Online,
    /// Without a connection (reopening).
    Offline,
}

impl Status {
    /// How the page names it (also its `data-state`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Connecting => "connecting",
            Self::Online => "online",
            Self::Offline => "offline",
        }
    }
}

/// The session: cheap to copy, from context with [`Session::get`].
#[derive(Clone, Copy)]
pub struct Session {
    /// The network's id.
    pub network: StoredValue<NetworkId, LocalStorage>,
    /// The person's address in it.
    pub me: StoredValue<Address, LocalStorage>,
    connection: StoredValue<Option<Connection>, LocalStorage>,
    /// The connection's state.
    pub status: RwSignal<Status>,
    /// What went wrong, in words, for the banner.
    pub problem: RwSignal<Option<String>>,
    /// Where the person is (from the URL).
    pub place: Memo<Place>,
    navigator: crate::routes::Navigator,
}

impl Session {
    /// A session for `network` as `me` at `place`, provided to the components below.
    pub fn provide(network: NetworkId, me: Address, place: Memo<Place>) -> Self {
        let session = Self {
            network: StoredValue::new_local(network),
            me: StoredValue::new_local(me),
            connection: StoredValue::new_local(None),
            status: RwSignal::new(Status::Connecting),
            problem: RwSignal::new(None),
            place,
            navigator: crate::routes::Navigator::get(),
        };
        provide_context(session);
        session
    }

    /// The session of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// The network's id as text.
    pub fn network_name(&self) -> String {
        self.network.with_value(ToString::to_string)
    }

    /// The open pane (follows the place).
    pub fn pane(&self) -> Pane {
        Pane::of(&self.place.get())
    }

    /// The path of `place` in this network.
    pub fn path(&self, place: &Place) -> String {
        self.network.with_value(|n| place.path(n.as_str()))
    }

    /// Goes to `place` in this network (a history entry).
    pub fn go(&self, place: &Place) {
        self.navigator.go(&self.path(place));
    }

    /// The path of `place` in this network at `message` (`?message={id}`).
    pub fn path_at(&self, place: &Place, message: EventId) -> String {
        self.network
            .with_value(|n| place.path_at(n.as_str(), message))
    }

    /// Goes to `place` at `message` in place of the current history entry
    /// (the same link, opened where it belongs).
    pub fn replace_at(&self, place: &Place, message: EventId) {
        self.navigator.replace(&self.path_at(place, message));
    }

    /// The person's address as text.
    pub fn me_text(&self) -> String {
        self.me.with_value(ToString::to_string)
    }

    /// Runs `f` with the connection, once it is open.
    pub fn with_connection<T>(&self, f: impl FnOnce(&Connection) -> T) -> Option<T> {
        self.connection
            .try_with_value(|c| c.as_ref().map(f))
            .flatten()
    }

    /// Posts an event of a core type; its id, once connected.
    pub fn post(
        &self,
        kind: &'static str,
        target: Address,
        payload: serde_json::Value,
    ) -> Option<EventId> {
        let kind = kind.parse::<EventType>().ok()?;
        self.with_connection(|c| c.post(kind, target, payload))
    }

    /// Sends a request of a core type, whose answer arrives as
    /// `ReplicaEffect::Replied` with the returned id; `None` before the connection is open.
    pub fn request(
        &self,
        kind: &'static str,
        target: Address,
        payload: serde_json::Value,
        timeout_ms: u64,
    ) -> Option<EventId> {
        let kind = kind.parse::<EventType>().ok()?;
        self.with_connection(|c| c.request(kind, target, payload, timeout_ms))
    }

    /// Asks the core for a read (`kind` with an empty payload) once the
    /// effect being delivered is done; the request's id goes into `pending`
    /// so its answer (`ReplicaEffect::Replied`) is recognised.
    pub fn read_later(&self, kind: &'static str, pending: StoredValue<Option<EventId>>) {
        let session = *self;
        // Deferred: this may run while the connection delivers the effect that asked for it.
        wasm_bindgen_futures::spawn_local(async move {
            let id = session.request(
                kind,
                Address::core(),
                serde_json::json!({}),
                DISCOVER_TIMEOUT_MS,
            );
            // The workspace may be gone by now (another network opened).
            let _ = pending.try_set_value(id);
        });
    }

    /// Shows a problem in the banner.
    pub fn report(&self, problem: impl ToString) {
        self.problem.set(Some(problem.to_string()));
    }

    /// The replica from storage: history and the outbox show without the network.
    /// `None` when the workspace was left while storage was read.
    pub async fn restore(&self) -> Option<Replica> {
        let (me, network) = (self.me.try_get_value()?, self.network.try_get_value()?);
        let rows = storage::load(network.as_str()).await;
        self.status.try_get_untracked()?;
        let mut replica = Replica::new(me, network, random_seed());
        // The history in memory is bounded like the stored one.
        replica.set_log_limit(Some(storage::LOG_KEPT));
        replica.restore(rows);
        Some(replica)
    }

    /// Connects `replica`; `on_effect` sees what the replica reports. False
    /// when no connection could be opened, or the workspace is gone meanwhile.
    pub fn connect(
        &self,
        replica: Replica,
        credentials: Option<serde_json::Value>,
        on_effect: impl Fn(ReplicaEffect) + 'static,
    ) -> bool {
        let network = self.network_name();
        let session = *self;
        let on_signal = move |signal: Signal| match signal {
            Signal::Connecting => session.status.set(Status::Connecting),
            Signal::Offline => session.status.set(Status::Offline),
            Signal::Replica(effect) => {
                match &*effect {
                    ReplicaEffect::Online => {
                        session.status.set(Status::Online);
                        session.problem.set(None);
                    }
                    ReplicaEffect::JoinFailed(rejection) => {
                        session.status.set(Status::Offline);
                        session.report(format!(
                            "The network refused to let you in: {}",
                            rejection.message
                        ));
                    }
                    _ => {}
                }
                on_effect(*effect);
            }
        };
        let url = socket_url(&network, replica.address());
        match Connection::open(&url, &network, replica, credentials, on_signal) {
            Ok(connection) => {
                // If the person switched away meanwhile, this workspace is gone: close at once.
                match self.connection.try_set_value(Some(connection)).flatten() {
                    Some(orphan) => {
                        orphan.close();
                        false
                    }
                    None => true,
                }
            }
            Err(error) => {
                self.status.set(Status::Offline);
                self.report(error);
                false
            }
        }
    }

    /// Closes the connection for good (the workspace is left).
    pub fn close(&self) {
        self.connection.try_with_value(|c| {
            if let Some(c) = c {
                c.close();
            }
        });
    }
}

/// The WebSocket URL of `network` on the edge that served the page.
/// The network's socket URL for `me`, who joins by its first frame: `member=`
/// lets a network with connection gateways hand the socket to my gateway.
fn socket_url(network: &str, me: &agentnet_core::Address) -> String {
    let location = window().location();
    let scheme = if location.protocol().ok().as_deref() == Some("https:") {
        "wss"
    } else {
        "ws"
    };
    let host = location.host().unwrap_or_default();
    let member = js_sys::encode_uri_component(&me.to_string());
    let path = paths::network_path(network, "/v1/ws");
    format!("{scheme}://{host}{path}?member={member}")
}
