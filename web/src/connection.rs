//! The browser's WebSocket link to one network, driven by the core [`Replica`].
//!
//! This module only moves frames and timers: the replica builds every
//! outgoing event, applies every incoming frame and says what happened as
//! [`ReplicaEffect`]s, which the UI receives. Rows the replica wants kept go
//! to IndexedDB ([`crate::storage`]). A dropped connection is reopened with
//! exponential backoff and jitter; a heartbeat (`ping`, answered `pong` by the
//! edge without waking the network) notices a connection that died silently.

use crate::storage;
use agentnet_core::replica::{Replica, ReplicaEffect};
use agentnet_core::{Address, EventId, EventType};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(buf: &mut [u8]);
}

/// How often the replica's timers (resends, acks, request deadlines) are checked.
const TIMER_INTERVAL_MS: i32 = 250;
/// How often a heartbeat goes out while connected.
const HEARTBEAT_EVERY_MS: u64 = 15_000;
/// A connection whose heartbeat got no answer for this long is closed and reopened.
const HEARTBEAT_TIMEOUT_MS: u64 = 10_000;
/// Longest wait between reconnection attempts.
const MAX_BACKOFF_MS: f64 = 10_000.0;

/// Current unix time in milliseconds.
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// 32 bytes from the browser's cryptographic random source.
pub fn random_seed() -> [u8; 32] {
    let mut seed = [0u8; 32];
    get_random_values(&mut seed);
    seed
}

/// What the connection tells the UI.
pub enum Signal {
    /// A connection attempt started.
    Connecting,
    /// The socket closed; it will be reopened.
    Offline,
    /// Something the replica reports.
    Replica(Box<ReplicaEffect>),
}

struct Inner {
    url: String,
    network: String,
    socket: Option<WebSocket>,
    replica: Replica,
    credentials: Option<Value>,
    on_signal: Box<dyn Fn(Signal)>,
    attempt: u32,
    /// When the last heartbeat went out and whether it is still unanswered.
    ping_sent: Option<u64>,
    last_ping: u64,
    /// Closed for good ([`Connection::close`]): no reconnection, no timers.
    closed: bool,
    /// The timer interval, cleared on close.
    ticker: Option<i32>,
}

impl Inner {
    fn apply(&mut self, effects: Vec<ReplicaEffect>) {
        let mut rows = Vec::new();
        for effect in effects {
            match effect {
                ReplicaEffect::Send(frame) => {
                    if let Some(socket) = self
                        .socket
                        .as_ref()
                        .filter(|s| s.ready_state() == WebSocket::OPEN)
                    {
                        let _ = socket.send_with_str(&frame);
                    }
                }
                ReplicaEffect::Persist(row) => rows.push(row),
                ReplicaEffect::Online => {
                    self.attempt = 0;
                    (self.on_signal)(Signal::Replica(Box::new(ReplicaEffect::Online)));
                }
                other => (self.on_signal)(Signal::Replica(Box::new(other))),
            }
        }
        storage::append(&self.network, rows);
    }
}

/// An open (or reopening) link to a network.
#[derive(Clone)]
pub struct Connection {
    inner: Rc<RefCell<Inner>>,
}

impl Connection {
    /// Opens `url` and joins with `replica` (restored from storage by the caller);
    /// `on_signal` sees everything that happens. Reconnects until the page closes.
    pub fn open(
        url: &str,
        network: &str,
        replica: Replica,
        credentials: Option<Value>,
        on_signal: impl Fn(Signal) + 'static,
    ) -> Result<Self, JsValue> {
        let connection = Self {
            inner: Rc::new(RefCell::new(Inner {
                url: url.to_owned(),
                network: network.to_owned(),
                socket: None,
                replica,
                credentials,
                on_signal: Box::new(on_signal),
                attempt: 0,
                ping_sent: None,
                last_ping: now_ms(),
                closed: false,
                ticker: None,
            })),
        };
        connection.connect()?;
        connection.start_ticker()?;
        Ok(connection)
    }

