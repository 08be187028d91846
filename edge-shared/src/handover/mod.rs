//! The handover of a deployment-wide object's rows when its class moves to
//! another Worker. The registry and the directory were the main Worker's
//! objects until they got a Worker of their own (`edge-registry`): a
//! deployment made before keeps their rows in the main Worker's classes of
//! the same names, now retired (they only hand their rows over).
//!
//! The main Worker's callers ask the new object whether it has adopted
//! ([`STATE_PATH`], once per isolate). Until it has, they read every row of
//! the retired object ([`ROWS_PATH`], [`dump`]), give them to the new one
//! ([`ADOPT_PATH`], [`adopt`]: its own tables made first, the rows written and
//! the object marked adopted in one synchronous step, so in one transaction;
//! it answers with the tables it took, [`Adopted`]), and have the retired one
//! forget those tables ([`FORGET_PATH`], [`forget`]). A table the new object
//! does not keep stays where it was, untouched. A second adoption (two
//! isolates racing) takes nothing: the first one's rows and every row written
//! since stay. A fresh deployment hands over nothing.
//!
//! The new object refuses every other request until it has adopted
//! ([`not_adopted`]), so no row it writes can be overwritten by old ones.

use crate::sql::clamped_integer;
use agentnet_core::bindings::step::Step;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use worker::{SqlStorage, SqlStorageValue};

/// The new object: `{"adopted": bool}`.
pub const STATE_PATH: &str = "/v1/handover/state";
/// The new object: keep these [`Rows`] (a JSON body), unless adopted already.
pub const ADOPT_PATH: &str = "/v1/handover/adopt";
/// The retired object: every row it holds, as [`Rows`].
pub const ROWS_PATH: &str = "/v1/handover/rows";
/// The retired object: drop the tables named (a JSON [`Adopted`] body, the adopter's answer).
pub const FORGET_PATH: &str = "/v1/handover/forget";
/// The retired object, with the main Worker's test hooks only: make these
/// [`Rows`]' tables and write their rows ([`seed`]), as an older deployment left them.
pub const SEED_PATH: &str = "/v1/__test/handover/seed";

/// The new object's mark: one row once it has adopted.
const MARK_SCHEMA: &str = "CREATE TABLE IF NOT EXISTS handover (adopted_at INTEGER NOT NULL)";

/// Every row of an object's tables.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rows {
    /// One entry per table that has rows.
    pub tables: Vec<Table>,
}

/// The tables an adoption took (the answer to [`ADOPT_PATH`], the body of [`FORGET_PATH`]).
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Adopted {
    /// Their names.
    pub tables: Vec<String>,
}

/// One table's rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The table's name.
    pub name: String,
    /// The statement that made it (`sqlite_master.sql`): only the test hooks that
    /// seed a retired object run it; an adopter makes its own tables.
    pub schema: String,
    /// Its column names, in the order of each row's values.
    pub columns: Vec<String>,
    /// Each row's values: null, a number, a text, or `{"blob": [bytes]}`.
    pub rows: Vec<Vec<Value>>,
}

/// Why rows could not be handed over (`code` is stable).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HandoverError {
    /// A table or column name that is not a plain identifier.
    #[error("handover_bad_name: {0:?} is not a table or column name")]
    BadName(String),
    /// A row whose number of values is not its table's number of columns.
    #[error("handover_bad_row: a row of {0:?} does not match its columns")]
    BadRow(String),
    /// A value that is not a null, number, text or blob.
    #[error("handover_bad_value: a value of {0:?} cannot be stored")]
    BadValue(String),
}

impl HandoverError {
    /// The stable code, the message's first word.
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadName(_) => "handover_bad_name",
            Self::BadRow(_) => "handover_bad_row",
            Self::BadValue(_) => "handover_bad_value",
        }
    }
}

/// A plain SQL identifier (ASCII letters, digits, `_`, not starting with a digit).
fn identifier(name: &str) -> Result<&str, HandoverError> {
    let plain = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        Ok(name)
    } else {
        Err(HandoverError::BadName(name.to_owned()))
    }
}

