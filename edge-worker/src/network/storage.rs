//! The network's rows in the Durable Object's SQLite storage.
//!
//! * `config` — the network configuration (one JSON row);
//! * `state` — the core's state rows (members, channels, groups, resources,
//!   invitations, mod state), keyed by `(kind, key)`, one JSON value each;
//! * `events` — the log by sequence number, with `type`, `source` and
//!   `target` columns so history queries filter in SQL;
//! * `event_text` — an FTS5 (trigram) index of retained messages' text, so
//!   a history query's `text` filters in SQL too (`crate::network::text_index`);
//! * `sessions`, `tickets` — HTTP bearer sessions and single-use tickets by
//!   the SHA-256 of their token (`crate::network::sessions`);
//! * `mcp_sessions` — MCP sessions (legacy revisions) by id (`crate::mcp::store`);
//! * `oauth_clients`, `oauth_grants` — the authorization server's clients,
//!   and its codes and tokens by their SHA-256 (`crate::oauth::store`, which
//!   creates them);
//! * `audience` — `(audience, seq)` pairs: a member's catch-up is a range
//!   scan over its few audiences (`public`, `member:{address}`, its
//!   channels and groups), never a scan of the whole log. The message
//!   graph's link rows (`ioa/…` keys, `agentnet_core::model::graph`) share
//!   the table and its batches (`crate::network::graph_store` reads them). Pages by
//!   audience are read in `crate::network::log_pages`.
//!
//! Loading reads the config, the state rows and `max(seq)` — never the log —
//! so waking a hibernated object stays cheap.