    fn connect(&self) -> Result<(), JsValue> {
        (self.inner.borrow().on_signal)(Signal::Connecting);
        let socket = WebSocket::new(&self.inner.borrow().url)?;
        {
            let mut inner = self.inner.borrow_mut();
            inner.socket = Some(socket.clone());
            inner.ping_sent = None;
            inner.last_ping = now_ms();
        }

        let opened = self.inner.clone();
        let on_open = Closure::<dyn FnMut()>::new(move || {
            let mut inner = opened.borrow_mut();
            let credentials = inner.credentials.clone();
            let effects = inner.replica.connected(credentials, now_ms());
            inner.apply(effects);
        });
        socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        on_open.forget();

        let reader = self.inner.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |message: MessageEvent| {
            let Some(text) = message.data().as_string() else {
                return;
            };
            let mut inner = reader.borrow_mut();
            if text == "pong" {
                inner.ping_sent = None;
                return;
            }
            let effects = inner.replica.receive(&text, now_ms());
            inner.apply(effects);
        });
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();

        let closer = self.clone();
        let closed_socket = socket.clone();
        let on_close = Closure::<dyn FnMut(CloseEvent)>::new(move |_: CloseEvent| {
            closer.lost(&closed_socket);
        });
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        on_close.forget();
        Ok(())
    }

    /// The socket closed: tell the replica and the UI, then try again after a backoff.
    fn lost(&self, socket: &WebSocket) {
        let delay = {
            let mut inner = self.inner.borrow_mut();
            if inner.closed || inner.socket.as_ref() != Some(socket) {
                return; // closed for good, or an older socket with a newer one in charge
            }
            inner.socket = None;
            inner.replica.disconnected();
            (inner.on_signal)(Signal::Offline);
            let base = (250.0 * 2f64.powi(inner.attempt.min(16) as i32)).min(MAX_BACKOFF_MS);
            inner.attempt = inner.attempt.saturating_add(1);
            // Jitter: between half and all of the backoff, so tabs do not reconnect in step.
            base * (0.5 + js_sys::Math::random() / 2.0)
        };
        let again = self.clone();
        let retry = Closure::once_into_js(move || {
            if again.inner.borrow().closed {
                return;
            }
            if again.connect().is_err() {
                (again.inner.borrow().on_signal)(Signal::Offline);
            }
        });
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                retry.unchecked_ref(),
                delay as i32,
            );
        }
    }

    fn start_ticker(&self) -> Result<(), JsValue> {
        let ticker = self.inner.clone();
        let on_tick = Closure::<dyn FnMut()>::new(move || {
            let now = now_ms();
            let mut inner = ticker.borrow_mut();
            if inner.replica.poll_timeout().is_some_and(|at| at <= now) {
                let effects = inner.replica.handle_timeout(now);
                inner.apply(effects);
            }
            let Some(socket) = inner
                .socket
                .clone()
                .filter(|s| s.ready_state() == WebSocket::OPEN)
            else {
                return;
            };
            match inner.ping_sent {
                Some(sent) if now.saturating_sub(sent) > HEARTBEAT_TIMEOUT_MS => {
                    // No answer: the connection is dead even if the browser has not noticed.
                    let _ = socket.close();
                }
                None if now.saturating_sub(inner.last_ping) > HEARTBEAT_EVERY_MS
                    && socket.send_with_str("ping").is_ok() =>
                {
                    inner.ping_sent = Some(now);
                    inner.last_ping = now;
                }
                _ => {}
            }
        });
        let id = web_sys::window()
            .ok_or_else(|| JsValue::from_str("no window"))?
            .set_interval_with_callback_and_timeout_and_arguments_0(
                on_tick.as_ref().unchecked_ref(),
                TIMER_INTERVAL_MS,
            )?;
        on_tick.forget();
        self.inner.borrow_mut().ticker = Some(id);
        Ok(())
    }

    /// Closes the link for good: the socket, the timers, any reconnection.
    /// What is queued stays in storage for the next time this network opens.
    pub fn close(&self) {
        let mut inner = self.inner.borrow_mut();
        inner.closed = true;
        if let (Some(id), Some(window)) = (inner.ticker.take(), web_sys::window()) {
            window.clear_interval_with_handle(id);
        }
        if let Some(socket) = inner.socket.take() {
            let _ = socket.close();
        }
        inner.replica.disconnected();
    }

    /// The participant's address.
    pub fn address(&self) -> Address {
        self.inner.borrow().replica.address().clone()
    }

    /// Events created here and not yet acknowledged.
    pub fn queued(&self) -> usize {
        self.inner.borrow().replica.outbox().count()
    }

    /// Sends a request; its answer arrives as `ReplicaEffect::Replied` with this id.
    pub fn request(
        &self,
        event_type: EventType,
        target: Address,
        payload: Value,
        timeout_ms: u64,
    ) -> EventId {
        let mut inner = self.inner.borrow_mut();
        let (id, effects) =
            inner
                .replica
                .request(event_type, target, payload, timeout_ms, now_ms());
        inner.apply(effects);
        id
    }

    /// Opens a file's or context's shared text (from IndexedDB when stored, synced
    /// while online); returns its text. Others' edits arrive as `DocumentChanged`.
    #[cfg(feature = "documents")]
    pub fn open_document(&self, address: &Address) -> Result<String, String> {
        let mut actor = [0u8; 16];
        get_random_values(&mut actor);
        let mut inner = self.inner.borrow_mut();
        let effects = inner
            .replica
            .open_document(address, actor, now_ms())
            .map_err(|r| r.message)?;
        inner.apply(effects);
        Ok(inner.replica.document_text(address).unwrap_or_default())
    }

    /// Opens a document that was open before a reload (from the replica's
    /// stored rows), then applies `typed`: the whole text the person typed
    /// into its cached copy while it loaded, when that differs from the
    /// loaded text. Returns the text to show and, if the typing could not be
    /// applied, why (the document is open either way).
    #[cfg(feature = "documents")]
    pub fn reopen_document(
        &self,
        address: &Address,
        typed: Option<String>,
    ) -> Result<(String, Option<String>), String> {
        let loaded = crate::timing::measured("agentnet: load a saved document", || {
            self.open_document(address)
        })?;
        Ok(match crate::live::typing_to_apply(typed, &loaded) {
            None => (loaded, None),
            Some(typed) => match self.edit_document(address, typed.clone()) {
                Ok(()) => (typed, None),
                Err(reason) => (loaded, Some(reason)),
            },
        })
    }

    /// A local edit of an open document: its whole new text.
    #[cfg(feature = "documents")]
    pub fn edit_document(&self, address: &Address, text: String) -> Result<(), String> {
        let mut inner = self.inner.borrow_mut();
        let edit = agentnet_core::replica::DocumentEdit::Replace(text);
        let effects = inner
            .replica
            .edit_document(address, edit, now_ms())
            .map_err(|r| r.message)?;
        inner.apply(effects);
        Ok(())
    }

    /// Posts an event through the replica (queued while offline); returns its id.
    pub fn post(&self, event_type: EventType, target: Address, payload: Value) -> EventId {
        self.post_with(event_type, target, payload, Map::new())
    }

    /// [`Connection::post`] with metadata (`in_reply_to`, `mentions`, …).
    pub fn post_with(
        &self,
        event_type: EventType,
        target: Address,
        payload: Value,
        metadata: Map<String, Value>,
    ) -> EventId {
        let mut inner = self.inner.borrow_mut();
        let (id, effects) = inner
            .replica
            .post(event_type, target, payload, metadata, now_ms());
        inner.apply(effects);
        id
    }
}
