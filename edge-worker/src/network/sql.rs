//! Small helpers over the object's SQLite that every store in the network
//! object shares: bound values ([`text`], [`integer`]), whether a table
//! exists ([`table_exists`]) and a table's one secret ([`secret`],
//! [`keep_secret`]). A leaf: the stores (`crate::network::storage`,
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

/// The secret kept in `table`, a table of one row (`id = 0`, `secret`),
/// when one was kept.
pub(crate) fn secret(sql: &SqlStorage, table: &str) -> worker::Result<Option<String>> {
    #[derive(serde::Deserialize)]
    struct Kept {
        secret: String,
    }
    let query = format!("SELECT secret FROM {table} WHERE id = 0");
    let rows: Vec<Kept> = sql.exec(&query, None)?.to_array()?;
    Ok(rows.into_iter().next().map(|kept| kept.secret))
}

/// Keeps `secret` as `table`'s one row.
pub(crate) fn keep_secret(sql: &SqlStorage, table: &str, secret: &str) -> worker::Result<()> {
    let query = format!("INSERT OR REPLACE INTO {table} (id, secret) VALUES (0, ?)");
    sql.exec(&query, vec![text(secret)])?;
    Ok(())
}
