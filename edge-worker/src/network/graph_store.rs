//! The log's index for the core: [`LogIndex`] answers the core's
//! deduplication lookups beyond its window (the log's unique id column) and
//! the message graph's reads over SQLite: the core's
//! [`GraphIndex`](agentnet_core::model::graph::GraphIndex) on the `audience`
//! table, where the graph's `(key, seq)` link rows live next to the
//! audiences (`crate::network::storage`), and the log's `events` by `seq`.
//!
//! Every lookup is one indexed range of the `(audience, seq)` primary key;
//! rows still gathered for the batch are written first.

use crate::host::sql::{clamped_integer, select, select_first, text};
use crate::network::storage::{EventRow, decode_rows};
use agentnet_core::Event;
use agentnet_core::model::graph::{End, GraphIndex};
use serde::Deserialize;

/// The log's unique id column as the core's deduplication index beyond its window.
pub struct LogIndex(pub crate::network::storage::Store);

impl agentnet_core::network::EventIndex for LogIndex {
    fn seq_of(&self, id: &agentnet_core::EventId) -> Option<u64> {
        self.0.seq_of(&id.to_string()).ok().flatten()
    }

    fn graph(&self) -> Option<&dyn agentnet_core::model::graph::GraphIndex> {
        Some(self)
    }

    fn newest_timestamp(&self) -> Option<u64> {
        match self.0.newest_id() {
            Ok(newest) => newest.map(agentnet_core::EventId::timestamp_ms),
            // Unknown: ask the index about every id, as before.
            Err(_) => Some(u64::MAX),
        }
    }
}

#[derive(Deserialize)]
struct LinkRow {
    seq: i64,
}

/// Most `seq`s one `IN (…)` read names (the platform binds at most 100 parameters;
/// the list travels as one JSON parameter).
const EVENTS_PER_READ: usize = 500;

/// Runs `query` for each [`EVENTS_PER_READ`] of `items` in turn, the chunk bound as
/// one JSON list (`… IN (SELECT value FROM json_each(?))`), and hands `each` every
/// chunk's rows as they come (so no more than a chunk's rows are held at once).
fn select_by_chunks<I: serde::Serialize, T: serde::de::DeserializeOwned>(
    sql: &worker::SqlStorage,
    query: &str,
    items: &[I],
    mut each: impl FnMut(Vec<T>),
) -> worker::Result<()> {
    for chunk in items.chunks(EVENTS_PER_READ) {
        let list = serde_json::to_string(chunk).unwrap_or_else(|_| "[]".into());
        each(select(sql, query, vec![text(list)])?);
    }
    Ok(())
}

impl LogIndex {
    fn try_linked(
        &self,
        key: &str,
        (after, before): (u64, u64),
        limit: usize,
        end: End,
    ) -> worker::Result<Vec<u64>> {
        self.0.flush()?;
        let order = match end {
            End::Oldest => "ASC",
            End::Newest => "DESC",
        };
        let limit = clamped_integer(u64::try_from(limit).unwrap_or(u64::MAX));
        let sql = format!(
            "SELECT seq FROM audience WHERE audience = ? AND seq > ? AND seq < ? ORDER BY seq {order} LIMIT ?"
        );
        let before = clamped_integer(before);
        let rows: Vec<LinkRow> = select(
            &self.0.sql,
            &sql,
            vec![text(key), clamped_integer(after), before, limit],
        )?;
        let mut seqs: Vec<u64> = rows
            .iter()
            .filter_map(|r| u64::try_from(r.seq).ok())
            .collect();
        if end == End::Newest {
            seqs.reverse();
        }
        Ok(seqs)
    }

    fn try_linked_all(&self, keys: &[String]) -> worker::Result<Vec<u64>> {
        self.0.flush()?;
        let mut all = Vec::new();
        let query =
            "SELECT DISTINCT seq FROM audience WHERE audience IN (SELECT value FROM json_each(?))";
        select_by_chunks(&self.0.sql, query, keys, |rows: Vec<LinkRow>| {
            all.extend(rows.iter().filter_map(|r| u64::try_from(r.seq).ok()));
        })?;
        all.sort_unstable();
        all.dedup();
        Ok(all)
    }

    fn try_count(&self, key: &str) -> worker::Result<u64> {
        self.0.flush()?;
        let query = "SELECT count(*) AS seq FROM audience WHERE audience = ?";
        let row: Option<LinkRow> = select_first(&self.0.sql, query, vec![text(key)])?;
        Ok(row.and_then(|r| u64::try_from(r.seq).ok()).unwrap_or(0))
    }

    fn try_events(&self, seqs: &[u64]) -> worker::Result<Vec<(u64, Event)>> {
        self.0.flush()?;
        let mut found = Vec::with_capacity(seqs.len());
        let query = "SELECT seq, event FROM events WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq";
        select_by_chunks(&self.0.sql, query, seqs, |rows: Vec<EventRow>| {
            found.extend(decode_rows(&rows));
        })?;
        agentnet_core::sorting::sort_by_key(&mut found, |(seq, _)| *seq);
        Ok(found)
    }
}

impl GraphIndex for LogIndex {
    fn linked(&self, key: &str, after: u64, before: u64, limit: usize, end: End) -> Vec<u64> {
        self.try_linked(key, (after, before), limit, end)
            .unwrap_or_else(|err| {
                worker::console_error!("graph lookup {key} failed: {err}");
                Vec::new()
            })
    }

    fn contains(&self, key: &str, seq: u64) -> bool {
        self.try_linked(
            key,
            (seq.saturating_sub(1), seq.saturating_add(1)),
            1,
            End::Oldest,
        )
        .is_ok_and(|found| found.first() == Some(&seq))
    }

    fn linked_all(&self, keys: &[String]) -> Vec<u64> {
        self.try_linked_all(keys).unwrap_or_else(|err| {
            worker::console_error!("graph lookup of {} keys failed: {err}", keys.len());
            Vec::new()
        })
    }

    fn count(&self, key: &str) -> u64 {
        self.try_count(key).unwrap_or_else(|err| {
            worker::console_error!("counting {key} failed: {err}");
            0
        })
    }

    fn events(&self, seqs: &[u64]) -> Vec<(u64, Event)> {
        self.try_events(seqs).unwrap_or_else(|err| {
            worker::console_error!("reading {} graph messages failed: {err}", seqs.len());
            Vec::new()
        })
    }
}
