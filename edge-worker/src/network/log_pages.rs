//! Pages of the log by audience: a member's catch-up and its HTTP polls.
//!
//! A page is the first `limit` events after a cursor in any of the member's
//! audiences (`public`, its own, its channels and groups), cut where their
//! size passes [`BACKLOG_PAGE_BYTES`]. Its cost must not grow with what
//! lies beyond the page: a member a million events behind reads each page
//! as fast as one that is ten behind.
//!
//! One `audience = ? AND seq > ?` range per audience is read in index order
//! and stopped at `limit` rows, and the ranges are merged by SQLite (`UNION`,
//! which also drops an event seen under two audiences) or, past
//! [`AUDIENCES_PER_STATEMENT`], in Rust. The page's events are then read by
//! `seq`. (One `audience IN (…)` statement read and sorted every row after
//! the cursor before taking the page: 9 ms per page with 100,000 behind.)

use crate::host::sql::{integer, select, text};
use crate::network::storage::{BACKLOG_PAGE_BYTES, Store, decode_rows};
use agentnet_core::network::{ReadRequest, ReadRows};
use serde::Deserialize;
use worker::SqlStorageValue;

/// Audiences one statement merges: the platform's SQLite takes at most five
/// terms in a compound `SELECT` (six are refused), and 16 bound values are
/// well within its 100 per statement.
pub const AUDIENCES_PER_STATEMENT: usize = 5;

/// The statement that lists the first `limit` seqs after a cursor in any of
/// `audiences` audiences, bound as `audience, after, limit` for each, then `limit`.
pub fn page_seqs_statement(audiences: usize) -> String {
    let range = "SELECT seq FROM (SELECT seq FROM audience WHERE audience = ? AND seq > ? ORDER BY seq LIMIT ?)";
    let mut sql = vec![range; audiences.max(1)].join(" UNION ");
    sql.push_str(" ORDER BY seq LIMIT ?");
    sql
}

/// The page's events by `seq`, cut where their running size passes the byte
/// budget (bound: the seqs as a JSON array, then the budget); `found` counts
/// the events that exist before the cut.
const PAGE_EVENTS: &str = "SELECT seq, event, found FROM \
     (SELECT seq, event, SUM(length(event)) OVER (ORDER BY seq) AS running, COUNT(*) OVER () AS found \
      FROM events WHERE seq IN (SELECT value FROM json_each(?))) \
     WHERE running - length(event) < ? ORDER BY seq";

/// The first `limit` of several ascending seq lists, merged without repeats.
pub fn merge_seqs(lists: Vec<Vec<u64>>, limit: usize) -> Vec<u64> {
    let mut merged: Vec<u64> = lists.into_iter().flatten().collect();
    merged.sort_unstable();
    merged.dedup();
    merged.truncate(limit);
    merged
}

#[derive(Deserialize)]
struct SeqRow {
    seq: i64,
}

/// A page's row and how many of the page's events exist before the byte budget.
#[derive(Deserialize)]
struct PageRow {
    seq: i64,
    event: String,
    found: i64,
}

impl Store {
    /// One page of rows in any of `audiences` after the request's cursor, and
    /// whether the log has no more of them.
    pub(crate) fn audience_page(
        &self,
        audiences: &[String],
        request: &ReadRequest,
    ) -> worker::Result<ReadRows> {
        if audiences.is_empty() || request.limit == 0 {
            return Ok((Vec::new(), true));
        }
        let limit = integer(request.limit as u64)?;
        let after = integer(request.after)?;
        let mut lists = Vec::new();
        for group in audiences.chunks(AUDIENCES_PER_STATEMENT) {
            let mut bindings: Vec<SqlStorageValue> = Vec::with_capacity(group.len() * 3 + 1);
            for audience in group {
                bindings.extend([text(audience.as_str()), after.clone(), limit.clone()]);
            }
            bindings.push(limit.clone());
            let rows: Vec<SeqRow> = select(&self.sql, &page_seqs_statement(group.len()), bindings)?;
            lists.push(
                rows.into_iter()
                    .filter_map(|r| u64::try_from(r.seq).ok())
                    .collect(),
            );
        }
        let seqs = merge_seqs(lists, request.limit);
        if seqs.is_empty() {
            return Ok((Vec::new(), true));
        }
        let listed = seqs.len();
        let seqs = serde_json::to_string(&seqs)
            .map_err(|e| worker::Error::RustError(format!("page seqs: {e}")))?;
        let rows: Vec<PageRow> = select(
            &self.sql,
            PAGE_EVENTS,
            vec![text(seqs), integer(BACKLOG_PAGE_BYTES)?],
        )?;
        let found = rows.first().map_or(0, |r| r.found);
        // Exhausted only when fewer than a page was listed and the budget cut none of them.
        let exhausted = listed < request.limit && rows.len() as i64 == found;
        let rows: Vec<_> = rows
            .into_iter()
            .map(|r| crate::network::storage::EventRow::new(r.seq, r.event))
            .collect();
        Ok((decode_rows(&rows), exhausted))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_range_per_audience_merged_by_seq() {
        let sql = page_seqs_statement(3);
        assert_eq!(
            sql.matches("audience = ? AND seq > ? ORDER BY seq LIMIT ?")
                .count(),
            3
        );
        assert_eq!(sql.matches(" UNION ").count(), 2);
        assert!(sql.ends_with(" ORDER BY seq LIMIT ?"));
        // Bound values stay within the platform's 100 per statement.
        assert!(
            page_seqs_statement(AUDIENCES_PER_STATEMENT)
                .matches('?')
                .count()
                <= 100
        );
    }

    #[test]
    fn merged_lists_keep_the_first_limit_without_repeats() {
        let merged = merge_seqs(vec![vec![2, 5, 9], vec![1, 5, 6, 10], vec![]], 4);
        assert_eq!(merged, vec![1, 2, 5, 6]);
        assert_eq!(merge_seqs(vec![vec![3], vec![3]], 10), vec![3]);
        assert!(merge_seqs(Vec::new(), 5).is_empty());
    }
}
