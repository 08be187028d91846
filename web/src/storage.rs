//! Local-first storage: the replica's rows in IndexedDB, per network.
//!
//! The replica says what to keep (`ReplicaEffect::Persist`); this module
//! appends those rows and reads them back on start so the workspace opens
//! with its history and outbox even when the network is unreachable. The
//! IndexedDB calls themselves are in `web/js/idb.js`.

use agentnet_core::replica::ReplicaRow;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/idb.js")]
extern "C" {
    #[wasm_bindgen(js_name = appendRows, catch)]
    async fn append_rows(network: &str, rows: String) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = loadRows, catch)]
    async fn load_rows(network: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = remembered)]
    fn remembered(key: &str) -> Option<String>;
    #[wasm_bindgen(js_name = remember)]
    fn remember(key: &str, value: &str);
}

/// The rows stored for `network`, oldest first; empty when storage is unavailable.
pub async fn load(network: &str) -> Vec<ReplicaRow> {
    let Ok(text) = load_rows(network).await else {
        return Vec::new();
    };
    text.as_string()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Appends rows for `network`; resolves once they are stored. A failed
/// write is ignored: it loses only the cache, and the caller goes on.
pub async fn append(network: &str, rows: Vec<ReplicaRow>) {
    if rows.is_empty() {
        return;
    }
    let Ok(text) = serde_json::to_string(&rows) else {
        return;
    };
    let _ = append_rows(network, text).await;
}

/// A value kept across reloads (localStorage), if any.
pub fn recall(key: &str) -> Option<String> {
    remembered(key)
}

/// A JSON value kept across reloads, if any and if it still parses as `T`.
pub fn recall_json<T: serde::de::DeserializeOwned>(key: &str) -> Option<T> {
    recall(key).and_then(|text| serde_json::from_str(&text).ok())
}

/// Keeps `value` across reloads.
pub fn keep(key: &str, value: &str) {
    remember(key, value);
}
