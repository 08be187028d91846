//! The members' Web Push subscriptions and the network's VAPID key in the
//! object's SQLite storage (`push_subscriptions`, `push_key`): apart from
//! the log, so no event, export or replay carries them.

use crate::host::sql::{Newest, integer, keep_newest, keep_secret, run, secret, select, text};
use agentnet_core::Address;
use agentnet_core::outbound::OutboundPolicy;
use agentnet_core::webpush::Subscription;
use agentnet_core::webpush::subscription::MAX_PER_MEMBER;
use serde::Deserialize;
use worker::{Result, SqlStorage};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS push_subscriptions (member TEXT NOT NULL, endpoint TEXT NOT NULL, subscription TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (member, endpoint));
CREATE TABLE IF NOT EXISTS push_key (id INTEGER PRIMARY KEY CHECK (id = 0), secret TEXT NOT NULL);
";

/// Creates the tables (with the store's, when the object first opens it).
pub(crate) fn open(sql: &SqlStorage) -> Result<()> {
    run(sql, SCHEMA, None)
}

#[derive(Deserialize)]
struct Stored {
    value: String,
}

/// The VAPID secret this network made, when it made one.
pub(crate) fn key(sql: &SqlStorage) -> Result<Option<String>> {
    secret(sql, "push_key")
}

/// Keeps the VAPID secret this network made.
pub(crate) fn save_key(sql: &SqlStorage, secret: &str) -> Result<()> {
    keep_secret(sql, "push_key", secret)
}

/// Keeps `subscription` for `member`; a member keeps its newest [`MAX_PER_MEMBER`].
pub(crate) fn add(
    sql: &SqlStorage,
    member: &Address,
    subscription: &Subscription,
    now: u64,
) -> Result<()> {
    let member = member.to_string();
    run(
        sql,
        "INSERT OR REPLACE INTO push_subscriptions (member, endpoint, subscription, at) VALUES (?, ?, ?, ?)",
        vec![
            text(member.as_str()),
            text(subscription.endpoint()),
            text(subscription.to_json().to_string()),
            integer(now)?,
        ],
    )?;
    let subscriptions = Newest {
        table: "push_subscriptions",
        key: "endpoint",
        order: "at",
        scope: Some(("member", &member)),
    };
    keep_newest(sql, subscriptions, MAX_PER_MEMBER as u64)
}

/// Forgets `member`'s subscription at `endpoint`; whether there was one.
pub(crate) fn remove(sql: &SqlStorage, member: &str, endpoint: &str) -> Result<bool> {
    let query = "DELETE FROM push_subscriptions WHERE member = ? AND endpoint = ? RETURNING endpoint AS value";
    let removed: Vec<Stored> = select(sql, query, vec![text(member), text(endpoint)])?;
    Ok(!removed.is_empty())
}

/// Forgets every subscription of a member that is no longer one.
pub(crate) fn forget(sql: &SqlStorage, member: &Address) -> Result<()> {
    let query = "DELETE FROM push_subscriptions WHERE member = ?";
    run(sql, query, vec![text(member.to_string())])
}

/// `member`'s subscriptions that still pass `policy`, the oldest first.
pub(crate) fn of(
    sql: &SqlStorage,
    member: &Address,
    policy: &OutboundPolicy,
) -> Result<Vec<Subscription>> {
    let query =
        "SELECT subscription AS value FROM push_subscriptions WHERE member = ? ORDER BY at, rowid";
    let stored: Vec<Stored> = select(sql, query, vec![text(member.to_string())])?;
    Ok(stored
        .iter()
        .filter_map(|r| Subscription::restore(&r.value, policy))
        .collect())
}
