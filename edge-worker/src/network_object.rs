//! `NetworkHost`: the state and the work of the Durable Object that hosts one network.
//!
//! It maps WebSocket frames onto [`agentnet_core::Network`] and applies the
//! effects the core returns: replies and deliveries go out on sockets,
//! members and log entries go into SQLite. Sockets use the hibernation API;
//! a socket's authenticated address lives in its attachment, so nothing
//! needed after a wake-up is held only in memory.

use crate::host::{now_ms, random_seed};
use crate::inbox::Drainer;
use crate::origin::Origin;
use crate::storage::{LogIndex, Store};
use agentnet_core::bindings::{self, create};
use agentnet_core::network::Effect;
use agentnet_core::{Address, Network, NetworkId};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use worker::{Env, Request, Response, Result, State, WebSocket};

/// What a socket's attachment remembers across hibernation.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(crate) struct Session {
    pub(crate) network: Option<String>,
    pub(crate) address: Option<String>,
}

impl Session {
    /// The network and member it names, each when it parses.
    fn parsed(self) -> (Option<NetworkId>, Option<Address>) {
        (
            self.network.and_then(|n| n.parse().ok()),
            self.address.and_then(|a| a.parse().ok()),
        )
    }
}

/// A socket and what its attachment says: the network and the member it is bound to.
struct Sender {
    socket: WebSocket,
    network: Option<NetworkId>,
    address: Option<Address>,
}

/// One network's Durable Object: its state and what it does
/// (`crate::entry::NetworkObject` is the class workerd calls).
pub struct NetworkHost {
    pub(crate) state: State,
    pub(crate) network: RefCell<Option<Network>>,
    /// The tables exist (checked once per instance, not per request).
    schema_ready: std::cell::Cell<bool>,
    /// The alarm this instance has set, so it is not read back from storage for every frame.
    alarm_at: std::cell::Cell<Option<u64>>,
    /// Sockets by member address; rebuilt after any socket is accepted, bound or closed.
    pub(crate) socket_index: RefCell<Option<BTreeMap<Address, Vec<WebSocket>>>>,
    /// The last frame's socket and what its attachment said, so a burst of
    /// frames from one socket reads and parses the attachment once.
    last_sender: RefCell<Option<Sender>>,
    /// Open Server-Sent Events streams by member address (they keep the object awake).
    pub(crate) sse_streams: RefCell<BTreeMap<String, Vec<std::rc::Rc<crate::outlet::Outlet>>>>,
    /// Frames waiting to be handled together (group commit).
    inbox: std::rc::Rc<crate::inbox::Inbox>,
    /// Log rows gathered over one drain of frames, written together ([`Store::flush`]).
    pub(crate) pending_appends: std::rc::Rc<RefCell<crate::log_batch::PendingAppends>>,
    /// Frames for sockets, sent once the rows they acknowledge are written ([`Self::commit`]).
    pub(crate) outgoing: RefCell<Vec<(WebSocket, String)>>,
    /// Test-only routes are on (`AGENTNET_TEST_HOOKS=1`, never set in wrangler.toml).
    pub(crate) test_hooks: bool,
}

/// The variable that turns on test-only routes; the end-to-end tests set it with `--var`.
pub const TEST_HOOKS_VAR: &str = "AGENTNET_TEST_HOOKS";

impl NetworkHost {
    pub(crate) fn store(&self) -> Result<Store> {
        if self.schema_ready.get() {
            return Ok(Store::existing(
                self.state.storage().sql(),
                self.pending_appends.clone(),
            ));
        }
        let store = Store::open(self.state.storage().sql(), self.pending_appends.clone())?;
        self.schema_ready.set(true);
        Ok(store)
    }

    /// Forgets the socket index after a socket came, went or changed identity.
    pub(crate) fn sockets_changed(&self) {
        *self.socket_index.borrow_mut() = None;
        *self.last_sender.borrow_mut() = None;
    }

    /// Loads the network from storage on first use; creates a built-in one (`demo`) if missing.
    pub(crate) fn ensure_loaded(&self, id: &NetworkId) -> Result<bool> {
        if self.network.borrow().is_some() {
            return Ok(true);
        }
        let store = self.store()?;
        let config = match store.config()? {
            Some(config) => config,
            None => match create::builtin_config(id) {
                Some(config) => {
                    store.save_config(&config)?;
                    config
                }
                None => return Ok(false),
            },
        };
        let mut network = Network::new(config, store.rows()?, store.last_seq()?, random_seed());
        network.set_event_index(Box::new(LogIndex(self.store()?)));
        *self.network.borrow_mut() = Some(network);
        Ok(true)
    }

