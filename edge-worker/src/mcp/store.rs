//! MCP sessions in the object's SQLite storage (`mcp_sessions`), so a
//! session outlives the object's memory: one row per session, its JSON
//! beside the member it acts as; a member keeps at most
//! `MAX_SESSIONS_PER_MEMBER` (the oldest go), and its sessions end when it
//! leaves.

use crate::host::sql::{Newest, integer, json_value, keep_newest, run, text};
use agentnet_core::Address;
use agentnet_core::bindings::mcp::session::{MAX_SESSIONS_PER_MEMBER, Session};
use worker::{Result, SqlStorage};

/// The session with this id.
pub(crate) fn get(sql: &SqlStorage, id: &str) -> Result<Option<Session>> {
    let query = "SELECT session AS value FROM mcp_sessions WHERE id = ?";
    json_value(sql, query, id)
}

/// Stores a session; drops its member's oldest beyond the limit.
pub(crate) fn save(sql: &SqlStorage, session: &Session) -> Result<()> {
    let member = session.member.to_string();
    run(
        sql,
        "INSERT OR REPLACE INTO mcp_sessions (id, member, created, session) VALUES (?, ?, ?, ?)",
        vec![
            text(session.id.as_str()),
            text(member.as_str()),
            integer(session.created.as_millis())?,
            text(serde_json::to_string(session)?),
        ],
    )?;
    let sessions = Newest {
        table: "mcp_sessions",
        key: "id",
        order: "created",
        scope: Some(("member", &member)),
    };
    keep_newest(sql, sessions, MAX_SESSIONS_PER_MEMBER as u64)
}

/// Ends a session; whether it existed.
pub(crate) fn end(sql: &SqlStorage, id: &str) -> Result<bool> {
    let existed = get(sql, id)?.is_some();
    run(sql, "DELETE FROM mcp_sessions WHERE id = ?", vec![text(id)])?;
    Ok(existed)
}

/// Ends every session of `member`.
pub(crate) fn end_member(sql: &SqlStorage, member: &Address) -> Result<()> {
    let query = "DELETE FROM mcp_sessions WHERE member = ?";
    run(sql, query, vec![text(member.to_string())])
}
