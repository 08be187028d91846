//! The browser's WebSocket link to one network, driven by the core [`Replica`].
//!
//! This module only moves frames and timers: the replica builds every
//! outgoing event, applies every incoming frame and says what happened as
//! [`ReplicaEffect`]s, which the UI receives.

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

/// How often the replica's timers (resends, request deadlines) are checked.
const TIMER_INTERVAL_MS: i32 = 1_000;

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
    /// The socket closed.
    Offline,
    /// Something the replica reports.
    Replica(Box<ReplicaEffect>),
}

struct Inner {
    socket: WebSocket,
    replica: Replica,
    on_signal: Box<dyn Fn(Signal)>,
}

impl Inner {
    fn apply(&mut self, effects: Vec<ReplicaEffect>) {
        for effect in effects {
            match effect {
                ReplicaEffect::Send(frame) => {
                    if self.socket.ready_state() == WebSocket::OPEN {
                        let _ = self.socket.send_with_str(&frame);
                    }
                }
                other => (self.on_signal)(Signal::Replica(Box::new(other))),
            }
        }
    }
}

/// An open (or opening) link to a network.
#[derive(Clone)]
pub struct Connection {
    inner: Rc<RefCell<Inner>>,
}

impl Connection {
    /// Opens `url` and joins with `replica`; `on_signal` sees everything that happens.
    pub fn open(
        url: &str,
        replica: Replica,
        on_signal: impl Fn(Signal) + 'static,
    ) -> Result<Self, JsValue> {
        let socket = WebSocket::new(url)?;
        let inner = Rc::new(RefCell::new(Inner {
            socket: socket.clone(),
            replica,
            on_signal: Box::new(on_signal),
        }));

        let opened = inner.clone();
        let on_open = Closure::<dyn FnMut()>::new(move || {
            let mut inner = opened.borrow_mut();
            let effects = inner.replica.connected(None, now_ms());
            inner.apply(effects);
        });
        socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        on_open.forget();

        let reader = inner.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |message: MessageEvent| {
            if let Some(text) = message.data().as_string() {
                let mut inner = reader.borrow_mut();
                let effects = inner.replica.receive(&text, now_ms());
                inner.apply(effects);
            }
        });
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();

        let closer = inner.clone();
        let on_close = Closure::<dyn FnMut(CloseEvent)>::new(move |_: CloseEvent| {
            let mut inner = closer.borrow_mut();
            inner.replica.disconnected();
            (inner.on_signal)(Signal::Offline);
        });
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        on_close.forget();

        let ticker = inner.clone();
        let on_tick = Closure::<dyn FnMut()>::new(move || {
            let mut inner = ticker.borrow_mut();
            if inner
                .replica
                .poll_timeout()
                .is_some_and(|at| at <= now_ms())
            {
                let effects = inner.replica.handle_timeout(now_ms());
                inner.apply(effects);
            }
        });
        web_sys::window()
            .ok_or_else(|| JsValue::from_str("no window"))?
            .set_interval_with_callback_and_timeout_and_arguments_0(
                on_tick.as_ref().unchecked_ref(),
                TIMER_INTERVAL_MS,
            )?;
        on_tick.forget();

        Ok(Self { inner })
    }

    /// The participant's address.
    pub fn address(&self) -> Address {
        self.inner.borrow().replica.address().clone()
    }

    /// Posts an event through the replica (queued while offline); returns its id.
    pub fn post(&self, event_type: EventType, target: Address, payload: Value) -> EventId {
        let mut inner = self.inner.borrow_mut();
        let (id, effects) = inner
            .replica
            .post(event_type, target, payload, Map::new(), now_ms());
        inner.apply(effects);
        id
    }
}
