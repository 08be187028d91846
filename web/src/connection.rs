//! The browser's WebSocket link to one network, driven by the core [`Client`].
//!
//! This module only moves frames: the core builds every outgoing event and
//! interprets every incoming frame; the UI receives [`Incoming`] values.

use agentnet_core::client::{Client, Incoming};
use agentnet_core::{Event, Limits};
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
    /// The join was accepted: the link is usable.
    Online,
    /// The socket closed.
    Offline,
    /// A frame from the network, as the core reads it.
    Frame(Incoming),
}

/// An open (or opening) link to a network.
#[derive(Clone)]
pub struct Connection {
    socket: WebSocket,
    client: Rc<RefCell<Client>>,
}

impl Connection {
    /// Opens `url` and joins as the client's address; `on_signal` sees everything that happens.
    pub fn open(
        url: &str,
        client: Client,
        on_signal: impl Fn(Signal) + 'static,
    ) -> Result<Self, JsValue> {
        let socket = WebSocket::new(url)?;
        let client = Rc::new(RefCell::new(client));
        let on_signal = Rc::new(on_signal);

        let join_client = client.clone();
        let join_socket = socket.clone();
        let on_open = Closure::<dyn FnMut()>::new(move || {
            let frame = join_client.borrow_mut().join(None, now_ms()).encode();
            let _ = join_socket.send_with_str(&frame);
        });
        socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        on_open.forget();

        let read_client = client.clone();
        let read_signal = on_signal.clone();
        let join_pending = Rc::new(RefCell::new(true));
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |message: MessageEvent| {
            let Some(text) = message.data().as_string() else {
                return;
            };
            let Ok(event) = Event::decode(&text, &Limits::default()) else {
                return;
            };
            let incoming = read_client.borrow().interpret(event);
            if matches!(incoming, Incoming::Ack { .. }) && join_pending.replace(false) {
                read_signal(Signal::Online);
                return;
            }
            read_signal(Signal::Frame(incoming));
        });
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();

        let on_close =
            Closure::<dyn FnMut(CloseEvent)>::new(move |_: CloseEvent| on_signal(Signal::Offline));
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        on_close.forget();

        Ok(Self { socket, client })
    }

    /// Builds an event with the core client and sends it; returns the event.
    pub fn send(&self, build: impl FnOnce(&mut Client, u64) -> Event) -> Result<Event, JsValue> {
        let event = build(&mut self.client.borrow_mut(), now_ms());
        self.socket.send_with_str(&event.encode())?;
        Ok(event)
    }
}
