//! HTTP sessions and single-use tickets in the object's SQLite storage, by
//! the SHA-256 of their token (the token itself is never stored). When a
//! session expires, when its use is written down and which rows are pruned
//! is the core's (`agentnet_core::bindings::access::policy`); here are the rows.

use crate::host::sql::{integer, run, select_first, text};
use crate::network::storage::Store;
use agentnet_core::Timestamp;
use agentnet_core::bindings::access::policy::{Expired, SessionRow, TicketRow};
use serde::Deserialize;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sessions (token_sha256 TEXT PRIMARY KEY, address TEXT NOT NULL, created INTEGER NOT NULL, last_used INTEGER);
CREATE TABLE IF NOT EXISTS tickets (ticket_sha256 TEXT PRIMARY KEY, address TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS tickets_by_expiry ON tickets (expires_at);
";

/// Indexes the pruning and a member's leave search by (created after the column exists).
const INDEXES: &str = "
CREATE INDEX IF NOT EXISTS sessions_by_use ON sessions (last_used);
CREATE INDEX IF NOT EXISTS sessions_by_age ON sessions (created);
CREATE INDEX IF NOT EXISTS sessions_by_address ON sessions (address);
";

#[derive(Deserialize)]
struct SessionColumns {
    address: String,
    created: i64,
    last_used: Option<i64>,
}

#[derive(Deserialize)]
struct TicketColumns {
    address: String,
    expires_at: i64,
}

fn unsigned(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

impl Store {
    /// Creates the tables; a `sessions` table from before expiry gets its
    /// `last_used` column (its rows count as last used when they were made).
    pub(crate) fn open_sessions(&self) -> worker::Result<()> {
        self.sql.exec(SCHEMA, None)?;
        if self
            .sql
            .exec("SELECT last_used FROM sessions LIMIT 0", None)
            .is_err()
        {
            self.sql
                .exec("ALTER TABLE sessions ADD COLUMN last_used INTEGER", None)?;
            self.sql
                .exec("UPDATE sessions SET last_used = created", None)?;
        }
        run(&self.sql, INDEXES, None)
    }

    /// Records a new session, started and used at `now`.
    pub fn add_session(
        &self,
        token_sha256: &str,
        address: &str,
        now: Timestamp,
    ) -> worker::Result<()> {
        let now = now.as_millis();
        run(
            &self.sql,
            "INSERT OR REPLACE INTO sessions (token_sha256, address, created, last_used) VALUES (?, ?, ?, ?)",
            vec![
                text(token_sha256),
                text(address),
                integer(now)?,
                integer(now)?,
            ],
        )
    }

    /// The session whose token hashes to `token_sha256`.
    pub fn session(&self, token_sha256: &str) -> worker::Result<Option<SessionRow>> {
        let row: Option<SessionColumns> = select_first(
            &self.sql,
            "SELECT address, created, last_used FROM sessions WHERE token_sha256 = ?",
            vec![text(token_sha256)],
        )?;
        Ok(row.map(|r| SessionRow {
            address: r.address,
            created: Timestamp::from_millis(unsigned(r.created)),
            last_used: Timestamp::from_millis(unsigned(r.last_used.unwrap_or(r.created))),
        }))
    }

    /// Writes down that a session was used at `now`.
    pub fn touch_session(&self, token_sha256: &str, now: Timestamp) -> worker::Result<()> {
        run(
            &self.sql,
            "UPDATE sessions SET last_used = ? WHERE token_sha256 = ?",
            vec![integer(now.as_millis())?, text(token_sha256)],
        )
    }

    /// Ends one session.
    pub fn end_session(&self, token_sha256: &str) -> worker::Result<()> {
        run(
            &self.sql,
            "DELETE FROM sessions WHERE token_sha256 = ?",
            vec![text(token_sha256)],
        )
    }

    /// Ends every session and ticket of `address`.
    pub fn end_sessions(&self, address: &str) -> worker::Result<()> {
        self.sql.exec(
            "DELETE FROM sessions WHERE address = ?",
            vec![text(address)],
        )?;
        run(
            &self.sql,
            "DELETE FROM tickets WHERE address = ?",
            vec![text(address)],
        )
    }

    /// Deletes the sessions `expired` covers.
    pub fn prune_sessions(&self, expired: Expired) -> worker::Result<()> {
        if let Some(bound) = expired.idle_before {
            self.sql.exec(
                "DELETE FROM sessions WHERE last_used <= ?",
                vec![integer(bound.as_millis())?],
            )?;
        }
        if let Some(bound) = expired.created_before {
            self.sql.exec(
                "DELETE FROM sessions WHERE created <= ?",
                vec![integer(bound.as_millis())?],
            )?;
        }
        Ok(())
    }

    /// Records a ticket of `address`, valid until `expires_at`.
    pub fn add_ticket(
        &self,
        ticket_sha256: &str,
        address: &str,
        expires_at: Timestamp,
    ) -> worker::Result<()> {
        let expires_at = integer(expires_at.as_millis())?;
        run(
            &self.sql,
            "INSERT OR REPLACE INTO tickets (ticket_sha256, address, expires_at) VALUES (?, ?, ?)",
            vec![text(ticket_sha256), text(address), expires_at],
        )
    }

    /// Removes and returns the ticket whose token hashes to `ticket_sha256`.
    pub fn take_ticket(&self, ticket_sha256: &str) -> worker::Result<Option<TicketRow>> {
        let row: Option<TicketColumns> = select_first(
            &self.sql,
            "DELETE FROM tickets WHERE ticket_sha256 = ? RETURNING address, expires_at",
            vec![text(ticket_sha256)],
        )?;
        Ok(row.map(|r| TicketRow {
            address: r.address,
            expires_at: Timestamp::from_millis(unsigned(r.expires_at)),
        }))
    }

    /// Deletes the tickets expired at `now`.
    pub fn prune_tickets(&self, now: Timestamp) -> worker::Result<()> {
        run(
            &self.sql,
            "DELETE FROM tickets WHERE expires_at <= ?",
            vec![integer(now.as_millis())?],
        )
    }
}
