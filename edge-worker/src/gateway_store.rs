//! What a gateway keeps in its SQLite storage: the members it holds sockets
//! of ([`GatewayEffect::Placed`](agentnet_core::gateway::GatewayEffect)), so
//! that an instance the platform reset — its sockets gone without a close
//! seen — can tell the network those members are gone
//! (`agentnet_core::gateway::Gateway::reconcile`).

use agentnet_core::Address;
use serde::Deserialize;
use worker::{Result, SqlStorage};

/// Creates the table (once, as the object starts).
pub(crate) fn create(sql: &SqlStorage) -> Result<()> {
    sql.exec(
        "CREATE TABLE IF NOT EXISTS gateway_members (member TEXT PRIMARY KEY)",
        None,
    )?;
    Ok(())
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
    sql.exec(query, vec![member.to_string().into()])?;
    Ok(())
}

/// The members kept (rows that are no address are skipped).
pub(crate) fn kept(sql: &SqlStorage) -> Result<Vec<Address>> {
    let rows: Vec<MemberRow> = sql
        .exec("SELECT member FROM gateway_members", None)?
        .to_array()?;
    Ok(rows.iter().filter_map(|r| r.member.parse().ok()).collect())
}

/// Forgets every member (the network was told the gateway restarted).
pub(crate) fn forget_all(sql: &SqlStorage) -> Result<()> {
    sql.exec("DELETE FROM gateway_members", None)?;
    Ok(())
}
