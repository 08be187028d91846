//! The SQLite rows of discovery beside the registry's agents: the DRC change
//! log (`drc_changes`, pruned to the retention window), each object's
//! version (`drc_versions`), webhook subscriptions and their pending
//! deliveries (each with its body, so pruning the log loses none), the descriptions outside agents submitted, and the listed members of public networks. Loading puts
//! them back into a [`Catalog`]; every decision is the core's.

use crate::host::sql_integer;
use agentnet_core::discovery::Catalog;
use agentnet_core::discovery::feed::Change;
use agentnet_core::discovery::webhook::Webhook;
use serde::Deserialize;
use worker::{Result, SqlStorage, SqlStorageValue};

/// The tables.
pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS drc_changes (seq INTEGER PRIMARY KEY, change TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS drc_versions (id TEXT PRIMARY KEY, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS drc_webhooks (id TEXT PRIMARY KEY, hook TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS drc_deliveries (webhook_id TEXT NOT NULL, seq INTEGER NOT NULL,
  attempt INTEGER NOT NULL, due_at INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (webhook_id, seq));
CREATE TABLE IF NOT EXISTS submitted (url TEXT PRIMARY KEY, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS network_members (network TEXT PRIMARY KEY, members TEXT NOT NULL);
";

#[derive(Deserialize)]
struct NetworkMembers {
    network: String,
    members: String,
}

#[derive(Deserialize)]
struct Text {
    value: String,
}

#[derive(Deserialize)]
struct Version {
    id: String,
    version: i64,
}

#[derive(Deserialize)]
struct Submitted {
    url: String,
    doc: String,
}

/// One pending delivery.
#[derive(Debug, Deserialize)]
pub struct Delivery {
    /// The subscription.
    pub webhook_id: String,
    /// The change.
    pub seq: i64,
    /// Attempts made so far.
    pub attempt: i64,
    /// The change envelope it sends.
    pub body: String,
}

/// Puts the stored log, versions, webhooks and submitted descriptions into `catalog`.
pub fn load(sql: &SqlStorage, catalog: &mut Catalog) -> Result<()> {
    sql.exec(SCHEMA, None)?;
    let versions: Vec<Version> = sql
        .exec("SELECT id, version FROM drc_versions", None)?
        .to_array()?;
    for v in versions {
        catalog
            .feed
            .load_version(&v.id, u64::try_from(v.version).unwrap_or(0));
    }
    let changes: Vec<Text> = sql
        .exec("SELECT change AS value FROM drc_changes ORDER BY seq", None)?
        .to_array()?;
    for row in changes {
        if let Ok(change) = serde_json::from_str::<Change>(&row.value) {
            catalog.feed.load(change);
        }
    }
    let hooks: Vec<Text> = sql
        .exec("SELECT hook AS value FROM drc_webhooks", None)?
        .to_array()?;
    for row in hooks {
        if let Ok(hook) = serde_json::from_str::<Webhook>(&row.value) {
            catalog.webhooks.insert(hook.webhook_id.clone(), hook);
        }
    }
    let submitted: Vec<Submitted> = sql
        .exec("SELECT url, doc FROM submitted", None)?
        .to_array()?;
    for row in submitted {
        if let Ok(doc) = serde_json::from_str(&row.doc) {
            catalog.add_submitted(&row.url, doc);
        }
    }
    let listings: Vec<NetworkMembers> = sql
        .exec("SELECT network, members FROM network_members", None)?
        .to_array()?;
    for row in listings {
        if let Ok(serde_json::Value::Array(records)) = serde_json::from_str(&row.members) {
            catalog.set_network_members(&row.network, records);
        }
    }
    Ok(())
}

/// Stores the listed members of a network (none: the row goes).
pub fn store_members(sql: &SqlStorage, network: &str, records: &serde_json::Value) -> Result<()> {
    if records.as_array().is_none_or(Vec::is_empty) {
        sql.exec(
            "DELETE FROM network_members WHERE network = ?",
            vec![SqlStorageValue::from(network.to_owned())],
        )?;
    } else {
        sql.exec(
            "INSERT OR REPLACE INTO network_members (network, members) VALUES (?, ?)",
            vec![
                SqlStorageValue::from(network.to_owned()),
                SqlStorageValue::from(records.to_string()),
            ],
        )?;
    }
    Ok(())
}

/// Stores a recorded change, forgets the pruned ones, and queues a delivery
/// for each webhook that wants it (due `now`). True when one was queued.
pub fn store_change(
    sql: &SqlStorage,
    catalog: &Catalog,
    change: &Change,
    pruned: &[u64],
    now: u64,
) -> Result<bool> {
    sql.exec(
        "INSERT OR REPLACE INTO drc_changes (seq, change) VALUES (?, ?)",
        vec![
            sql_integer(change.seq),
            SqlStorageValue::from(change.to_line()),
        ],
    )?;
    sql.exec(
        "INSERT OR REPLACE INTO drc_versions (id, version) VALUES (?, ?)",
        vec![
            SqlStorageValue::from(change.id.clone()),
            sql_integer(change.version),
        ],
    )?;
    if let Some(newest_dropped) = pruned.iter().max() {
        sql.exec(
            "DELETE FROM drc_changes WHERE seq <= ?",
            vec![sql_integer(*newest_dropped)],
        )?;
    }
    let mut queued = false;
    for hook in catalog.webhooks.values().filter(|h| h.wants(change)) {
        sql.exec(
            "INSERT OR REPLACE INTO drc_deliveries (webhook_id, seq, attempt, due_at, body) VALUES (?, ?, 0, ?, ?)",
            vec![
                SqlStorageValue::from(hook.webhook_id.clone()),
                sql_integer(change.seq),
                sql_integer(now),
                SqlStorageValue::from(change.to_line()),
            ],
        )?;
        queued = true;
    }
    Ok(queued)
}

/// Stores (`Some`) or deletes (`None`) a webhook subscription.
pub fn store_webhook(sql: &SqlStorage, id: &str, hook: Option<&Webhook>) -> Result<()> {
    match hook {
        Some(hook) => sql.exec(
            "INSERT OR REPLACE INTO drc_webhooks (id, hook) VALUES (?, ?)",
            vec![
                SqlStorageValue::from(id.to_owned()),
                SqlStorageValue::from(serde_json::to_string(hook)?),
            ],
        )?,
        None => {
            sql.exec(
                "DELETE FROM drc_deliveries WHERE webhook_id = ?",
                vec![SqlStorageValue::from(id.to_owned())],
            )?;
            sql.exec(
                "DELETE FROM drc_webhooks WHERE id = ?",
                vec![SqlStorageValue::from(id.to_owned())],
            )?
        }
    };
    Ok(())
}

/// Stores a listed submitted description.
pub fn store_submitted(sql: &SqlStorage, url: &str, doc: &serde_json::Value) -> Result<()> {
    sql.exec(
        "INSERT OR REPLACE INTO submitted (url, doc) VALUES (?, ?)",
        vec![
            SqlStorageValue::from(url.to_owned()),
            SqlStorageValue::from(doc.to_string()),
        ],
    )?;
    Ok(())
}

/// Deliveries due by `now` (at most 50).
pub fn due(sql: &SqlStorage, now: u64) -> Result<Vec<Delivery>> {
    sql.exec(
        "SELECT webhook_id, seq, attempt, body FROM drc_deliveries WHERE due_at <= ? ORDER BY seq LIMIT 50",
        vec![sql_integer(now)],
    )?
    .to_array()
}

/// Ends a delivery (done or given up), or reschedules it at `due_at` as attempt `attempt`.
pub fn settle(sql: &SqlStorage, d: &Delivery, retry: Option<(u64, u32)>) -> Result<()> {
    let key = vec![
        SqlStorageValue::from(d.webhook_id.clone()),
        SqlStorageValue::from(d.seq),
    ];
    match retry {
        None => sql.exec(
            "DELETE FROM drc_deliveries WHERE webhook_id = ? AND seq = ?",
            key,
        )?,
        Some((due_at, attempt)) => {
            let mut values = vec![sql_integer(due_at), sql_integer(u64::from(attempt))];
            values.extend(key);
            sql.exec(
                "UPDATE drc_deliveries SET due_at = ?, attempt = ? WHERE webhook_id = ? AND seq = ?",
                values,
            )?
        }
    };
    Ok(())
}

#[derive(Deserialize)]
struct Next {
    at: Option<i64>,
}

/// When the next delivery is due.
pub fn next_due(sql: &SqlStorage) -> Result<Option<u64>> {
    let rows: Vec<Next> = sql
        .exec("SELECT MIN(due_at) AS at FROM drc_deliveries", None)?
        .to_array()?;
    Ok(rows
        .into_iter()
        .next()
        .and_then(|r| r.at)
        .and_then(|a| u64::try_from(a).ok()))
}
