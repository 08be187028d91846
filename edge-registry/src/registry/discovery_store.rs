//! The SQLite rows of discovery beside the registry's agents: the DRC change
//! log (`drc_changes`, pruned to the retention window), each object's
//! version (`drc_versions`), webhook subscriptions and their pending
//! deliveries (each with its body, so pruning the log loses none), the descriptions outside agents submitted, and the listed members of public networks. Loading puts
//! them back into a [`Catalog`]; every decision is the core's.

use crate::host::sql::{clamped_integer, json_values, run, select, text};
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
    run(sql, SCHEMA, None)?;
    let versions: Vec<Version> = select(sql, "SELECT id, version FROM drc_versions", None)?;
    for v in versions {
        catalog
            .feed
            .load_version(&v.id, u64::try_from(v.version).unwrap_or(0));
    }
    let query = "SELECT change AS value FROM drc_changes ORDER BY seq";
    for change in json_values::<Change>(sql, query, None)? {
        catalog.feed.load(change);
    }
    let query = "SELECT hook AS value FROM drc_webhooks";
    for hook in json_values::<Webhook>(sql, query, None)? {
        catalog.webhooks.insert(hook.webhook_id.clone(), hook);
    }
    let submitted: Vec<Submitted> = select(sql, "SELECT url, doc FROM submitted", None)?;
    for row in submitted {
        if let Ok(doc) = serde_json::from_str(&row.doc) {
            catalog.add_submitted(&row.url, doc);
        }
    }
    let query = "SELECT network, members FROM network_members";
    let listings: Vec<NetworkMembers> = select(sql, query, None)?;
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
        let query = "DELETE FROM network_members WHERE network = ?";
        run(sql, query, vec![text(network)])
    } else {
        run(
            sql,
            "INSERT OR REPLACE INTO network_members (network, members) VALUES (?, ?)",
            vec![text(network), text(records.to_string())],
        )
    }
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
    run(
        sql,
        "INSERT OR REPLACE INTO drc_changes (seq, change) VALUES (?, ?)",
        vec![clamped_integer(change.seq), text(change.to_line())],
    )?;
    run(
        sql,
        "INSERT OR REPLACE INTO drc_versions (id, version) VALUES (?, ?)",
        vec![text(change.id.as_str()), clamped_integer(change.version)],
    )?;
    if let Some(newest_dropped) = pruned.iter().max() {
        let query = "DELETE FROM drc_changes WHERE seq <= ?";
        run(sql, query, vec![clamped_integer(*newest_dropped)])?;
    }
    let mut queued = false;
    for hook in catalog.webhooks.values().filter(|h| h.wants(change)) {
        run(
            sql,
            "INSERT OR REPLACE INTO drc_deliveries (webhook_id, seq, attempt, due_at, body) VALUES (?, ?, 0, ?, ?)",
            vec![
                text(hook.webhook_id.as_str()),
                clamped_integer(change.seq),
                clamped_integer(now),
                text(change.to_line()),
            ],
        )?;
        queued = true;
    }
    Ok(queued)
}

/// Stores (`Some`) or deletes (`None`) a webhook subscription.
pub fn store_webhook(sql: &SqlStorage, id: &str, hook: Option<&Webhook>) -> Result<()> {
    match hook {
        Some(hook) => run(
            sql,
            "INSERT OR REPLACE INTO drc_webhooks (id, hook) VALUES (?, ?)",
            vec![text(id), text(serde_json::to_string(hook)?)],
        ),
        None => {
            let query = "DELETE FROM drc_deliveries WHERE webhook_id = ?";
            run(sql, query, vec![text(id)])?;
            run(sql, "DELETE FROM drc_webhooks WHERE id = ?", vec![text(id)])
        }
    }
}

/// Stores a listed submitted description.
pub fn store_submitted(sql: &SqlStorage, url: &str, doc: &serde_json::Value) -> Result<()> {
    run(
        sql,
        "INSERT OR REPLACE INTO submitted (url, doc) VALUES (?, ?)",
        vec![text(url), text(doc.to_string())],
    )
}

/// Deliveries due by `now` (at most 50).
pub fn due(sql: &SqlStorage, now: u64) -> Result<Vec<Delivery>> {
    let query = "SELECT webhook_id, seq, attempt, body FROM drc_deliveries WHERE due_at <= ? ORDER BY seq LIMIT 50";
    select(sql, query, vec![clamped_integer(now)])
}

/// Ends a delivery (done or given up), or reschedules it at `due_at` as attempt `attempt`.
pub fn settle(sql: &SqlStorage, d: &Delivery, retry: Option<(u64, u32)>) -> Result<()> {
    let key = vec![text(d.webhook_id.as_str()), SqlStorageValue::from(d.seq)];
    match retry {
        None => {
            let query = "DELETE FROM drc_deliveries WHERE webhook_id = ? AND seq = ?";
            run(sql, query, key)
        }
        Some((due_at, attempt)) => {
            let mut values = vec![clamped_integer(due_at), clamped_integer(u64::from(attempt))];
            values.extend(key);
            run(
                sql,
                "UPDATE drc_deliveries SET due_at = ?, attempt = ? WHERE webhook_id = ? AND seq = ?",
                values,
            )
        }
    }
}

#[derive(Deserialize)]
struct Next {
    at: Option<i64>,
}

/// When the next delivery is due.
pub fn next_due(sql: &SqlStorage) -> Result<Option<u64>> {
    let next: Vec<Next> = select(sql, "SELECT MIN(due_at) AS at FROM drc_deliveries", None)?;
    Ok(next
        .into_iter()
        .next()
        .and_then(|r| r.at)
        .and_then(|a| u64::try_from(a).ok()))
}
