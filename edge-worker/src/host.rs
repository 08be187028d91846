//! Small host utilities: the clock, randomness and JSON error responses.

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

/// A JSON error body `{code, message}` with the given HTTP status.
pub fn error_response(status: u16, code: &str, message: &str) -> Result<Response> {
    Ok(
        Response::from_json(&serde_json::json!({ "code": code, "message": message }))?
            .with_status(status),
    )
}
