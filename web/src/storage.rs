//! Local-first storage: the replica's rows in IndexedDB, per network, kept
//! compact.
//!
//! The replica says what to keep (`ReplicaEffect::Persist`). Each row has a
//! key that names what it is about ([`key_of`]): the one watermark, one log
//! entry per `seq`, one outbox entry per event, one member secret per
//! address, one piece of a document per key. A row replaces the row with its
//! key and a removal deletes it, so the store holds what the replica holds
//! now, not its history of changes; the log keeps the newest [`LOG_KEPT`]
//! events (the replica's memory the same, `Replica::set_log_limit`). On
//! start only that is read: the network's own log has the rest. The
//! IndexedDB calls themselves are in `web/js/idb.js`, which also moves rows
//! an older version appended into this form once.

use agentnet_core::documents::DocumentRow;
use agentnet_core::replica::ReplicaRow;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The events of a network's log kept in IndexedDB (and shown after a reload).
pub const LOG_KEPT: usize = 500;

#[wasm_bindgen(module = "/js/idb.js")]
extern "C" {
    #[wasm_bindgen(js_name = writeRows, catch)]
    async fn write_rows(network: &str, ops: String, log_kept: u32) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = loadRows, catch)]
    async fn load_rows(network: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = appendedRows, catch)]
    async fn appended_rows(network: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = dropAppendedRows, catch)]
    async fn drop_appended_rows(network: &str) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = remembered)]
    fn remembered(key: &str) -> Option<String>;
    #[wasm_bindgen(js_name = remember)]
    fn remember(key: &str, value: &str);
    #[wasm_bindgen(js_name = keptValue)]
    async fn kept_value(key: &str) -> JsValue;
    #[wasm_bindgen(js_name = keepValue)]
    async fn keep_value(key: &str, value: &str) -> JsValue;
}

/// One change to the store.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Op {
    /// Keep `row` under `key` (replacing what was there).
    Put {
        /// What the row is about.
        key: String,
        /// The row.
        row: Box<ReplicaRow>,
    },
    /// Forget the row under `key`.
    Delete {
        /// What is forgotten.
        key: String,
        /// Always true (how idb.js tells a deletion).
        delete: bool,
    },
}

/// The prefix of log entries' keys (idb.js trims them to the newest [`LOG_KEPT`]).
pub const LOG_PREFIX: &str = "l:";

/// The key `row` is kept under, and whether the row removes what is there.
pub fn key_of(row: &ReplicaRow) -> (String, bool) {
    match row {
        ReplicaRow::Watermark { .. } => ("w".to_owned(), false),
        // Zero-padded: keys sort as the seqs do.
        ReplicaRow::Logged { seq, .. } => (format!("{LOG_PREFIX}{seq:020}"), false),
        ReplicaRow::Outbox(entry) => (format!("o:{}", entry.event.id), false),
        ReplicaRow::OutboxRemoved { id } => (format!("o:{id}"), true),
        ReplicaRow::MemberSecret { address, .. } => (format!("s:{address}"), false),
        ReplicaRow::Document(row) => (format!("d:{}", row.key()), false),
        ReplicaRow::DocumentRemoved {
            address,
            writer,
            part,
        } => (
            format!("d:{}", DocumentRow::key_of(address, writer, *part)),
            true,
        ),
    }
}

/// The changes that keep `rows` (in the order the replica gave them).
pub fn ops_of(rows: Vec<ReplicaRow>) -> Vec<Op> {
    rows.into_iter()
        .map(|row| match key_of(&row) {
            (key, true) => Op::Delete { key, delete: true },
            (key, false) => Op::Put {
                key,
                row: Box::new(row),
            },
        })
        .collect()
}

fn rows_in(answer: Result<JsValue, JsValue>) -> Vec<ReplicaRow> {
    answer
        .ok()
        .and_then(|text| text.as_string())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// The rows stored for `network`, in key order; empty when storage is
/// unavailable. Rows an older version appended are compacted first.
pub async fn load(network: &str) -> Vec<ReplicaRow> {
    let appended = rows_in(appended_rows(network).await);
    if !appended.is_empty() && write(network, appended).await {
        let _ = drop_appended_rows(network).await;
    }
    rows_in(load_rows(network).await)
}

/// Keeps rows for `network`; resolves once they are stored, true when they
/// are. A failed write loses only the cache: the caller goes on.
pub async fn write(network: &str, rows: Vec<ReplicaRow>) -> bool {
    if rows.is_empty() {
        return true;
    }
    let Ok(text) = serde_json::to_string(&ops_of(rows)) else {
        return false;
    };
    write_rows(network, text, LOG_KEPT as u32).await.is_ok()
}

/// The key the member secret of `address` in `network` is kept under (see [`recall`]).
pub fn secret_key(network: &str, address: &str) -> String {
    format!("secret:{network}:{address}")
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

/// A value kept across reloads in IndexedDB (beside the replica's rows), if any.
pub async fn recall_kept(key: &str) -> Option<String> {
    kept_value(key).await.as_string()
}

/// Keeps `value` across reloads in IndexedDB; resolves true once stored.
pub async fn keep_in_db(key: &str, value: &str) -> bool {
    keep_value(key, value).await.as_bool().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentnet_core::documents::Part;
    use agentnet_core::{Event, EventId, Limits};
    use serde_json::json;

    fn event(n: u128) -> Event {
        Event::from_value(
            json!({
                "id": EventId::from_parts(1, n).to_string(), "type": "workspace.message.posted",
                "source": "agent:x", "target": "agent:broadcast", "payload": {}, "timestamp": 1,
            }),
            &Limits::default(),
        )
        .unwrap()
    }

    #[test]
    fn rows_about_the_same_thing_share_a_key_and_removals_delete_it() {
        let watermarks: Vec<String> = [1, 2, 99]
            .map(|seq| key_of(&ReplicaRow::Watermark { seq }).0)
            .to_vec();
        assert!(watermarks.iter().all(|k| k == "w"), "one watermark row");
        // Log keys sort as seqs do, so the newest are the last keys.
        let (k9, _) = key_of(&ReplicaRow::Logged {
            seq: 9,
            event: event(1),
        });
        let (k10, _) = key_of(&ReplicaRow::Logged {
            seq: 10,
            event: event(2),
        });
        assert!(k9 < k10 && k9.starts_with(LOG_PREFIX), "{k9} {k10}");
        // An outbox entry and its removal name the same key.
        let entry = agentnet_core::replica::OutboxEntry {
            event: event(3),
            state: agentnet_core::replica::OutboxState::Pending,
        };
        let put = key_of(&ReplicaRow::Outbox(entry));
        let removed = key_of(&ReplicaRow::OutboxRemoved {
            id: EventId::from_parts(1, 3),
        });
        assert_eq!((put.0.clone(), put.1), (removed.0.clone(), false));
        assert!(removed.1);
        // So does a document piece and its removal.
        let address: agentnet_core::Address = "resource/file/plan.md".parse().unwrap();
        let piece = DocumentRow {
            address: address.clone(),
            writer: "tab1".into(),
            part: Part::Chunk(4),
            data: String::new(),
        };
        let gone = ReplicaRow::DocumentRemoved {
            address,
            writer: "tab1".into(),
            part: Part::Chunk(4),
        };
        assert_eq!(key_of(&ReplicaRow::Document(piece)).0, key_of(&gone).0);
        let ops = ops_of(vec![gone]);
        assert!(matches!(&ops[..], [Op::Delete { delete: true, .. }]));
        assert_eq!(
            serde_json::to_value(&ops[0]).unwrap()["delete"],
            json!(true)
        );
    }
}
