//! The authorization server's rows in the object's SQLite storage: the
//! registered clients (`oauth_clients`) and the codes and tokens
//! (`oauth_grants`) under the SHA-256 of their secret, never the secret.
//! What a row means and when it is valid is the core's
//! (`agentnet_core::bindings::oauth`); here are the rows.

use crate::network::storage::{integer, text};
use agentnet_core::Timestamp;
use agentnet_core::bindings::oauth::grants::{Client, Grant};
use serde::Deserialize;
use worker::{Result, SqlStorage};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS oauth_clients (client_id TEXT PRIMARY KEY, created INTEGER NOT NULL, client TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS oauth_grants (sha256 TEXT PRIMARY KEY, family TEXT NOT NULL, address TEXT NOT NULL, expires_at INTEGER NOT NULL, grant TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS oauth_grants_by_family ON oauth_grants (family);
CREATE INDEX IF NOT EXISTS oauth_grants_by_address ON oauth_grants (address);
CREATE INDEX IF NOT EXISTS oauth_grants_by_expiry ON oauth_grants (expires_at);
";

/// Creates the tables (with the store's, when the object first opens it).
pub(crate) fn open(sql: &SqlStorage) -> Result<()> {
    sql.exec(SCHEMA, None)?;
    Ok(())
}

/// Clients one network keeps at most; the oldest registrations go first
/// (a client that finds itself unknown registers again).
const MAX_CLIENTS: u64 = 10_000;

#[derive(Deserialize)]
struct Json {
    value: String,
}

fn one<T: serde::de::DeserializeOwned>(rows: Vec<Json>) -> Option<T> {
    rows.first()
        .and_then(|row| serde_json::from_str(&row.value).ok())
}

/// The client registered under `client_id`.
pub(crate) fn client(sql: &SqlStorage, client_id: &str) -> Result<Option<Client>> {
    let rows: Vec<Json> = sql
        .exec(
            "SELECT client AS value FROM oauth_clients WHERE client_id = ?",
            vec![text(client_id)],
        )?
        .to_array()?;
    Ok(one(rows))
}

/// Registers a client; drops the oldest beyond [`MAX_CLIENTS`].
pub(crate) fn add_client(sql: &SqlStorage, client: &Client) -> Result<()> {
    sql.exec(
        "INSERT OR REPLACE INTO oauth_clients (client_id, created, client) VALUES (?, ?, ?)",
        vec![
            text(client.client_id.as_str()),
            integer(client.client_id_issued_at)?,
            text(serde_json::to_string(client)?),
        ],
    )?;
    sql.exec(
        "DELETE FROM oauth_clients WHERE client_id NOT IN \
         (SELECT client_id FROM oauth_clients ORDER BY created DESC LIMIT ?)",
        vec![integer(MAX_CLIENTS)?],
    )?;
    Ok(())
}

/// The grant stored under `sha256`.
pub(crate) fn grant(sql: &SqlStorage, sha256: &str) -> Result<Option<Grant>> {
    let rows: Vec<Json> = sql
        .exec(
            "SELECT grant AS value FROM oauth_grants WHERE sha256 = ?",
            vec![text(sha256)],
        )?
        .to_array()?;
    Ok(one(rows))
}

/// Stores a grant under `sha256` (new or changed).
pub(crate) fn save_grant(sql: &SqlStorage, sha256: &str, grant: &Grant) -> Result<()> {
    sql.exec(
        "INSERT OR REPLACE INTO oauth_grants (sha256, family, address, expires_at, grant) VALUES (?, ?, ?, ?, ?)",
        vec![
            text(sha256),
            text(grant.family.as_str()),
            text(grant.address.as_str()),
            integer(grant.expires_at.as_millis())?,
            text(serde_json::to_string(grant)?),
        ],
    )?;
    Ok(())
}

/// Ends every grant of `family`.
pub(crate) fn end_family(sql: &SqlStorage, family: &str) -> Result<()> {
    sql.exec(
        "DELETE FROM oauth_grants WHERE family = ?",
        vec![text(family)],
    )?;
    Ok(())
}

/// Ends every grant of the member `address`.
pub(crate) fn end_member(sql: &SqlStorage, address: &str) -> Result<()> {
    sql.exec(
        "DELETE FROM oauth_grants WHERE address = ?",
        vec![text(address)],
    )?;
    Ok(())
}

/// Deletes the grants expired at `now`.
pub(crate) fn prune(sql: &SqlStorage, now: Timestamp) -> Result<()> {
    sql.exec(
        "DELETE FROM oauth_grants WHERE expires_at <= ?",
        vec![integer(now.as_millis())?],
    )?;
    Ok(())
}