/// The statement that writes one row of `table` (checked names only).
pub fn insert_statement(table: &Table) -> Result<String, HandoverError> {
    let name = identifier(&table.name)?;
    let columns = table
        .columns
        .iter()
        .map(|column| identifier(column))
        .collect::<Result<Vec<_>, _>>()?;
    if columns.is_empty() {
        return Err(HandoverError::BadRow(table.name.clone()));
    }
    let marks = vec!["?"; columns.len()].join(", ");
    Ok(format!(
        "INSERT OR REPLACE INTO {name} ({}) VALUES ({marks})",
        columns.join(", ")
    ))
}

/// One value as SQLite takes it.
fn stored(value: &Value, table: &str) -> Result<SqlStorageValue, HandoverError> {
    let bad = || HandoverError::BadValue(table.to_owned());
    Ok(match value {
        Value::Null => SqlStorageValue::Null,
        Value::Bool(b) => SqlStorageValue::Integer(i64::from(*b)),
        Value::Number(n) => match n.as_i64() {
            Some(i) => SqlStorageValue::Integer(i),
            None => SqlStorageValue::Float(n.as_f64().ok_or_else(bad)?),
        },
        Value::String(s) => SqlStorageValue::String(s.clone()),
        Value::Object(o) => match o.get("blob") {
            Some(Value::Array(bytes)) => SqlStorageValue::Blob(
                bytes
                    .iter()
                    .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
                    .collect::<Option<Vec<u8>>>()
                    .ok_or_else(bad)?,
            ),
            _ => return Err(bad()),
        },
        Value::Array(_) => return Err(bad()),
    })
}

/// One value as [`Rows`] carries it.
fn carried(value: SqlStorageValue) -> Value {
    match value {
        SqlStorageValue::Null => Value::Null,
        SqlStorageValue::Boolean(b) => Value::from(i64::from(b)),
        SqlStorageValue::Integer(i) => Value::from(i),
        SqlStorageValue::Float(f) => Value::from(f),
        SqlStorageValue::String(s) => Value::from(s),
        SqlStorageValue::Blob(bytes) => serde_json::json!({ "blob": bytes }),
    }
}

/// One table's rows as SQLite writes them.
pub struct Statement {
    /// The table's name.
    pub table: String,
    /// The statement that writes one row.
    pub text: String,
    /// Each row's values.
    pub rows: Vec<Vec<SqlStorageValue>>,
}

