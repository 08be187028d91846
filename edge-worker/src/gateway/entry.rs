//! `GatewayObject`: the class workerd instantiates for each connection
//! gateway, and the methods it calls (fetch, the hibernation API's WebSocket
//! events). Everything they do is [`GatewayHost`]'s; as in `crate::network::entry`,
//! a frame is handled synchronously, with no promise per frame.

use crate::gateway::object::GatewayHost;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use worker::worker_sys::web_sys;
use worker::{DurableObject, Env, Request, Response, Result, State, durable_object};

/// One connection gateway's Durable Object.
#[durable_object(fetch)]
pub struct GatewayObject {
    host: Rc<GatewayHost>,
}

impl DurableObject for GatewayObject {
    fn new(state: State, env: Env) -> Self {
        Self {
            host: Rc::new_cyclic(|me| GatewayHost::new(state, env, me.clone())),
        }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        self.host.fetch(req).await
    }
}

#[wasm_bindgen::prelude::wasm_bindgen(
    wasm_bindgen = ::worker::wasm_bindgen,
    wasm_bindgen_futures = ::worker::wasm_bindgen_futures,
    js_sys = ::worker::js_sys
)]
impl GatewayObject {
    /// A WebSocket frame.
    #[wasm_bindgen(js_name = webSocketMessage)]
    pub fn web_socket_message(&self, ws: web_sys::WebSocket, message: JsValue) -> JsValue {
        let text = crate::host::frame_text(&message);
        self.host.frame(&ws.into(), &text);
        JsValue::UNDEFINED
    }

    /// A WebSocket closed.
    #[wasm_bindgen(js_name = webSocketClose)]
    pub fn web_socket_close(
        &self,
        ws: web_sys::WebSocket,
        code: usize,
        _reason: String,
        _was_clean: bool,
    ) -> JsValue {
        self.host.closed(&ws.into(), code);
        JsValue::UNDEFINED
    }

    /// The alarm the gateway set has fired (a socket's time to join).
    #[wasm_bindgen(js_name = alarm)]
    pub async fn alarm(&self) -> std::result::Result<JsValue, JsValue> {
        crate::host::alarm_answer(self.host.alarm().await)
    }

    /// A WebSocket failed: closed as by an error.
    #[wasm_bindgen(js_name = webSocketError)]
    pub fn web_socket_error(&self, ws: web_sys::WebSocket, _error: JsValue) -> JsValue {
        self.host.closed(&ws.into(), 1011);
        JsValue::UNDEFINED
    }
}
