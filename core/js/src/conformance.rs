//! The conformance-vector runner for JS (`core/tests/vectors/`): proves the
//! wasm core answers each vector as the native one does. It runs a whole
//! in-memory network, so only the full build has it (feature `conformance`).

use crate::errors::js_error;
use wasm_bindgen::prelude::*;

/// Runs one JSON conformance vector (see `core/tests/vectors/`) against the wasm core.
#[wasm_bindgen(js_name = runConformanceVector)]
pub fn run_conformance_vector(vector: &str) -> Result<(), JsValue> {
    agentnet_core::host::conformance::run_vector(vector)
        .map_err(|e| js_error("conformance_failed", &e.to_string()))
}
