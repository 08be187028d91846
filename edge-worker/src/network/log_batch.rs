//! Log appends gathered and written together.
//!
//! Every accepted event is one `events` row plus one `audience` row per
//! audience. The object gathers the rows of all the frames it handles in one
//! drain (one implicit transaction) and writes them with one statement per
//! table: the rows travel as one JSON array parameter that SQLite's
//! `json_each` unpacks. The platform allows at most 100 bound parameters per
//! statement and 2 MB per value, so a batch is cut at [`BATCH_BYTES`], and an
//! event too large to carry inside a batch is written on its own with
//! ordinary parameters. If a batch statement fails as a whole, its rows are
//! written one by one ([`event_rows`], [`audience_rows`]), so one bad row
//! costs only itself.
//!
//! A retained message's searchable text (`agentnet_core::model::search`)
//! is one more row, `[seq, text]`, for the full-text index
//! (`crate::network::text_index`), gathered and written the same way.
//!
//! Rows are written before anything reads the log (the store flushes first)
//! and at the end of each drain, before the frames the drain produced (acks,
//! deliveries) are sent: an ack never leaves ahead of the row it stands for,
//! even when a later frame of the same drain fails or panics.

use agentnet_core::Event;
use agentnet_core::model::search::searchable_text;

/// The most bytes of JSON one batch parameter carries before it is cut.
pub const BATCH_BYTES: usize = 256 * 1024;

/// Events whose encoding is longer than this are written on their own.
pub const INLINE_EVENT_BYTES: usize = 64 * 1024;

/// Inserts the event rows of a batch: `[[seq, id, type, source, target, retain, event], …]`.
pub const INSERT_EVENTS: &str = "INSERT INTO events (seq, id, type, source, target, retain, event) \
     SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), \
            json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'), \
            json_extract(value, '$[6]') \
     FROM json_each(?)";

/// What the test hook `fail-next-batch` runs instead of [`INSERT_EVENTS`]
/// once: a statement that fails as a whole (no `id`: a NOT NULL constraint),
/// as a real batch would on a bad row.
pub const FAILING_INSERT_EVENTS: &str =
    "INSERT INTO events (seq) SELECT json_extract(value, '$[0]') FROM json_each(?)";

/// Inserts the audience rows of a batch: `[[audience, seq], …]`.
pub const INSERT_AUDIENCES: &str = "INSERT OR IGNORE INTO audience (audience, seq) \
     SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)";

/// One `events` row, as written on its own: an event too large to carry
/// inside a batch, or a row of a batch that failed as a whole.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct LogRow {
    pub seq: u64,
    pub id: String,
    pub event_type: String,
    pub source: String,
    pub target: String,
    pub retain: bool,
    pub event: String,
}

/// What to write: JSON arrays for [`INSERT_EVENTS`] and [`INSERT_AUDIENCES`], and large rows.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Writes {
    pub event_batches: Vec<String>,
    pub audience_batches: Vec<String>,
    /// `[[seq, text], …]` for `crate::network::text_index::INSERT_TEXTS`.
    pub text_batches: Vec<String>,
    pub large: Vec<LogRow>,
    /// Test hook: write the first event batch with [`FAILING_INSERT_EVENTS`].
    pub fail_first_batch: bool,
}

/// Rows appended since the last [`PendingAppends::take`].
#[derive(Debug, Default)]
pub struct PendingAppends {
    events: Batcher,
    audiences: Batcher,
    texts: Batcher,
    large: Vec<LogRow>,
    fail_next_batch: bool,
}

impl PendingAppends {
    /// Gathers one `(key, seq)` index row: an audience, or a link of the
    /// message graph (`agentnet_core::model::graph`), which shares the table.
    pub fn push_link(&mut self, key: &str, seq: u64) {
        let row = self.audiences.open_row();
        push_json_str(row, key);
        row.push(',');
        row.push_str(&seq.to_string());
        self.audiences.close_row();
    }

