//! MCP sessions in the object's SQLite storage (`mcp_sessions`), so a
//! session outlives the object's memory: one row per session, its JSON
//! beside the member it acts as; a member keeps at most
//! `MAX_SESSIONS_PER_MEMBER` (the oldest go).

use crate::http::RequestIo;
use crate::storage::{integer, text};
use agentnet_core::bindings::mcp::session::{MAX_SESSIONS_PER_MEMBER, McpHost, Session};
use serde::Deserialize;
use worker::Result;

#[derive(Deserialize)]
struct SessionRow {
    session: String,
}

impl McpHost for RequestIo<'_> {
    fn mcp_session(&mut self, id: &str) -> Result<Option<Session>> {
        let rows: Vec<SessionRow> = self
            .sql()
            .exec(
                "SELECT session FROM mcp_sessions WHERE id = ?",
                vec![text(id)],
            )?
            .to_array()?;
        Ok(rows
            .first()
            .and_then(|row| serde_json::from_str(&row.session).ok()))
    }

    fn save_mcp_session(&mut self, session: &Session) -> Result<()> {
        let sql = self.sql();
        let member = session.member.to_string();
        sql.exec(
            "INSERT OR REPLACE INTO mcp_sessions (id, member, created, session) VALUES (?, ?, ?, ?)",
            vec![
                text(session.id.as_str()),
                text(member.as_str()),
                integer(session.created)?,
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

    fn end_mcp_session(&mut self, id: &str) -> Result<bool> {
        let existed = self.mcp_session(id)?.is_some();
        self.sql()
            .exec("DELETE FROM mcp_sessions WHERE id = ?", vec![text(id)])?;
        Ok(existed)
    }
}