use crate::host::sql::{integer, run, select, select_first, table_exists, text};
use crate::network::log_batch::{self, PendingAppends};
use crate::network::text_index;
use agentnet_core::model::search::SearchText;
use agentnet_core::model::state::{Row, RowKind};
use agentnet_core::network::{LogFilter, ReadRequest, ReadRows};
use agentnet_core::{Address, Event, EventPattern, Limits, NetworkConfig};
use serde::Deserialize;
use std::cell::RefCell;
use std::rc::Rc;
use worker::{SqlStorage, SqlStorageValue};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS state (kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, key));
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
  source TEXT NOT NULL, target TEXT NOT NULL, retain INTEGER NOT NULL, event TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audience (audience TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (audience, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS mcp_sessions (id TEXT PRIMARY KEY, member TEXT NOT NULL, created INTEGER NOT NULL, session TEXT NOT NULL);
";

/// Rows scanned at most to answer one history query.
const QUERY_SCAN_LIMIT: usize = 1000;

/// Typed access to one network's tables.
pub struct Store {
    pub(crate) sql: SqlStorage,
    /// Log rows gathered for one write (shared by every store of the object).
    pending: Rc<RefCell<PendingAppends>>,
}

#[derive(Deserialize)]
struct NewestRow {
    id: Option<String>,
}

#[derive(Deserialize)]
struct ValueRow {
    value: String,
}

#[derive(Deserialize)]
struct MaxSeqRow {
    last: Option<i64>,
}

#[derive(Deserialize)]
struct SeqRow {
    seq: i64,
}

#[derive(Deserialize)]
pub(crate) struct EventRow {
    seq: i64,
    event: String,
}

impl EventRow {
    pub(crate) fn new(seq: i64, event: String) -> Self {
        Self { seq, event }
    }
}

/// Most bytes of events in one page of the log (at least one event is always
/// sent), so a page of large events cannot exhaust the object's memory; a
/// member has at most two catch-up pages unacknowledged.
pub const BACKLOG_PAGE_BYTES: u64 = 1024 * 1024;

impl Store {
    /// A store over tables known to exist; log appends gather in `pending`.
    pub fn existing(sql: SqlStorage, pending: Rc<RefCell<PendingAppends>>) -> Self {
        Self { sql, pending }
    }

    /// Opens the store, creating the tables on first use.
    pub fn open(sql: SqlStorage, pending: Rc<RefCell<PendingAppends>>) -> worker::Result<Self> {
        sql.exec(SCHEMA, None)?;
        text_index::open(&sql)?;
        let store = Self { sql, pending };
        store.open_sessions()?;
        Ok(store)
    }

    /// Whether the tables exist, read without creating them (probing unknown ids stores nothing).
    pub fn exists(sql: &SqlStorage) -> worker::Result<bool> {
        table_exists(sql, "config")
    }

    /// The stored configuration, if the network exists.
    pub fn config(&self) -> worker::Result<Option<NetworkConfig>> {
        let rows: Vec<ValueRow> = select(
            &self.sql,
            "SELECT value FROM config WHERE key = 'network'",
            None,
        )?;
        match rows.first() {
            Some(row) => Ok(Some(serde_json::from_str(&row.value)?)),
            None => Ok(None),
        }
    }

    /// Stores the configuration.
    pub fn save_config(&self, config: &NetworkConfig) -> worker::Result<()> {
        run(
            &self.sql,
            "INSERT OR REPLACE INTO config (key, value) VALUES ('network', ?)",
            vec![text(serde_json::to_string(config)?)],
        )
    }

    /// Every stored state row; rows that no longer parse are skipped, not fatal.
    pub fn rows(&self) -> worker::Result<Vec<Row>> {
        let rows: Vec<ValueRow> = select(&self.sql, "SELECT value FROM state", None)?;
        Ok(rows
            .iter()
            .filter_map(|row| serde_json::from_str::<Row>(&row.value).ok())
            .collect())
    }

    /// Inserts or replaces a state row.
    pub fn store(&self, row: &Row) -> worker::Result<()> {
        run(
            &self.sql,
            "INSERT OR REPLACE INTO state (kind, key, value) VALUES (?, ?, ?)",
            vec![
                text(row.kind().as_str()),
                text(row.key()),
                text(serde_json::to_string(row)?),
            ],
        )
    }

    /// Deletes a state row.
    pub fn remove(&self, kind: RowKind, key: &str) -> worker::Result<()> {
        run(
            &self.sql,
            "DELETE FROM state WHERE kind = ? AND key = ?",
            vec![text(kind.as_str()), text(key)],
        )
    }

    /// The highest sequence number in the log (0 when empty).
    pub fn last_seq(&self) -> worker::Result<u64> {
        self.flush()?;
        let row: MaxSeqRow = self
            .sql
            .exec("SELECT max(seq) AS last FROM events", None)?
            .one()?;
        Ok(row.last.and_then(|s| u64::try_from(s).ok()).unwrap_or(0))
    }

    /// Deletes the log rows retention no longer keeps (`Effect::PruneLog`):
    /// rows without history up to `transient_through`, history up to
    /// `history_through`, then the audience rows of what is gone. Rows still
    /// gathered are written first, so none is left behind the bound.
    pub fn prune_log(&self, transient_through: u64, history_through: u64) -> worker::Result<()> {
        self.flush()?;
        self.sql.exec(
            "DELETE FROM events WHERE seq <= ? AND retain = 0",
            vec![integer(transient_through)?],
        )?;
        self.sql.exec(
            "DELETE FROM events WHERE seq <= ? AND retain = 1",
            vec![integer(history_through)?],
        )?;
        let upto = integer(transient_through.max(history_through))?;
        run(
            &self.sql,
            "DELETE FROM audience WHERE seq <= ? AND seq NOT IN (SELECT seq FROM events WHERE seq <= ?)",
            vec![upto.clone(), upto],
        )
    }

    /// Test hook: the next log batch fails as a whole and is written row by row.
    #[cfg(feature = "test-hooks")]
    pub fn fail_next_batch(&self) {
        self.pending.borrow_mut().fail_next_batch();
    }

    /// Gathers an accepted event at `seq` under its audiences; [`Store::flush`] writes it.
    pub fn append(
        &self,
        seq: u64,
        event: &Event,
        retain: bool,
        audiences: &[String],
        links: &[(String, u64)],
    ) {
        let mut pending = self.pending.borrow_mut();
        pending.push(seq, event, retain, audiences);
        for (key, linked) in links {
            pending.push_link(key, *linked);
        }
    }

    /// Writes the gathered log rows: one statement per table for all of them.
    pub fn flush(&self) -> worker::Result<()> {
        let writes = {
            let mut pending = self.pending.borrow_mut();
            if pending.is_empty() {
                return Ok(());
            }
            pending.take()
        };
        // A batch that fails is written again row by row, so a bad row costs only
        // itself; the error returned is that of a row that could not be written.
        let mut first_error = None;
        for batch in writes.audience_batches {
            if let Err(err) = self
                .sql
                .exec(log_batch::INSERT_AUDIENCES, vec![text(batch.as_str())])
            {
                worker::console_warn!("an audience batch failed, writing it row by row: {err}");
                let rows = log_batch::audience_rows(&batch).unwrap_or_else(|parse| {
                    worker::console_error!("an audience batch does not parse: {parse}");
                    Vec::new()
                });
                if rows.is_empty() {
                    first_error.get_or_insert(err);
                }
                for (audience, seq) in rows {
                    let one = integer(seq).and_then(|seq| {
                        self.sql.exec(
                            "INSERT OR IGNORE INTO audience (audience, seq) VALUES (?, ?)",
                            vec![text(audience), seq],
                        )
                    });
                    if let Err(err) = one {
                        worker::console_error!("an audience row of {seq} was not written: {err}");
                        first_error.get_or_insert(err);
                    }
                }
            }
        }
        let mut single = writes.large;
        for (n, batch) in writes.event_batches.into_iter().enumerate() {
            let statement = if n == 0 && writes.fail_first_batch {
                log_batch::FAILING_INSERT_EVENTS
            } else {
                log_batch::INSERT_EVENTS
            };
            if let Err(err) = self.sql.exec(statement, vec![text(batch.as_str())]) {
                worker::console_warn!("a log batch failed, writing it row by row: {err}");
                match log_batch::event_rows(&batch) {
                    Ok(rows) => single.extend(rows),
                    Err(parse) => {
                        worker::console_error!("a log batch does not parse: {parse}");
                        first_error.get_or_insert(err);
                    }
                }
            }
        }
        for row in single {
            let seq = row.seq;
            if let Err(err) = self.insert_event_row(row) {
                worker::console_error!("log row {seq} was not written: {err}");
                first_error.get_or_insert(err);
            }
        }
        if let Some(err) = text_index::write(&self.sql, writes.text_batches) {
            first_error.get_or_insert(err);
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Writes one `events` row with ordinary parameters.
    fn insert_event_row(&self, row: log_batch::LogRow) -> worker::Result<()> {
        run(
            &self.sql,
            "INSERT INTO events (seq, id, type, source, target, retain, event) VALUES (?, ?, ?, ?, ?, ?, ?)",
            vec![
                integer(row.seq)?,
                text(row.id),
                text(row.event_type),
                text(row.source),
                text(row.target),
                SqlStorageValue::from(i64::from(row.retain)),
                text(row.event),
            ],
        )
    }

    /// The greatest event id in the log (ULIDs sort by time), if any.
    pub fn newest_id(&self) -> worker::Result<Option<agentnet_core::EventId>> {
        self.flush()?;
        let row: Option<NewestRow> =
            select_first(&self.sql, "SELECT max(id) AS id FROM events", None)?;
        Ok(row.and_then(|r| r.id?.parse().ok()))
    }

    /// The `seq` of a logged event id, for deduplication beyond the core's window.
    pub fn seq_of(&self, id: &str) -> worker::Result<Option<u64>> {
        self.flush()?;
        let query = "SELECT seq FROM events WHERE id = ?";
        let row: Option<SeqRow> = select_first(&self.sql, query, vec![text(id)])?;
        Ok(row.and_then(|r| u64::try_from(r.seq).ok()))
    }

    /// The logged event `id`, if the log has it.
    pub fn event_by_id(&self, id: &str) -> worker::Result<Option<Event>> {
        self.flush()?;
        let rows: Vec<EventRow> = select(
            &self.sql,
            "SELECT seq, event FROM events WHERE id = ?",
            vec![text(id)],
        )?;
        Ok(decode_rows(&rows).into_iter().next().map(|(_, e)| e))
    }

    /// The rows a read of the log asks for, and whether the log has no more of them.
    pub fn read(&self, request: &ReadRequest) -> worker::Result<ReadRows> {
        self.flush()?;
        match &request.filter {
            LogFilter::Audiences { audiences } => self.audience_page(audiences, request),
            LogFilter::History {
                types,
                source,
                target,
                text,
            } => self.history(
                request.after,
                types.as_ref(),
                (source.as_ref(), target.as_ref()),
                text.as_ref(),
            ),
        }
    }

    /// Candidate rows for a history query, prefiltered in SQL; the core filters
    /// visibility. Returns the rows and whether the log has nothing beyond them.
    fn history(
        &self,
        after: u64,
        types: Option<&EventPattern>,
        (source, target): (Option<&Address>, Option<&Address>),
        search: Option<&SearchText>,
    ) -> worker::Result<ReadRows> {
        let mut sql = String::from("SELECT seq, event FROM events WHERE retain = 1 AND seq > ?");
        let mut bindings = vec![integer(after)?];
        if let Some(source) = source {
            sql.push_str(" AND source = ?");
            bindings.push(text(source.to_string()));
        }
        if let Some(target) = target {
            sql.push_str(" AND target = ?");
            bindings.push(text(target.to_string()));
        }
        match types {
            Some(EventPattern::Exact(t)) => {
                sql.push_str(" AND type = ?");
                bindings.push(text(t.as_str()));
            }
            Some(pattern @ EventPattern::Below(_)) => {
                // A range, not `LIKE`: the platform refuses LIKE patterns over 50 bytes.
                if let Some((above, below)) = pattern.below_range() {
                    sql.push_str(" AND type > ? AND type < ?");
                    bindings.push(text(above));
                    bindings.push(text(below));
                }
            }
            _ => {}
        }
        if let Some(search) = search {
            let (condition, values) = text_index::condition(search, after)?;
            sql.push_str(&condition);
            bindings.extend(values);
        }
        sql.push_str(" ORDER BY seq LIMIT ?");
        bindings.push(integer(QUERY_SCAN_LIMIT as u64)?);
        let rows: Vec<EventRow> = select(&self.sql, &sql, bindings)?;
        let exhausted = rows.len() < QUERY_SCAN_LIMIT;
        Ok((decode_rows(&rows), exhausted))
    }
}

pub(crate) fn decode_rows(rows: &[EventRow]) -> Vec<(u64, Event)> {
    let limits = Limits::default();
    rows.iter()
        .filter_map(|row| {
            let event = Event::decode(&row.event, &limits).ok()?;
            Some((u64::try_from(row.seq).ok()?, event))
        })
        .collect()
}
