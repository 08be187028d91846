//! Stored files' records and the network's link key in the object's SQLite
//! storage (`files`, `file_key`): the host side of
//! `agentnet_core::bindings::http::files::FileStore` (implemented in
//! `crate::network::files`). The bytes are in R2
//! (`crate::network::files`); the key is never answered or logged.

use crate::host::sql::{
    integer, json_value, json_values, keep_secret, run, secret, select_first, text,
};
use agentnet_core::Address;
use agentnet_core::Timestamp;
use agentnet_core::files::{FileId, StoredFile};
use serde::Deserialize;
use worker::{Result, SqlStorage};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS files (id TEXT PRIMARY KEY, resource TEXT NOT NULL, size INTEGER NOT NULL, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS files_by_resource ON files (resource);
CREATE TABLE IF NOT EXISTS file_key (id INTEGER PRIMARY KEY CHECK (id = 0), secret TEXT NOT NULL);
";

/// Creates the tables (with the store's, when the object first opens it).
pub(crate) fn open(sql: &SqlStorage) -> Result<()> {
    run(sql, SCHEMA, None)
}

#[derive(Deserialize)]
struct Total {
    total: Option<f64>,
}

/// A file's record.
pub(crate) fn get(sql: &SqlStorage, id: &FileId) -> Result<Option<StoredFile>> {
    let query = "SELECT record AS value FROM files WHERE id = ?";
    json_value(sql, query, id.as_str())
}

/// The files registered as `resource` (one, unless ids collided).
pub(crate) fn of_resource(sql: &SqlStorage, resource: &Address) -> Result<Vec<StoredFile>> {
    let query = "SELECT record AS value FROM files WHERE resource = ?";
    json_values(sql, query, vec![text(resource.to_string())])
}

/// Forgets the uploads abandoned by `now` (`StoredFile::is_abandoned`); returns them.
pub(crate) fn take_abandoned(sql: &SqlStorage, now: Timestamp) -> Result<Vec<StoredFile>> {
    let files: Vec<StoredFile> = json_values(sql, "SELECT record AS value FROM files", None)?;
    let abandoned: Vec<StoredFile> = files.into_iter().filter(|f| f.is_abandoned(now)).collect();
    for file in &abandoned {
        remove(sql, &file.id)?;
    }
    Ok(abandoned)
}

/// Keeps a file's record.
pub(crate) fn save(sql: &SqlStorage, file: &StoredFile) -> Result<()> {
    let record =
        serde_json::to_string(file).map_err(|e| worker::Error::RustError(e.to_string()))?;
    run(
        sql,
        "INSERT OR REPLACE INTO files (id, resource, size, record) VALUES (?, ?, ?, ?)",
        vec![
            text(file.id.as_str()),
            text(file.resource.to_string()),
            integer(file.size)?,
            text(record),
        ],
    )
}

/// Forgets a file's record (its bytes are gone).
pub(crate) fn remove(sql: &SqlStorage, id: &FileId) -> Result<()> {
    run(
        sql,
        "DELETE FROM files WHERE id = ?",
        vec![text(id.as_str())],
    )
}

/// Every byte the files hold or are being uploaded into.
pub(crate) fn used(sql: &SqlStorage) -> Result<u64> {
    let row: Option<Total> = select_first(sql, "SELECT SUM(size) AS total FROM files", None)?;
    Ok(row.and_then(|r| r.total).unwrap_or(0.0) as u64)
}

/// The link key, made from `seed` and kept on first use.
pub(crate) fn key(sql: &SqlStorage, seed: [u8; 32]) -> Result<[u8; 32]> {
    if let Some(key) = secret(sql, "file_key")?.as_deref().and_then(from_hex) {
        return Ok(key);
    }
    let hex: String = seed.iter().map(|b| format!("{b:02x}")).collect();
    keep_secret(sql, "file_key", &hex)?;
    Ok(seed)
}

fn from_hex(text: &str) -> Option<[u8; 32]> {
    let mut key = [0u8; 32];
    if text.len() != 64 {
        return None;
    }
    for (i, slot) in key.iter_mut().enumerate() {
        *slot = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(key)
}
