//! MCP sessions in the object's SQLite storage (`mcp_sessions`), so a
//! session outlives the object's memory: one row per session, its JSON
//! beside the member it acts as; a member keeps at most
//! `MAX_SESSIONS_PER_MEMBER` (the oldest go), and its sessions end when it
//! leaves.

use crate::network::storage::{integer, text};
use agentnet_core::Address;
use agentnet_core::bindings::mcp::session::{MAX_SESSIONS_PER_MEMBER, Session};
use serde::Deserialize;
use worker::{Result, SqlStorage};

#[derive(Deserialize)]
struct SessionRow {
    session: String,
}

/// The session with this id.
pub(crate) fn get(sql: &SqlStorage, id: &str) -> Result<Option<Session>> {
    let rows: Vec<SessionRow> = sql
        .exec(
            "SELECT session FROM mcp_sessions WHERE id = ?",
            vec![text(id)],
        )?
        .to_array()?;
    Ok(rows
        .first()
        .and_then(|row| serde_json::from_str(&row.session).ok()))
}

/// Stores a session; drops its member's oldest beyond the limit.
pub(crate) fn save(sql: &SqlStorage, session: &Session) -> Result<()> {
    let member = session.member.to_string();
    sql.exec(
        "INSERT OR REPLACE INTO mcp_sessions (id, member, created, session) VALUES (?, ?, ?, ?)",
        vec![
            text(session.id.as_str()),
            text(member.as_str()),
            integer(session.created.as_millis())?,
            text(serde_json::to_string(session)?),
        ],
    )?;
    sql.exec(
        "DELETE FROM mcp_sessions WHERE member = ? AND id NOT IN \
         (SELECT id FROM mcp_sessions WHERE member = ? ORDER BY created DESC LIMIT ?)",
        vec![
            text(member.as_str()),
            text(member.as_str()),
            integer(MAX_SESSIONS_PER_MEMBER as u64)?,
        ],
    )?;
    Ok(())
}

/// Ends a session; whether it existed.
pub(crate) fn end(sql: &SqlStorage, id: &str) -> Result<bool> {
    let existed = get(sql, id)?.is_some();
    sql.exec("DELETE FROM mcp_sessions WHERE id = ?", vec![text(id)])?;
    Ok(existed)
}

/// Ends every session of `member`.
pub(crate) fn end_member(sql: &SqlStorage, member: &Address) -> Result<()> {
    let member = member.to_string();
    sql.exec(
        "DELETE FROM mcp_sessions WHERE member = ?",
        vec![text(member.as_str())],
    )?;
    Ok(())
}
