//! The browser's clock and cryptographic random source, as the core takes
//! them: time in milliseconds and randomness passed in, never read by it.

use agentnet_core::Timestamp;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(buf: &mut [u8]);
}

/// Current unix time in milliseconds.
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// The current moment, as the replica's entry points take it.
pub fn now() -> Timestamp {
    Timestamp::from_millis(now_ms())
}

/// 32 bytes from the browser's cryptographic random source.
pub fn random_seed() -> [u8; 32] {
    let mut seed = [0u8; 32];
    get_random_values(&mut seed);
    seed
}

/// A random number for the replica's reconnection jitter.
pub fn random_u32() -> u32 {
    let mut bytes = [0u8; 4];
    get_random_values(&mut bytes);
    u32::from_le_bytes(bytes)
}

/// Fills `bytes` from the browser's cryptographic random source.
pub fn fill_random(bytes: &mut [u8]) {
    get_random_values(bytes);
}
