//! `NetworkObject`: the class workerd instantiates for each network, and the
//! methods it calls (fetch, alarm, the hibernation API's WebSocket events).
//!
//! Everything they do is [`NetworkHost`]'s; this module only receives the
//! calls. `#[durable_object(fetch)]` generates the constructor and `fetch`;
//! the other methods are written out here because a WebSocket frame should
//! cost no more than its text: workers-rs's generated `webSocketMessage` is
//! an `async fn`, so every frame built a `Promise` and queued a task, even a
//! frame that only joins the drain already running (most frames under load).
//! Here such a frame is queued synchronously and the call returns at once;
//! only a frame that starts a drain returns a promise, which settles when the
//! drain ends.

use crate::network::inbox::Drainer;
use crate::network::object::NetworkHost;
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use worker::worker_sys::web_sys;
use worker::{DurableObject, Env, Request, Response, Result, State, durable_object};

/// One network's Durable Object.
#[durable_object(fetch)]
pub struct NetworkObject {
    /// Shared with the drain task a frame may start.
    host: Rc<NetworkHost>,
}

impl DurableObject for NetworkObject {
    fn new(state: State, env: Env) -> Self {
        Self {
            host: Rc::new_cyclic(|me| NetworkHost::new(state, env, me.clone())),
        }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        self.host.fetch(req).await
    }
}

/// A handler's outcome as workers-rs's generated methods return it.
fn settled(result: Result<()>) -> std::result::Result<JsValue, JsValue> {
    result.map(|()| JsValue::NULL).map_err(JsValue::from)
}

#[wasm_bindgen::prelude::wasm_bindgen(
    wasm_bindgen = ::worker::wasm_bindgen,
    wasm_bindgen_futures = ::worker::wasm_bindgen_futures,
    js_sys = ::worker::js_sys
)]
impl NetworkObject {
    /// A WebSocket frame: queued at once; `undefined` when the running drain
    /// takes it, otherwise a promise of the drain it starts.
    #[wasm_bindgen(js_name = webSocketMessage)]
    pub fn web_socket_message(&self, ws: web_sys::WebSocket, message: JsValue) -> JsValue {
        let text = crate::host::frame_text(&message);
        match self.host.queue_frame(ws.into(), text) {
            None => JsValue::UNDEFINED,
            Some(drainer) => drain_task(Rc::clone(&self.host), drainer).into(),
        }
    }

    /// A WebSocket closed.
    #[wasm_bindgen(js_name = webSocketClose)]
    pub async fn web_socket_close(
        &self,
        ws: web_sys::WebSocket,
        code: usize,
        _reason: String,
        _was_clean: bool,
    ) -> std::result::Result<JsValue, JsValue> {
        AssertUnwindSafe(async move { settled(self.host.connection_closed(&ws.into(), code)) })
            .await
    }

    /// A WebSocket failed: closed as by an error.
    #[wasm_bindgen(js_name = webSocketError)]
    pub async fn web_socket_error(
        &self,
        ws: web_sys::WebSocket,
        _error: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        AssertUnwindSafe(async move { settled(self.host.connection_closed(&ws.into(), 1011)) })
            .await
    }

    /// The alarm the object set has fired.
    #[wasm_bindgen(js_name = alarm)]
    pub async fn alarm(&self) -> std::result::Result<JsValue, JsValue> {
        AssertUnwindSafe(async move { crate::host::alarm_answer(self.host.alarm().await) }).await
    }
}

/// The drain a frame started, as a promise workerd waits on.
fn drain_task(host: Rc<NetworkHost>, drainer: Drainer) -> worker::js_sys::Promise {
    worker::wasm_bindgen_futures::future_to_promise(AssertUnwindSafe(async move {
        settled(host.drain(drainer).await)
    }))
}
