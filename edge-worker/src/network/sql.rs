//! Small helpers over the object's SQLite that every store in the network
//! object shares: bound values ([`text`], [`integer`]) and whether a table
//! exists ([`table_exists`]). A leaf: the stores (`crate::network::storage`,
//! `crate::network::text_index`, …) use it without using each other.

use worker::{SqlStorage, SqlStorageValue};

/// A text value to bind.
pub(crate) fn text(value: impl Into<String>) -> SqlStorageValue {
    SqlStorageValue::from(value.into())
}

/// An integer value to bind (SQLite's integers are signed 64-bit).
pub(crate) fn integer(value: u64) -> worker::Result<SqlStorageValue> {
    i64::try_from(value)
        .map(SqlStorageValue::from)
        .map_err(|_| worker::Error::RustError("value exceeds SQLite's integer range".into()))
}

/// Whether the object's SQLite has a table (or index) named `name`, read without creating it.
pub(crate) fn table_exists(sql: &SqlStorage, name: &str) -> worker::Result<bool> {
    let query = "SELECT name FROM sqlite_master WHERE name = ?";
    let rows: Vec<serde_json::Value> = sql.exec(query, vec![text(name)])?.to_array()?;
    Ok(!rows.is_empty())
}
