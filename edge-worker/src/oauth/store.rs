//! The authorization server's rows in the object's SQLite storage: the
//! registered clients (`oauth_clients`) and the codes and tokens
//! (`oauth_grants`) under the SHA-256 of their secret, never the secret.
//! What a row means and when it is valid is the core's
//! (`agentnet_core::bindings::oauth`); here are the rows.

use crate::host::sql::{Newest, integer, json_value, keep_newest, run, text};
use agentnet_core::Timestamp;
use agentnet_core::bindings::oauth::grants::{Client, Grant};
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
    run(sql, SCHEMA, None)
}

/// Clients one network keeps at most; the oldest registrations go first
/// (a client that finds itself unknown registers again).
const MAX_CLIENTS: u64 = 10_000;

/// The client registered under `client_id`.
pub(crate) fn client(sql: &SqlStorage, client_id: &str) -> Result<Option<Client>> {
    let query = "SELECT client AS value FROM oauth_clients WHERE client_id = ?";
    json_value(sql, query, client_id)
}

/// Registers a client; drops the oldest beyond [`MAX_CLIENTS`].
pub(crate) fn add_client(sql: &SqlStorage, client: &Client) -> Result<()> {
    run(
        sql,
        "INSERT OR REPLACE INTO oauth_clients (client_id, created, client) VALUES (?, ?, ?)",
        vec![
            text(client.client_id.as_str()),
            integer(client.client_id_issued_at)?,
            text(serde_json::to_string(client)?),
        ],
    )?;
    let clients = Newest {
        table: "oauth_clients",
        key: "client_id",
        order: "created",
        scope: None,
    };
    keep_newest(sql, clients, MAX_CLIENTS)
}

/// The grant stored under `sha256`.
pub(crate) fn grant(sql: &SqlStorage, sha256: &str) -> Result<Option<Grant>> {
    let query = "SELECT grant AS value FROM oauth_grants WHERE sha256 = ?";
    json_value(sql, query, sha256)
}

/// Stores a grant under `sha256` (new or changed).
pub(crate) fn save_grant(sql: &SqlStorage, sha256: &str, grant: &Grant) -> Result<()> {
    run(
        sql,
        "INSERT OR REPLACE INTO oauth_grants (sha256, family, address, expires_at, grant) VALUES (?, ?, ?, ?, ?)",
        vec![
            text(sha256),
            text(grant.family.as_str()),
            text(grant.address.as_str()),
            integer(grant.expires_at.as_millis())?,
            text(serde_json::to_string(grant)?),
        ],
    )
}

/// Ends every grant of `family`.
pub(crate) fn end_family(sql: &SqlStorage, family: &str) -> Result<()> {
    run(
        sql,
        "DELETE FROM oauth_grants WHERE family = ?",
        vec![text(family)],
    )
}

/// Ends every grant of the member `address`.
pub(crate) fn end_member(sql: &SqlStorage, address: &str) -> Result<()> {
    run(
        sql,
        "DELETE FROM oauth_grants WHERE address = ?",
        vec![text(address)],
    )
}

/// Deletes the grants expired at `now`.
pub(crate) fn prune(sql: &SqlStorage, now: Timestamp) -> Result<()> {
    let query = "DELETE FROM oauth_grants WHERE expires_at <= ?";
    run(sql, query, vec![integer(now.as_millis())?])
}
