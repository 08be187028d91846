//! What a gateway keeps in its SQLite storage: the members it holds sockets
//! of ([`GatewayEffect::Placed`](agentnet_core::gateway::GatewayEffect)) and
//! the network it serves, so that an instance the platform reset — its
//! sockets gone without a close seen — can tell the network those members
//! are gone (`agentnet_core::gateway::Gateway::reconcile`) when its alarm
//! wakes it, before anything else reaches it.

use crate::host::sql::{run, select, select_first};
use agentnet_core::Address;
use agentnet_core::gateway::GatewayId;
use serde::Deserialize;
use worker::{Result, SqlStorage};

/// Creates the table (once, as the object starts).
pub(crate) fn create(sql: &SqlStorage) -> Result<()> {
    sql.exec(
        "CREATE TABLE IF NOT EXISTS gateway_members (member TEXT PRIMARY KEY)",
        None,
    )?;
    run(
        sql,
        "CREATE TABLE IF NOT EXISTS gateway_link (one INTEGER PRIMARY KEY CHECK (one = 1), network TEXT NOT NULL, gateway INTEGER NOT NULL)",
        None,
    )
}

#[derive(Deserialize)]
struct LinkRow {
    network: String,
    gateway: GatewayId,
}

/// Keeps the network this gateway serves and its index there.
pub(crate) fn save_link(sql: &SqlStorage, network: &str, gateway: GatewayId) -> Result<()> {
    run(
        sql,
        "INSERT OR REPLACE INTO gateway_link (one, network, gateway) VALUES (1, ?, ?)",
        vec![network.into(), i64::from(gateway).into()],
    )
}

/// The network this gateway serves and its index there, given what its
/// sockets say (`known`): the kept one when they say nothing, and theirs
/// kept when storage has none (a gateway from before it was kept).
pub(crate) fn settle_link(
    sql: &SqlStorage,
    known: Option<(String, GatewayId)>,
) -> Result<Option<(String, GatewayId)>> {
    let row: Option<LinkRow> =
        select_first(sql, "SELECT network, gateway FROM gateway_link", None)?;
    let kept = row.map(|r| (r.network, r.gateway));
    match (known, kept) {
        (None, kept) => Ok(kept),
        (Some((network, gateway)), None) => {
            save_link(sql, &network, gateway)?;
            Ok(Some((network, gateway)))
        }
        (Some(known), Some(_)) => Ok(Some(known)),
    }
}

#[derive(Deserialize)]
struct MemberRow {
    member: String,
}

/// Keeps (`present`) or forgets `member`.
pub(crate) fn keep(sql: &SqlStorage, member: &Address, present: bool) -> Result<()> {
    let query = if present {
        "INSERT OR IGNORE INTO gateway_members (member) VALUES (?)"
    } else {
        "DELETE FROM gateway_members WHERE member = ?"
    };
    run(sql, query, vec![member.to_string().into()])
}

/// The members kept (rows that are no address are skipped).
pub(crate) fn kept(sql: &SqlStorage) -> Result<Vec<Address>> {
    let rows: Vec<MemberRow> = select(sql, "SELECT member FROM gateway_members", None)?;
    Ok(rows.iter().filter_map(|r| r.member.parse().ok()).collect())
}

/// Forgets every member (the network was told the gateway restarted).
#[cfg(feature = "test-hooks")]
pub(crate) fn forget_all(sql: &SqlStorage) -> Result<()> {
    run(sql, "DELETE FROM gateway_members", None)
}
