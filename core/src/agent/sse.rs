//! Server-sent events read from a stream that arrives in arbitrary pieces.
//!
//! Both providers stream SSE: `event:` and `data:` lines, a blank line ending
//! each event. The host passes the body's chunks as they arrive; a line may
//! be split anywhere, `\r\n` and `\n` both end lines, `:` lines are comments.

/// One event of the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, when present.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// The longest line kept while waiting for its end; a longer one is dropped.
pub const MAX_LINE: usize = 1024 * 1024;

/// Reads events out of chunks.
#[derive(Debug, Default)]
pub struct SseReader {
    line: String,
    event: Option<String>,
    data: Vec<String>,
    after_cr: bool,
}

impl SseReader {
    /// Feeds a chunk; returns the events it completes.
    pub fn push(&mut self, chunk: &str) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for c in chunk.chars() {
            if c == '\n' || c == '\r' {
                // `\r\n` reads as a line end followed by an empty line only
                // when the line is empty already: skip the `\n` of a pair.
                let line = std::mem::take(&mut self.line);
                if c == '\n' && line.is_empty() && self.after_cr {
                    self.after_cr = false;
                    continue;
                }
                self.after_cr = c == '\r';
                self.line_done(&line, &mut out);
            } else {
                if self.after_cr {
                    self.after_cr = false;
                }
                if self.line.len() < MAX_LINE {
                    self.line.push(c);
                }
            }
        }
        out
    }

    /// The end of the stream: a last event without its blank line counts.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let line = std::mem::take(&mut self.line);
        if !line.is_empty() {
            self.line_done(&line, &mut out);
        }
        self.line_done("", &mut out);
        out
    }

    fn line_done(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if !self.data.is_empty() {
                out.push(SseEvent {
                    event: self.event.take(),
                    data: std::mem::take(&mut self.data).join("\n"),
                });
            }
            self.event = None;
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => self.event = Some(value.to_owned()),
            "data" => self.data.push(value.to_owned()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const STREAM: &str =
        "event: a\ndata: {\"x\":1}\n\n: comment\r\ndata: one\r\ndata: two\r\n\r\ndata:[DONE]\n\n";

    fn whole() -> Vec<SseEvent> {
        let mut reader = SseReader::default();
        let mut events = reader.push(STREAM);
        events.extend(reader.finish());
        events
    }

    #[test]
    fn events_have_their_fields() {
        let events = whole();
        assert_eq!(events.len(), 3);
        assert_eq!(events[0].event.as_deref(), Some("a"));
        assert_eq!(events[0].data, "{\"x\":1}");
        assert_eq!(events[1].event, None);
        assert_eq!(events[1].data, "one\ntwo");
        assert_eq!(events[2].data, "[DONE]");
    }

    #[test]
    fn a_last_event_without_a_blank_line_counts() {
        let mut reader = SseReader::default();
        assert!(reader.push("data: end").is_empty());
        assert_eq!(reader.finish().len(), 1);
    }

    proptest! {
        #[test]
        fn any_split_reads_the_same(cuts in proptest::collection::vec(0..STREAM.len(), 0..8)) {
            let mut cuts = cuts;
            cuts.sort_unstable();
            let mut reader = SseReader::default();
            let mut events = Vec::new();
            let mut from = 0;
            for cut in cuts.into_iter().chain([STREAM.len()]) {
                events.extend(reader.push(&STREAM[from..cut]));
                from = cut;
            }
            events.extend(reader.finish());
            prop_assert_eq!(events, whole());
        }
    }
}
