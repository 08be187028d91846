//! Small host utilities: the clock, randomness, and requests and responses
//! between workers-rs and the core's bindings.

use agentnet_core::bindings::{self, Body, Method};
use worker::{Response, Result, wasm_bindgen};

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(buf: &mut [u8]);
}

/// Current unix time in milliseconds.
pub fn now_ms() -> u64 {
    worker::Date::now().as_millis()
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

/// The request as the bindings read it, with the body of a POST. Every POST
/// body is read before any answer: the runtime faults a request whose body
/// is still unread when its response goes out.
pub async fn request_of(
    req: &mut worker::Request,
) -> std::result::Result<bindings::Request, bindings::Response> {
    let mut request = request_head(req);
    if request.method == Method::Post {
        request.body = req
            .text()
            .await
            .map_err(|_| bindings::Response::unreadable_body())?;
    }
    Ok(request)
}

/// Writes a binding's response.
pub fn respond(response: bindings::Response) -> Result<Response> {
    let mut written = match &response.body {
        Body::Json(value) => Response::from_json(value)?,
        Body::Text(text) => Response::ok(text.as_str())?,
    }
    .with_status(response.status);
    for (name, value) in &response.headers {
        written.headers_mut().set(name, value)?;
    }
    Ok(written)
}
