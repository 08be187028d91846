//! agentnet-edge-shared: what every Worker of the edge shares, knowing no
//! object: the clock and randomness, requests and responses between
//! workers-rs and the core's bindings (here), the SQLite helpers of every
//! store ([`sql`]), the one door of outbound fetches ([`outbound`]) and the
//! bounded fetch of outside documents ([`bounded_fetch`]), and the handover
//! of the rows of objects that moved to another Worker ([`handover`]).
//!
//! The main Worker (`edge-worker`, whose `host` re-exports this) and the
//! registry Worker (`edge-registry`) use it; it may use only the core and
//! workers-rs.

pub mod bounded_fetch;
pub mod handover;
pub mod outbound;
pub mod sql;

use agentnet_core::bindings::message::MAX_BODY_BYTES;
use agentnet_core::bindings::{self, Body, Method};
use futures_util::StreamExt;
use worker::{Response, Result, wasm_bindgen};

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(buf: &mut [u8]);
}

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