    /// True when nothing waits to be written.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
            && self.audiences.is_empty()
            && self.texts.is_empty()
            && self.large.is_empty()
    }

    /// Gathers the rows of `event`, accepted at `seq`, under `audiences`.
    pub fn push(&mut self, seq: u64, event: &Event, retain: bool, audiences: &[String]) {
        for audience in audiences {
            self.push_link(audience, seq);
        }
        // Only history is searched (`network.events.query`), so only it is indexed.
        if let Some(text) = searchable_text(event).filter(|_| retain) {
            let row = self.texts.open_row();
            row.push_str(&seq.to_string());
            row.push(',');
            push_json_str(row, &text);
            self.texts.close_row();
        }
        let encoded = event.encode();
        let id = event.id.to_string();
        let source = event.source.to_string();
        let target = event.target.to_string();
        if encoded.len() > INLINE_EVENT_BYTES {
            self.large.push(LogRow {
                seq,
                id,
                event_type: event.event_type.as_str().to_owned(),
                source,
                target,
                retain,
                event: encoded,
            });
            return;
        }
        let row = self.events.open_row();
        row.push_str(&seq.to_string());
        for text in [id.as_str(), event.event_type.as_str(), &source, &target] {
            row.push(',');
            push_json_str(row, text);
        }
        row.push_str(if retain { ",1," } else { ",0," });
        push_json_str(row, &encoded);
        self.events.close_row();
    }

    /// Everything gathered, ready to write; leaves this empty.
    pub fn take(&mut self) -> Writes {
        let event_batches = self.events.finish();
        let fail_first_batch = self.fail_next_batch && !event_batches.is_empty();
        self.fail_next_batch &= !fail_first_batch;
        Writes {
            event_batches,
            audience_batches: self.audiences.finish(),
            text_batches: self.texts.finish(),
            large: std::mem::take(&mut self.large),
            fail_first_batch,
        }
    }

    /// Test hook: the next event batch is written with a statement that fails,
    /// so the tests see the row-by-row fallback work through the real runtime.
    #[cfg(feature = "test-hooks")]
    pub fn fail_next_batch(&mut self) {
        self.fail_next_batch = true;
    }
}

/// The rows of an [`INSERT_EVENTS`] batch, to write one by one when the batch fails.
pub fn event_rows(batch: &str) -> Result<Vec<LogRow>, serde_json::Error> {
    type Columns = (u64, String, String, String, String, u8, String);
    let rows: Vec<Columns> = serde_json::from_str(batch)?;
    Ok(rows
        .into_iter()
        .map(
            |(seq, id, event_type, source, target, retain, event)| LogRow {
                seq,
                id,
                event_type,
                source,
                target,
                retain: retain != 0,
                event,
            },
        )
        .collect())
}

/// The `(seq, text)` rows of a text batch, to write one by one when the batch fails.
pub fn text_rows(batch: &str) -> Result<Vec<(u64, String)>, serde_json::Error> {
    serde_json::from_str(batch)
}

/// The `(audience, seq)` rows of an [`INSERT_AUDIENCES`] batch.
pub fn audience_rows(batch: &str) -> Result<Vec<(String, u64)>, serde_json::Error> {
    serde_json::from_str(batch)
}

/// Builds JSON arrays of rows, cut at [`BATCH_BYTES`].
#[derive(Debug, Default)]
struct Batcher {
    done: Vec<String>,
    current: String,
}

impl Batcher {
    fn is_empty(&self) -> bool {
        self.done.is_empty() && self.current.is_empty()
    }

    /// Starts a row (`[`), after a separator when the batch has rows already.
    fn open_row(&mut self) -> &mut String {
        if self.current.len() >= BATCH_BYTES {
            self.current.push(']');
            self.done.push(std::mem::take(&mut self.current));
        }
        self.current
            .push(if self.current.is_empty() { '[' } else { ',' });
        self.current.push('[');
        &mut self.current
    }

    fn close_row(&mut self) {
        self.current.push(']');
    }

    fn finish(&mut self) -> Vec<String> {
        if !self.current.is_empty() {
            self.current.push(']');
            self.done.push(std::mem::take(&mut self.current));
        }
        std::mem::take(&mut self.done)
    }
}

