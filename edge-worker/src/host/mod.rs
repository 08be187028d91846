//! The host utilities every object and the Worker share: the clock,
//! randomness, and requests and responses between workers-rs and the core's
//! bindings (here), the one door of outbound fetches and the bounded fetch
//! of outside documents, the counts only test hooks read ([`counter`]), the
//! stores' SQLite helpers ([`sql`]), where an input's
//! answers go, text frames (sent, and read: [`frame_text`]), heartbeats
//! answered by workerd ([`answer_heartbeats`]), the one outlet of every SSE stream ([`sse`]), and
//! the stubs of the deployment-wide objects.
//!
//! May use only the core and workers-rs: nothing here knows an object.

pub mod assets;
pub mod bounded_fetch;
pub mod counter;
pub mod forward;
pub mod frame_texts;
pub mod origin;
pub mod outbound;
pub mod sql;
pub mod sse;
pub mod stubs;
#[cfg(feature = "test-hooks")]
pub mod test_hooks;

use agentnet_core::bindings::access::cors;
use agentnet_core::bindings::message::MAX_BODY_BYTES;
use agentnet_core::bindings::{self, Body, Method};
use futures_util::StreamExt;
use worker::{Response, Result, wasm_bindgen};

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(buf: &mut [u8]);
}

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

/// Current unix time in milliseconds (`Date.now()`: a number, where
/// `worker::Date::now()` allocates a JS `Date` on every call, and the clock
/// is read for every frame).
pub fn now_ms() -> u64 {
    worker::js_sys::Date::now() as u64
}

/// The current moment, as the core's entry points take it (read once per
/// call; `now_ms` where a host's own row or timer wants the number).
pub fn now() -> agentnet_core::Timestamp {
    agentnet_core::Timestamp::from_millis(now_ms())
}

/// 32 bytes from the platform's cryptographic random source.
pub fn random_seed() -> [u8; 32] {
    let mut seed = [0u8; 32];
    get_random_values(&mut seed);
    seed
}

/// The request as the bindings read it, without its body.
pub fn request_head(req: &worker::Request) -> bindings::Request {
    bindings::Request {
        method: Method::parse(req.method().as_ref()),
        url: req.inner().url(),
        headers: req.headers().entries().collect(),
        body: String::new(),
    }
}

/// The request as the bindings read it, with its body (see [`read_body`]):
/// read whatever the method, so no answer leaves before the body is consumed.
pub async fn request_of(
    req: &mut worker::Request,
) -> std::result::Result<bindings::Request, bindings::Response> {
    let mut request = request_head(req);
    request.body = read_body(req).await?;
    Ok(request)
}

/// A request's body as text, never holding more than [`MAX_BODY_BYTES`]
/// (see [`read_bytes`]).
pub async fn read_body(
    req: &mut worker::Request,
) -> std::result::Result<String, bindings::Response> {
    let bytes = read_bytes(req, MAX_BODY_BYTES).await?;
    String::from_utf8(bytes).map_err(|_| bindings::Response::unreadable_body())
}

/// A request's body, never holding more than `limit` bytes. A longer body
/// (declared so, or found so while reading) is read to its end and dropped
/// chunk by chunk, then refused: answering while the client still sends
/// resets the connection, and the client sees a failure instead of 413.
pub async fn read_bytes(
    req: &mut worker::Request,
    limit: usize,
) -> std::result::Result<Vec<u8>, bindings::Response> {
    let length = req.headers().get("content-length").ok().flatten();
    let mut too_large = bindings::message::declared_over(length.as_deref(), limit);
    let Ok(mut chunks) = req.stream() else {
        return Ok(Vec::new()); // no body at all
    };
    let mut bytes = Vec::new();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(|_| bindings::Response::unreadable_body())?;
        too_large = too_large || bytes.len() + chunk.len() > limit;
        if too_large {
            bytes = Vec::new();
        } else {
            bytes.extend_from_slice(&chunk);
        }
    }
    if too_large {
        return Err(bindings::Response::body_too_large());
    }
    Ok(bytes)
}

/// Writes a binding's response.
pub fn respond(response: bindings::Response) -> Result<Response> {
    let mut written = match &response.body {
        // A 204 (a preflight's answer) may carry no body at all.
        Body::Text(text) if text.is_empty() && response.status == 204 => Response::empty()?,
        Body::Json(value) => Response::from_json(value)?,
        Body::Text(text) => Response::ok(text.as_str())?,
    }
    .with_status(response.status);
    for (name, value) in &response.headers {
        written.headers_mut().set(name, value)?;
    }
    Ok(written)
}

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
