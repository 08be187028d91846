//! The network's rows in the Durable Object's SQLite storage.
//!
//! Tables: `config` (one JSON row), `members` (one JSON record per
//! address) and `events` (the log, keyed by sequence number). Loading reads
//! the config, the members and `max(seq)` — never the whole log — so waking
//! a hibernated object stays cheap.

use agentnet_core::network::Member;
use agentnet_core::{Event, NetworkConfig};
use serde::Deserialize;
use worker::{SqlStorage, SqlStorageValue};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS members (address TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, event TEXT NOT NULL);
";

/// Typed access to one network's tables.
pub struct Store {
    sql: SqlStorage,
}

#[derive(Deserialize)]
struct ValueRow {
    value: String,
}

#[derive(Deserialize)]
struct RecordRow {
    record: String,
}

#[derive(Deserialize)]
struct MaxSeqRow {
    last: Option<i64>,
}

impl Store {
    /// Opens the store, creating the tables on first use.
    pub fn open(sql: SqlStorage) -> worker::Result<Self> {
        sql.exec(SCHEMA, None)?;
        Ok(Self { sql })
    }

    /// The stored configuration, if the network exists.
    pub fn config(&self) -> worker::Result<Option<NetworkConfig>> {
        let rows: Vec<ValueRow> = self
            .sql
            .exec("SELECT value FROM config WHERE key = 'network'", None)?
            .to_array()?;
        match rows.first() {
            Some(row) => Ok(Some(serde_json::from_str(&row.value)?)),
            None => Ok(None),
        }
    }

    /// Stores the configuration.
    pub fn save_config(&self, config: &NetworkConfig) -> worker::Result<()> {
        self.sql.exec(
            "INSERT OR REPLACE INTO config (key, value) VALUES ('network', ?)",
            vec![SqlStorageValue::from(serde_json::to_string(config)?)],
        )?;
        Ok(())
    }

    /// Every stored membership record.
    pub fn members(&self) -> worker::Result<Vec<Member>> {
        let rows: Vec<RecordRow> = self
            .sql
            .exec("SELECT record FROM members", None)?
            .to_array()?;
        rows.iter()
            .map(|row| serde_json::from_str(&row.record).map_err(worker::Error::from))
            .collect()
    }

    /// Inserts or replaces a membership record.
    pub fn save_member(&self, member: &Member) -> worker::Result<()> {
        self.sql.exec(
            "INSERT OR REPLACE INTO members (address, record) VALUES (?, ?)",
            vec![
                SqlStorageValue::from(member.address.to_string()),
                SqlStorageValue::from(serde_json::to_string(member)?),
            ],
        )?;
        Ok(())
    }

    /// The highest sequence number in the log (0 when empty).
    pub fn last_seq(&self) -> worker::Result<u64> {
        let row: MaxSeqRow = self
            .sql
            .exec("SELECT max(seq) AS last FROM events", None)?
            .one()?;
        Ok(row.last.and_then(|s| u64::try_from(s).ok()).unwrap_or(0))
    }

    /// Appends an accepted event at `seq`.
    pub fn append(&self, seq: u64, event: &Event) -> worker::Result<()> {
        let seq =
            i64::try_from(seq).map_err(|_| worker::Error::RustError("sequence overflow".into()))?;
        self.sql.exec(
            "INSERT INTO events (seq, id, event) VALUES (?, ?, ?)",
            vec![
                SqlStorageValue::from(seq),
                SqlStorageValue::from(event.id.to_string()),
                SqlStorageValue::from(event.encode()),
            ],
        )?;
        Ok(())
    }
}