/// Appends `text` as a JSON string literal.
fn push_json_str(out: &mut String, text: &str) {
    out.push('"');
    let mut start = 0;
    for (i, byte) in text.bytes().enumerate() {
        let escape: Option<&str> = match byte {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0..=0x1f => None,
            _ => continue,
        };
        out.push_str(&text[start..i]);
        match escape {
            Some(escape) => out.push_str(escape),
            None => {
                out.push_str("\\u00");
                out.push(char::from(b"0123456789abcdef"[usize::from(byte >> 4)]));
                out.push(char::from(b"0123456789abcdef"[usize::from(byte & 0xf)]));
            }
        }
        start = i + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use agentnet_core::Limits;
    use serde_json::Value;

    fn event(payload: Value) -> Event {
        let text = serde_json::json!({
            "id": "01HZY3M7K9QW4T2B8N6R5C1XDE",
            "type": "bench.load",
            "source": "agent:a",
            "target": "agent:b",
            "timestamp": 1_700_000_000_000_u64,
            "payload": payload,
        })
        .to_string();
        Event::decode(&text, &Limits::default()).unwrap()
    }

    fn rows(batch: &str) -> Vec<Vec<Value>> {
        serde_json::from_str(batch).unwrap()
    }

    #[test]
    fn rows_carry_every_column_and_the_event_text_unchanged() {
        let tricky = event(
            serde_json::json!({"text": "quote \" backslash \\ newline \n tab \t nul \u{0} é 🎉"}),
        );
        let mut pending = PendingAppends::default();
        pending.push(
            7,
            &tricky,
            true,
            &["member:agent:b".into(), "public".into()],
        );
        let writes = pending.take();
        assert!(pending.is_empty());
        assert_eq!(writes.event_batches.len(), 1);
        let row = &rows(&writes.event_batches[0])[0];
        assert_eq!(row[0], 7);
        assert_eq!(row[1], "01HZY3M7K9QW4T2B8N6R5C1XDE");
        assert_eq!(row[2], "bench.load");
        assert_eq!(row[3], "agent:a");
        assert_eq!(row[4], "agent:b");
        assert_eq!(row[5], 1);
        // The stored text is exactly the event's encoding, byte for byte.
        assert_eq!(row[6].as_str().unwrap(), tricky.encode());
        assert_eq!(
            rows(&writes.audience_batches[0]),
            vec![
                vec![Value::from("member:agent:b"), Value::from(7)],
                vec![Value::from("public"), Value::from(7)],
            ]
        );
        assert!(writes.large.is_empty());
    }

    #[test]
    fn batches_are_cut_near_the_byte_budget_and_keep_every_row_in_order() {
        let mut pending = PendingAppends::default();
        let body = "x".repeat(10_000);
        let count = 100;
        for seq in 1..=count {
            pending.push(
                seq,
                &event(serde_json::json!({"body": body})),
                false,
                &["public".into()],
            );
        }
        let writes = pending.take();
        assert!(writes.event_batches.len() > 1);
        let mut seqs = Vec::new();
        for batch in &writes.event_batches {
            assert!(batch.len() < BATCH_BYTES + INLINE_EVENT_BYTES * 2 + 1024);
            seqs.extend(rows(batch).iter().map(|r| r[0].as_u64().unwrap()));
        }
        assert_eq!(seqs, (1..=count).collect::<Vec<_>>());
    }

    #[test]
    fn a_failed_batch_splits_back_into_its_rows() {
        let mut pending = PendingAppends::default();
        let tricky = event(serde_json::json!({"text": "\" \\ \n é"}));
        pending.push(4, &tricky, true, &["member:agent:b".into()]);
        pending.push(5, &tricky, false, &["public".into(), "group/x".into()]);
        let writes = pending.take();
        let rows = event_rows(&writes.event_batches[0]).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0],
            LogRow {
                seq: 4,
                id: tricky.id.to_string(),
                event_type: "bench.load".into(),
                source: "agent:a".into(),
                target: "agent:b".into(),
                retain: true,
                event: tricky.encode(),
            }
        );
        assert!(!rows[1].retain);
        assert_eq!(
            audience_rows(&writes.audience_batches[0]).unwrap(),
            vec![
                ("member:agent:b".to_owned(), 4),
                ("public".to_owned(), 5),
                ("group/x".to_owned(), 5)
            ]
        );
    }

    #[test]
    fn a_large_event_is_written_on_its_own() {
        let mut pending = PendingAppends::default();
        let big = event(serde_json::json!({"body": "\"".repeat(INLINE_EVENT_BYTES)}));
        pending.push(3, &big, true, &["public".into()]);
        let writes = pending.take();
        assert!(writes.event_batches.is_empty());
        assert_eq!(writes.large.len(), 1);
        assert_eq!(writes.large[0].seq, 3);
        assert_eq!(writes.large[0].event, big.encode());
        assert_eq!(writes.audience_batches.len(), 1);
    }

    #[test]
    fn a_retained_messages_text_is_gathered_lower_cased_for_the_index() {
        let mut pending = PendingAppends::default();
        let message = |content: &str| event(serde_json::json!({"content": content}));
        pending.push(1, &message("Deploy \"Friday\""), true, &["public".into()]);
        pending.push(2, &message("not history"), false, &["public".into()]);
        pending.push(3, &event(serde_json::json!({"body": "no text"})), true, &[]);
        let writes = pending.take();
        assert_eq!(writes.text_batches.len(), 1);
        assert_eq!(
            text_rows(&writes.text_batches[0]).unwrap(),
            vec![(1, "deploy \"friday\"".to_owned())]
        );
        assert!(pending.is_empty());
    }

    #[test]
    fn json_strings_round_trip_through_a_json_parser() {
        for text in ["", "plain", "\u{1}\u{1f}\u{7f}", "a\"b\\c/d", "日本語\r\n"] {
            let mut out = String::new();
            push_json_str(&mut out, text);
            assert_eq!(serde_json::from_str::<String>(&out).unwrap(), text);
        }
    }
}