/// The statements that write the rows of `rows`' tables the adopter keeps
/// (`tables`; the others are left out), each with its rows' values, every
/// name and row checked.
pub fn statements(rows: &Rows, tables: &[&str]) -> Result<Vec<Statement>, HandoverError> {
    rows.tables
        .iter()
        .filter(|table| tables.contains(&table.name.as_str()))
        .map(|table| {
            let text = insert_statement(table)?;
            let rows = table
                .rows
                .iter()
                .map(|row| {
                    if row.len() != table.columns.len() {
                        return Err(HandoverError::BadRow(table.name.clone()));
                    }
                    row.iter().map(|v| stored(v, &table.name)).collect()
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Statement {
                table: table.name.clone(),
                text,
                rows,
            })
        })
        .collect()
}

/// Runs every statement on each of its rows.
fn write(sql: &SqlStorage, statements: Vec<Statement>) -> worker::Result<()> {
    for statement in statements {
        for values in statement.rows {
            sql.exec(&statement.text, values)?;
        }
    }
    Ok(())
}

#[derive(Deserialize)]
struct Master {
    name: String,
    sql: String,
}

/// The tables of an object's own: not SQLite's (`sqlite_…`) nor the
/// platform's (`_cf_…` on Cloudflare, `__miniflare_…` under `wrangler dev`;
/// no agentnet table starts with `_`).
fn own_tables(sql: &SqlStorage) -> worker::Result<Vec<Master>> {
    sql.exec(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' \
         AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_%' ESCAPE '\\' \
         ORDER BY name",
        None,
    )?
    .to_array()
}

/// Every row of every table of `sql` (the retired object's answer to [`ROWS_PATH`]).
pub fn dump(sql: &SqlStorage) -> worker::Result<Rows> {
    let mut tables = Vec::new();
    for master in own_tables(sql)? {
        // Names from sqlite_master that are not plain identifiers are not ours to read.
        let Ok(name) = identifier(&master.name) else {
            continue;
        };
        let cursor = sql.exec(&format!("SELECT * FROM {name}"), None)?;
        let columns = cursor.column_names();
        let rows = cursor
            .raw()
            .map(|row| row.map(|values| values.into_iter().map(carried).collect()))
            .collect::<worker::Result<Vec<Vec<Value>>>>()?;
        if !rows.is_empty() {
            tables.push(Table {
                name: master.name,
                schema: master.sql,
                columns,
                rows,
            });
        }
    }
    Ok(Rows { tables })
}

/// Drops the tables of `sql` that `adopted` names (the retired object's answer to [`FORGET_PATH`]).
pub fn forget(sql: &SqlStorage, adopted: &Adopted) -> worker::Result<()> {
    for master in own_tables(sql)? {
        if adopted.tables.contains(&master.name)
            && let Ok(name) = identifier(&master.name)
        {
            sql.exec(&format!("DROP TABLE IF EXISTS {name}"), None)?;
        }
    }
    Ok(())
}

/// Whether the new object has adopted (made its mark).
pub fn adopted(sql: &SqlStorage) -> worker::Result<bool> {
    sql.exec(MARK_SCHEMA, None)?;
    let count: Vec<Value> = sql
        .exec("SELECT adopted_at FROM handover LIMIT 1", None)?
        .to_array()?;
    Ok(!count.is_empty())
}

/// Keeps `rows` in the new object's tables (made by `schema` first), which
/// are named `tables`, and marks it adopted: the tables it took (none when it
/// had adopted already). `now_ms` is the mark's time. Writes nothing when a
/// row is refused: the answer is then its [`refusal`].
pub fn adopt(
    sql: &SqlStorage,
    schema: impl Fn(&SqlStorage) -> worker::Result<()>,
    tables: &[&str],
    rows: &Rows,
    now_ms: u64,
) -> worker::Result<Step<Adopted>> {
    if adopted(sql)? {
        return Ok(Step::Go(Adopted::default()));
    }
    let statements = match statements(rows, tables) {
        Ok(statements) => statements,
        Err(refused) => return Ok(Step::Answer(refusal(&refused))),
    };
    schema(sql)?;
    let taken = statements.iter().map(|s| s.table.clone()).collect();
    write(sql, statements)?;
    sql.exec(
        "INSERT INTO handover (adopted_at) VALUES (?)",
        vec![clamped_integer(now_ms)],
    )?;
    Ok(Step::Go(Adopted { tables: taken }))
}

/// Seeds a retired object with `rows`, its tables made by their own
/// statements (a refused row: its [`refusal`]): only the test hooks that stand
/// in for an older deployment use it.
pub fn seed(sql: &SqlStorage, rows: &Rows) -> worker::Result<Step<()>> {
    let names: Vec<&str> = rows.tables.iter().map(|t| t.name.as_str()).collect();
    let statements = match statements(rows, &names) {
        Ok(statements) => statements,
        Err(refused) => return Ok(Step::Answer(refusal(&refused))),
    };
    for table in &rows.tables {
        sql.exec(&table.schema, None)?;
    }
    write(sql, statements)?;
    Ok(Step::Go(()))
}

/// The new object's answer to anything but [`STATE_PATH`] and [`ADOPT_PATH`]
/// before it has adopted: 503, to be asked again (the main Worker hands the
/// rows over first, so only a request that skipped it sees this).
pub fn not_adopted() -> agentnet_core::bindings::Response {
    agentnet_core::bindings::Response::error(
        agentnet_core::ErrorCode::NetworkUnavailable,
        "this object has not taken over its rows from the main Worker yet; try again",
    )
    .with_status(503)
}

/// A JSON body ([`Rows`], [`Adopted`]) read as `T`, or the refusal to answer
/// when it is not one (`handover_bad_value`).
pub fn parse<T: DeserializeOwned>(body: &str) -> Result<T, agentnet_core::bindings::Response> {
    serde_json::from_str(body).map_err(|e| refusal(&HandoverError::BadValue(e.to_string())))
}

/// The answer to rows that could not be adopted or seeded: 400 with the error's stable code.
pub fn refusal(error: &HandoverError) -> agentnet_core::bindings::Response {
    agentnet_core::bindings::Response::json(
        serde_json::json!({"code": error.code(), "message": error.to_string()}),
    )
    .with_status(400)
}

#[cfg(test)]
mod tests;
