//! Small helpers over an object's SQLite that every store of the edge's objects
//! shares: bound values ([`text`], [`integer`], [`clamped_integer`]), running a statement
//! ([`run`]) and reading its rows ([`select`], [`select_first`], [`json_values`], [`json_value`]),
//! keeping a table's newest rows ([`keep_newest`]), whether a table exists
//! ([`table_exists`]) and a table's one secret ([`secret`], [`keep_secret`]).
//! A leaf: the stores of every object (the network object's storage, the registry's discovery store,
//! MCP's store, …) use it without using each other.

use serde::de::DeserializeOwned;
use worker::{SqlStorage, SqlStorageValue};

/// What a statement binds: its `?` values in order, or `None`.
pub type Bindings = Option<Vec<SqlStorageValue>>;

/// A text value to bind.
pub fn text(value: impl Into<String>) -> SqlStorageValue {
    SqlStorageValue::from(value.into())
}

/// An integer value to bind (SQLite's integers are signed 64-bit).
pub fn integer(value: u64) -> worker::Result<SqlStorageValue> {
    i64::try_from(value)
        .map(SqlStorageValue::from)
        .map_err(|_| worker::Error::RustError("value exceeds SQLite's integer range".into()))
}

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A count, time or `seq` as a SQL parameter, never refused (unlike [`integer`]). Parameters cross into
/// JavaScript as numbers: a larger value (an "unbounded" sentinel such as
/// `u64::MAX`) would lose its value there, so it is clamped to the largest
/// exact one, which no stored count, time or `seq` reaches.
pub fn clamped_integer(value: u64) -> SqlStorageValue {
    // Lossless: MAX_SAFE_INTEGER < i64::MAX.
    SqlStorageValue::from(value.min(MAX_SAFE_INTEGER) as i64)
}

/// Runs a statement (or several, without bindings) whose rows are not read.
pub fn run(sql: &SqlStorage, query: &str, bindings: impl Into<Bindings>) -> worker::Result<()> {
    sql.exec(query, bindings)?;
    Ok(())
}

/// The rows `query` answers, each read into a `T` by its column names.
pub fn select<T: DeserializeOwned>(
    sql: &SqlStorage,
    query: &str,
    bindings: impl Into<Bindings>,
) -> worker::Result<Vec<T>> {
    sql.exec(query, bindings)?.to_array()
}

/// The first row `query` answers (the one row a key selects, or an aggregate's), read as by [`select`].
pub fn select_first<T: DeserializeOwned>(
    sql: &SqlStorage,
    query: &str,
    bindings: impl Into<Bindings>,
) -> worker::Result<Option<T>> {
    Ok(select(sql, query, bindings)?.into_iter().next())
}

/// A row of JSON kept in the column `value` (`SELECT record AS value …`).
#[derive(serde::Deserialize)]
struct Json {
    value: String,
}

impl Json {
    /// Its JSON read into a `T`; `None` when it does not read as one
    /// (written by an older version, say).
    fn read<T: DeserializeOwned>(&self) -> Option<T> {
        serde_json::from_str(&self.value).ok()
    }
}

/// The JSON kept in the column `value` of each row `query` answers
/// (`SELECT record AS value …`), read into `T`s; a row whose JSON does not
/// read as a `T` is left out.
pub fn json_values<T: DeserializeOwned>(
    sql: &SqlStorage,
    query: &str,
    bindings: impl Into<Bindings>,
) -> worker::Result<Vec<T>> {
    let rows: Vec<Json> = select(sql, query, bindings)?;
    Ok(rows.iter().filter_map(Json::read).collect())
}

/// Like [`json_values`] for the one row `key` selects (`… WHERE id = ?`).
pub fn json_value<T: DeserializeOwned>(
    sql: &SqlStorage,
    query: &str,
    key: &str,
) -> worker::Result<Option<T>> {
    let row: Option<Json> = select_first(sql, query, vec![text(key)])?;
    Ok(row.as_ref().and_then(Json::read))
}

/// Which rows [`keep_newest`] trims: those of `table` whose `scope` column
/// holds `owner` (every row, without a scope), newest first by `order`, each
/// known by its `key` column.
#[derive(Debug, Clone, Copy)]
pub struct Newest<'a> {
    /// The table.
    pub table: &'a str,
    /// The column that names each row.
    pub key: &'a str,
    /// The column rows are ordered by, newest last.
    pub order: &'a str,
    /// The column and owner whose rows are trimmed (`None`: every row).
    pub scope: Option<(&'a str, &'a str)>,
}

/// Deletes the rows [`Newest`] names beyond the newest `keep`.
pub fn keep_newest(sql: &SqlStorage, rows: Newest<'_>, keep: u64) -> worker::Result<()> {
    let Newest {
        table,
        key,
        order,
        scope,
    } = rows;
    let keep = integer(keep)?;
    match scope {
        Some((column, owner)) => run(
            sql,
            &format!(
                "DELETE FROM {table} WHERE {column} = ? AND {key} NOT IN \
                 (SELECT {key} FROM {table} WHERE {column} = ? ORDER BY {order} DESC LIMIT ?)"
            ),
            vec![text(owner), text(owner), keep],
        ),
        None => run(
            sql,
            &format!(
                "DELETE FROM {table} WHERE {key} NOT IN \
                 (SELECT {key} FROM {table} ORDER BY {order} DESC LIMIT ?)"
            ),
            vec![keep],
        ),
    }
}

/// Whether the object's SQLite has a table (or index) named `name`, read without creating it.
pub fn table_exists(sql: &SqlStorage, name: &str) -> worker::Result<bool> {
    let query = "SELECT name FROM sqlite_master WHERE name = ?";
    let found: Vec<serde_json::Value> = select(sql, query, vec![text(name)])?;
    Ok(!found.is_empty())
}

/// The secret kept in `table`, a table of one row (`id = 0`, `secret`),
/// when one was kept.
pub fn secret(sql: &SqlStorage, table: &str) -> worker::Result<Option<String>> {
    #[derive(serde::Deserialize)]
    struct Kept {
        secret: String,
    }
    let query = format!("SELECT secret FROM {table} WHERE id = 0");
    let kept: Option<Kept> = select_first(sql, &query, None)?;
    Ok(kept.map(|kept| kept.secret))
}

/// Keeps `secret` as `table`'s one row.
pub fn keep_secret(sql: &SqlStorage, table: &str, secret: &str) -> worker::Result<()> {
    let query = format!("INSERT OR REPLACE INTO {table} (id, secret) VALUES (0, ?)");
    run(sql, &query, vec![text(secret)])
}
