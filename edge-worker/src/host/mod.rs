//! The host utilities every object and the Worker share: the clock,
//! randomness, requests and responses, the stores' SQLite helpers
//! ([`sql`]), the one door of outbound fetches and the bounded fetch of
//! outside documents (re-exported from `agentnet-edge-shared`, which the
//! registry Worker shares), the counts only test hooks read ([`counter`]), where an input's
//! answers go, text frames (sent, and read: [`frame_text`]), heartbeats
//! answered by workerd ([`answer_heartbeats`]), the one outlet of every SSE stream ([`sse`]), and
//! the stubs of the deployment-wide objects, and futures polled through a pointer ([`apart`]).
//!
//! May use only the core and workers-rs: nothing here knows an object.

pub mod apart;
pub mod assets;
pub mod conn;
pub mod counter;
pub mod forward;
pub mod frame_texts;
pub mod origin;
pub mod sse;
pub mod stubs;
#[cfg(feature = "test-hooks")]
pub mod test_hooks;

pub use agentnet_edge_shared::{
    bounded_fetch, handover, now, now_ms, outbound, random_seed, read_body, read_bytes,
    request_head, request_of, respond, sql,
};

use agentnet_core::bindings;
use agentnet_core::bindings::access::cors;
use worker::{Response, Result, wasm_bindgen};

/// The names this deployment answers for: loopback, and the `AGENTNET_HOSTS`
/// variable's list (see [`bindings::access::hosts`]).
pub fn known_hosts(env: &worker::Env) -> bindings::access::hosts::KnownHosts {
    let list = env
        .var("AGENTNET_HOSTS")
        .map(|v| v.to_string())
        .unwrap_or_default();
    bindings::access::hosts::KnownHosts::parse(&list)
}

/// The Durable Object namespace of networks, declared in `wrangler.toml`.
pub const NETWORKS_BINDING: &str = "NETWORKS";

/// Serves a request the way the core's CORS decision says: its answer (a
/// preflight, a refused origin), or `serve`'s response with the headers added.
/// A WebSocket upgrade's `101` is left as it is.
pub async fn with_cors<F>(decision: cors::Decision, serve: F) -> Result<Response>
where
    F: std::future::Future<Output = Result<Response>>,
{
    let headers = match decision {
        cors::Decision::Answer(answer) => return respond(answer),
        cors::Decision::Proceed(headers) => headers,
    };
    let response = serve.await?;
    if headers.is_empty() || response.status_code() == 101 {
        return Ok(response);
    }
    // A response from another object is immutable: write the headers on a copy.
    let copy = response.headers().clone();
    for (name, value) in &headers {
        copy.set(name, value)?;
    }
    Ok(response.with_headers(copy))
}

/// The text of a WebSocket message workerd hands a Durable Object; a binary
/// frame reads as a text the core refuses as an envelope.
pub(crate) fn frame_text(message: &wasm_bindgen::JsValue) -> String {
    message
        .as_string()
        .unwrap_or_else(|| "binary frames are not event envelopes".to_owned())
}

/// Has workerd answer the replica's heartbeat frames on the object's sockets
/// itself, without waking the object.
pub(crate) fn answer_heartbeats(state: &worker::State) {
    if let Ok(pair) = worker::worker_sys::WebSocketRequestResponsePair::new(
        agentnet_core::replica::HEARTBEAT_PING,
        agentnet_core::replica::HEARTBEAT_PONG,
    ) {
        state.set_websocket_auto_response(&pair);
    }
}

/// A Durable Object's answer to workerd's `alarm()` call: the response, or its error.
pub(crate) fn alarm_answer(
    answer: Result<Response>,
) -> std::result::Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
    answer
        .map(worker::worker_sys::web_sys::Response::from)
        .map(wasm_bindgen::JsValue::from)
        .map_err(wasm_bindgen::JsValue::from)
}
