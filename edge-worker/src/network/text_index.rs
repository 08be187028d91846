//! The full-text index of the network's history: `network.events.query`'s
//! `text` narrows in SQL before the core checks each row again.
//!
//! workerd's SQLite has FTS5 (checked under `wrangler dev`: `CREATE VIRTUAL
//! TABLE … USING fts5(…, tokenize='trigram')` works in a Durable Object, and
//! so do triggers), so the index is an FTS5 table, `event_text`, with the
//! **trigram** tokenizer: it finds any substring of three characters or more,
//! case-insensitively — the core's rule ([`agentnet_core::model::search`]:
//! every term a case-insensitive substring of the message's text), where a
//! word tokenizer would find whole words only. Its `rowid` is the event's
//! `seq` and its `text` the lower-cased searchable text, written with the log
//! (`crate::network::log_batch`) for retained events only: only history is
//! queried. A term of three characters or more is a phrase in one `MATCH`; a
//! shorter one (which a trigram cannot find) is an `instr` over the indexed
//! texts, so a short word scans messages, never the whole log.
//!
//! Kept in step: a trigger removes a row's text when its `events` row goes
//! (retention's deletes included). Objects whose log predates the index get
//! it on their first load after the upgrade, filled in one statement from the
//! stored events (their string `content` and `status`, lower-cased by
//! SQLite's ASCII-only `lower`; the trigram index folds case itself, so only
//! a short non-ASCII term can miss such an old row).

use crate::host::sql::{integer, table_exists, text};
use crate::network::log_batch;
use agentnet_core::model::search::SearchText;
use worker::{SqlStorage, SqlStorageValue};

/// The index and the trigger that keeps it in step with `events`.
const SCHEMA: &str = "
CREATE VIRTUAL TABLE IF NOT EXISTS event_text USING fts5(text, tokenize = 'trigram');
CREATE TRIGGER IF NOT EXISTS event_text_gone AFTER DELETE ON events
  BEGIN DELETE FROM event_text WHERE rowid = old.seq; END;
";

/// Fills the index from an existing log (an object from before the index).
const BACKFILL: &str = "
INSERT INTO event_text (rowid, text)
SELECT seq, t FROM (
  SELECT seq, lower(trim(
    coalesce(CASE WHEN json_type(event, '$.payload.content') = 'text'
                  THEN json_extract(event, '$.payload.content') END, '') || ' ' ||
    coalesce(CASE WHEN json_type(event, '$.payload.status') = 'text'
                  THEN json_extract(event, '$.payload.status') END, ''))) AS t
  FROM events WHERE retain = 1 AND substr(type, 1, 8) <> 'network.'
) WHERE t <> ''";

/// Inserts the rows of a text batch: `[[seq, text], …]`.
pub const INSERT_TEXTS: &str = "INSERT INTO event_text (rowid, text) \
     SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)";

/// Terms shorter than this (in characters) are not in the trigram index.
const TRIGRAM: usize = 3;

/// Creates the index, filling it from the log when the object had none.
pub fn open(sql: &SqlStorage) -> worker::Result<()> {
    let fill = !table_exists(sql, "event_text")?;
    sql.exec(SCHEMA, None)?;
    if fill {
        sql.exec(BACKFILL, None)?;
    }
    Ok(())
}

/// Writes gathered text batches; a batch that fails is written row by row.
/// Returns the first error of a row that could not be written.
pub fn write(sql: &SqlStorage, batches: Vec<String>) -> Option<worker::Error> {
    let mut first_error = None;
    for batch in batches {
        let Err(err) = sql.exec(INSERT_TEXTS, vec![text(batch.as_str())]) else {
            continue;
        };
        worker::console_warn!("a text batch failed, writing it row by row: {err}");
        let rows = log_batch::text_rows(&batch).unwrap_or_default();
        if rows.is_empty() {
            first_error.get_or_insert(err);
        }
        for (seq, searchable) in rows {
            let one = integer(seq).and_then(|seq| {
                sql.exec(
                    "INSERT INTO event_text (rowid, text) VALUES (?, ?)",
                    vec![seq, text(searchable)],
                )
            });
            if let Err(err) = one {
                worker::console_error!("the text of {seq} was not indexed: {err}");
                first_error.get_or_insert(err);
            }
        }
    }
    first_error
}

/// The condition on `events.seq` that keeps the rows whose text has every
/// term of `search`, after `after`, and its bound values.
pub fn condition(
    search: &SearchText,
    after: u64,
) -> worker::Result<(String, Vec<SqlStorageValue>)> {
    let mut sql = String::from(" AND seq IN (SELECT rowid FROM event_text WHERE rowid > ?");
    let mut bindings = vec![integer(after)?];
    if let Some(phrases) = match_expression(search) {
        sql.push_str(" AND event_text MATCH ?");
        bindings.push(text(phrases));
    }
    for term in short_terms(search) {
        sql.push_str(" AND instr(text, ?) > 0");
        bindings.push(text(term));
    }
    sql.push(')');
    Ok((sql, bindings))
}

/// The FTS5 query for the terms the trigram index holds: each a quoted
/// phrase (`"` doubled), all of them required; `None` when every term is short.
fn match_expression(search: &SearchText) -> Option<String> {
    let phrases: Vec<String> = search
        .terms()
        .iter()
        .filter(|t| t.chars().count() >= TRIGRAM)
        .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
        .collect();
    (!phrases.is_empty()).then(|| phrases.join(" AND "))
}

/// The terms too short for the trigram index.
fn short_terms(search: &SearchText) -> impl Iterator<Item = &str> {
    search
        .terms()
        .iter()
        .filter(|t| t.chars().count() < TRIGRAM)
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(text: &str) -> SearchText {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn long_terms_are_quoted_phrases_all_required_and_short_ones_are_left_to_instr() {
        let query = search(r#"Deploy "quoted" OR ab NEAR"#);
        assert_eq!(
            match_expression(&query).as_deref(),
            Some(r#""deploy" AND """quoted""" AND "near""#),
            "operators are words to find, never FTS5 syntax"
        );
        assert_eq!(short_terms(&query).collect::<Vec<_>>(), ["or", "ab"]);
        assert_eq!(match_expression(&search("a bc")), None);
    }
}
