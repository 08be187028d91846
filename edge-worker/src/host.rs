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

/// The request's origin (`scheme://host[:port]`), read from the serialized URL
/// without the `url` crate (whose IDNA tables would add ~370 KB to the wasm).
pub fn origin(req: &worker::Request) -> String {
    let url = req.inner().url();
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let end = url[after_scheme..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| after_scheme + i);
    url[..end].to_owned()
}

/// The first value of query parameter `key`, percent-decoded.
pub fn query_param(req: &worker::Request, key: &str) -> Option<String> {
    let url = req.inner().url();
    let query = url.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or("");
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (percent_decode(k) == key).then(|| percent_decode(v))
    })
}

/// Decodes `%XX` escapes and `+` (form encoding) in a query component.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                // Bytes, not string slices: a multi-byte character after `%` must not panic.
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(agentnet_core::crypto::from_hex::<1>) {
                    Some([byte]) => {
                        out.push(byte);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            other => out.push(other),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::percent_decode;

    #[test]
    fn decodes_query_components() {
        assert_eq!(percent_decode("agent%3Aalice"), "agent:alice");
        assert_eq!(percent_decode("a+b"), "a b");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%41%42"), "AB");
        assert_eq!(percent_decode("%aé"), "%aé");
        assert_eq!(percent_decode("%é"), "%é");
    }
}
