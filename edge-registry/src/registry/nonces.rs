//! DIDWba nonces claimed across the deployment
//! ([`agentnet_core::bindings::access::nonce_claims`]): one row per DID and nonce in
//! the registry's SQLite storage, until a replay could no longer pass the
//! timestamp window; expired rows go at each claim. The decision is the core's.

use crate::host::sql::{clamped_integer, select};
use agentnet_core::Timestamp;
use agentnet_core::bindings::Response;
use agentnet_core::bindings::access::nonce_claims::{Claimed, NonceClaim, answer};
use serde::Deserialize;
use worker::{Result, SqlStorage, SqlStorageValue};

pub(crate) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS didwba_nonces (key TEXT PRIMARY KEY, until INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS didwba_nonces_by_until ON didwba_nonces (until);
";

#[derive(Deserialize)]
struct Until {
    until: i64,
}

/// A network object's claim (`POST /internal/didwba-nonces`) decided and kept.
pub(crate) fn claim(sql: &SqlStorage, body: &str, now: Timestamp) -> Result<Response> {
    let claim = match NonceClaim::parse(body, now) {
        Ok(claim) => claim,
        Err(refused) => return Ok(refused),
    };
    sql.exec(SCHEMA, None)?;
    sql.exec(
        "DELETE FROM didwba_nonces WHERE until <= ?",
        vec![clamped_integer(now.as_millis())],
    )?;
    let key = claim.key();
    let held: Vec<Until> = select(
        sql,
        "SELECT until FROM didwba_nonces WHERE key = ?",
        vec![SqlStorageValue::from(key.clone())],
    )?;
    let held_until = held
        .first()
        .map(|row| Timestamp::from_millis(u64::try_from(row.until).unwrap_or(0)));
    let claimed = claim.decide(held_until, now);
    if claimed == Claimed::Granted {
        sql.exec(
            "INSERT OR REPLACE INTO didwba_nonces (key, until) VALUES (?, ?)",
            vec![
                SqlStorageValue::from(key),
                clamped_integer(claim.until_ms.as_millis()),
            ],
        )?;
    }
    Ok(answer(claimed))
}