    fn session(ws: &WebSocket) -> Session {
        ws.deserialize_attachment::<Session>()
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Asks the platform to wake the object when the network next needs it.
    pub(crate) async fn schedule_alarm(&self) -> Result<()> {
        let next = self
            .network
            .borrow()
            .as_ref()
            .and_then(Network::next_wakeup);
        if let Some(at) = next {
            if self.alarm_at.get().is_some_and(|set| set <= at) {
                return Ok(());
            }
            let storage = self.state.storage();
            let current = storage.get_alarm().await?;
            if let Some(c) = current
                .and_then(|c| u64::try_from(c).ok())
                .filter(|c| *c <= at)
            {
                self.alarm_at.set(Some(c));
                return Ok(());
            }
            self.alarm_at.set(Some(at));
            {
                storage
                    .set_alarm(worker::ScheduledTime::new(worker::js_sys::Date::new(
                        &(at as f64).into(),
                    )))
                    .await?;
            }
        }
        Ok(())
    }

    /// Hands one WebSocket frame to the core and applies what it returns.
    fn handle_socket_frame(&self, ws: &WebSocket, text: &str) -> Result<()> {
        if self.test_hooks && text == bindings::ws::TEST_PANIC_FRAME {
            // Proves in tests that a panic inside a drain of frames does not brick the object.
            #[allow(clippy::panic)]
            {
                panic!("test hook: deliberate panic in a frame")
            }
        }
        let (Some(id), session_address) = self.sender_of(ws) else {
            return Ok(());
        };
        if !self.ensure_loaded(&id)? {
            return Ok(());
        }
        let effects = {
            let mut guard = self.network.borrow_mut();
            let Some(network) = guard.as_mut() else {
                return Ok(());
            };
            network.handle_frame(session_address.as_ref(), text, now_ms())
        };
        self.apply_gathering(&Origin::Socket(ws), effects)
    }

    pub(crate) fn bind(&self, ws: &WebSocket, address: Option<String>) -> Result<()> {
        let mut session = Self::session(ws);
        session.address = address;
        self.sockets_changed();
        ws.serialize_attachment(&session)
    }

    /// Builds the socket index from the sockets' attachments unless it is current.
    pub(crate) fn build_socket_index(&self) {
        if self.socket_index.borrow().is_some() {
            return;
        }
        let mut map: BTreeMap<Address, Vec<WebSocket>> = BTreeMap::new();
        for ws in self.state.get_websockets() {
            if let Some(address) = Self::session(&ws).address.and_then(|a| a.parse().ok()) {
                map.entry(address).or_default().push(ws);
            }
        }
        *self.socket_index.borrow_mut() = Some(map);
    }

    /// The addresses that have an open socket.
    pub(crate) fn connected_addresses(&self) -> Vec<Address> {
        self.build_socket_index();
        self.socket_index
            .borrow()
            .as_ref()
            .map(|index| index.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The network and member a frame's socket belongs to, from its attachment
    /// (remembered for the next frame from the same socket).
    fn sender_of(&self, ws: &WebSocket) -> (Option<NetworkId>, Option<Address>) {
        if let Some(last) = self.last_sender.borrow().as_ref()
            && &last.socket == ws
        {
            return (last.network.clone(), last.address.clone());
        }
        let (network, address) = Self::session(ws).parsed();
        *self.last_sender.borrow_mut() = Some(Sender {
            socket: ws.clone(),
            network: network.clone(),
            address: address.clone(),
        });
        (network, address)
    }

    /// A socket closed: finish the handshake and mark its member offline if it has no other.
    pub(crate) fn connection_closed(&self, ws: &WebSocket, code: usize) -> Result<()> {
        self.sockets_changed();
        // Finish the closing handshake.
        let _ = ws.close(Some(bindings::ws::close_reply(code)), Some("closed"));
        let (Some(id), Some(address)) = Self::session(ws).parsed() else {
            return Ok(());
        };
        // The socket index (which the member's leave is then delivered through)
        // may still list the closing socket itself.
        self.build_socket_index();
        let still_connected = self
            .socket_index
            .borrow()
            .as_ref()
            .and_then(|index| index.get(&address))
            .is_some_and(|sockets| sockets.iter().any(|other| other != ws));
        if still_connected || !self.ensure_loaded(&id)? {
            return Ok(());
        }
        let effects = match self.network.borrow_mut().as_mut() {
            Some(network) => network.disconnect(&address, now_ms()),
            None => Vec::new(),
        };
        self.apply(&Origin::Socket(ws), effects)
    }
}

/// What workerd's calls into the object do (`crate::entry` receives them).
impl NetworkHost {
    pub(crate) fn new(state: State, env: Env) -> Self {
        // Answer the replica's heartbeat frames without waking the object.
        if let Ok(pair) = worker::worker_sys::WebSocketRequestResponsePair::new(
            agentnet_core::replica::HEARTBEAT_PING,
            agentnet_core::replica::HEARTBEAT_PONG,
        ) {
            state.set_websocket_auto_response(&pair);
        }
        Self {
            state,
            network: RefCell::new(None),
            schema_ready: std::cell::Cell::new(false),
            alarm_at: std::cell::Cell::new(None),
            socket_index: RefCell::new(None),
            last_sender: RefCell::new(None),
            sse_streams: RefCell::new(BTreeMap::new()),
            inbox: Default::default(),
            pending_appends: Default::default(),
            outgoing: RefCell::new(Vec::new()),
            test_hooks: env
                .var(TEST_HOOKS_VAR)
                .map(|v| v.to_string() == "1")
                .unwrap_or(false),
        }
    }

    pub(crate) async fn fetch(self: &std::rc::Rc<Self>, req: Request) -> Result<Response> {
        let response = self.route(req).await;
        self.schedule_alarm().await?;
        response
    }

    /// Queues a WebSocket frame; returns the drainer role when this frame
    /// starts a drain ([`Self::drain`]), `None` when a running drain takes it.
    pub(crate) fn queue_frame(&self, ws: WebSocket, text: String) -> Option<Drainer> {
        self.inbox.push(ws, text)
    }

    /// Handles queued frames until a turn of the event loop brings none.
    pub(crate) async fn drain(&self, drainer: Drainer) -> Result<()> {
        // Under load, wait one turn of the event loop first so the frames on their
        // way join this batch; a lone frame is handled at once. Frames that arrive
        // meanwhile are handled together after a turn: one commit for all of them.
        if drainer.under_load() {
            worker::Delay::from(std::time::Duration::ZERO).await;
        }
        let mut first_error = None;
        loop {
            let mut handled = 0;
            while let Some((ws, text)) = drainer.next() {
                handled += 1;
                if let Err(err) = self.handle_socket_frame(&ws, &text) {
                    worker::console_error!("a frame failed: {err}");
                    first_error.get_or_insert(err);
                }
            }
            if handled == 0 {
                break;
            }
            // Before yielding: write these frames' rows, then send their acks and deliveries.
            if let Err(err) = self.commit() {
                worker::console_error!("writing the log failed: {err}");
                first_error.get_or_insert(err);
            }
            worker::Delay::from(std::time::Duration::ZERO).await;
        }
        drop(drainer);
        self.schedule_alarm().await?;
        first_error.map_or(Ok(()), Err)
    }

    pub(crate) async fn alarm(&self) -> Result<Response> {
        // The alarm that was set has fired.
        self.alarm_at.set(None);
        // An object evicted from memory wakes here: what it stored goes on
        // (a catch-up a page at a time is one of its rows).
        if self.network.borrow().is_none()
            && let Some(config) = self.store()?.config()?
        {
            self.ensure_loaded(&config.id)?;
        }
        let connected = self.connected_addresses();
        let effects = match self.network.borrow_mut().as_mut() {
            Some(network) => {
                // An open socket is a sign of life even when hibernation kept its pings away.
                let now = now_ms();
                let mut effects: Vec<Effect> = connected
                    .iter()
                    .flat_map(|a| network.heartbeat(a, now))
                    .collect();
                effects.extend(network.on_alarm(now));
                effects
            }
            // No network stored: nothing to do.
            None => Vec::new(),
        };
        self.apply(&Origin::Nowhere, effects)?;
        self.schedule_alarm().await?;
        Response::ok("alarm handled")
    }
}
