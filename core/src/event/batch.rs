//! Batched frames: one WebSocket frame carrying several events as a JSON
//! array, `[{…},{…}]`, so a busy link sends one frame per burst instead of one
//! per event.
//!
//! A single event stays the default format: the network sends batches only
//! to a socket that asked for them at its upgrade (`?frames=batch`,
//! `crate::bindings::transport::ws::wants_batches`), and a client sends them only once
//! the network has sent it one (so an older network never receives one).
//! Both sides accept either format.
//!
//! [`split`] finds the elements' text without decoding them (each is then
//! decoded and validated on its own, as a single frame would be); [`join`]
//! writes them back. A frame that looks like a batch but is not a well-formed
//! one is returned whole, so decoding it fails with a clear error.

/// The most events one batch may carry; a longer one is refused whole.
pub const MAX_BATCH_EVENTS: usize = 1_024;

/// The most bytes of events one batched frame is filled with by [`frames`].
///
/// Well under the platforms' 1 MiB WebSocket message limit, and under what
/// V8 (workerd, Node, Chromium) keeps as an ordinary string: a text message
/// past 128 KiB becomes a large object at each end, whose making costs
/// several times as much per byte (a 200 KB message took about eight times
/// as long to decode in Node as two of 100 KB: BENCHMARKS.md, "Messages
/// under V8's large-object size"). 64 KiB keeps a text of two-byte
/// characters under it too.
pub const MAX_BATCH_BYTES: usize = 64 * 1024;

/// The frames that carry `events` in order: batches of at most
/// [`MAX_BATCH_EVENTS`] events and about [`MAX_BATCH_BYTES`] (a larger event
/// goes alone). With `batched` false, one frame per event.
pub fn frames<S: AsRef<str>>(events: &[S], batched: bool) -> Vec<String> {
    if !batched {
        return events.iter().map(|e| e.as_ref().to_owned()).collect();
    }
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, event) in events.iter().enumerate() {
        let len = event.as_ref().len() + 1;
        if i > start && (i - start >= MAX_BATCH_EVENTS || bytes + len > MAX_BATCH_BYTES) {
            out.push(join(events.get(start..i).unwrap_or_default(), true));
            (start, bytes) = (i, 0);
        }
        bytes += len;
    }
    if start < events.len() {
        out.push(join(events.get(start..).unwrap_or_default(), true));
    }
    out
}

/// True when the frame is a batch (its first non-space character is `[`).
pub fn is_batch(frame: &str) -> bool {
    frame.trim_start().starts_with('[')
}

/// The events' texts in `frame`: the elements of a batch, else the frame itself.
///
/// A malformed batch (empty, unbalanced, an empty element, more than
/// [`MAX_BATCH_EVENTS`]) is returned as one element, which then fails to
/// decode as an event with a `malformed_event` error: an empty batch `[]`
/// costs its sender a bad frame like any other frame that is no event.
pub fn split(frame: &str) -> Vec<&str> {
    if !is_batch(frame) {
        return vec![frame];
    }
    elements(frame.trim()).unwrap_or_else(|| vec![frame])
}

/// One frame carrying `events` (each an event's JSON text): a batch, or the
/// event itself when there is only one and `always` is false.
pub fn join<S: AsRef<str>>(events: &[S], always: bool) -> String {
    if let [one] = events
        && !always
    {
        return one.as_ref().to_owned();
    }
    let len = events.iter().map(|e| e.as_ref().len() + 1).sum::<usize>() + 2;
    let mut out = String::with_capacity(len);
    out.push('[');
    for (i, event) in events.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(event.as_ref());
    }
    out.push(']');
    out
}

/// The top-level elements of a JSON array's text, `None` when it is not a
/// balanced array of one or more non-empty elements within the limit.
fn elements(array: &str) -> Option<Vec<&str>> {
    let inner = array.strip_prefix('[')?.strip_suffix(']')?;
    let mut out = Vec::new();
    let (mut depth, mut in_string, mut escaped, mut start) = (0usize, false, false, 0usize);
    for (i, byte) in inner.bytes().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.checked_sub(1)?,
            b',' if depth == 0 => {
                out.push(element(inner.get(start..i)?)?);
                if out.len() >= MAX_BATCH_EVENTS {
                    return None;
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 || in_string {
        return None;
    }
    out.push(element(inner.get(start..)?)?);
    Some(out)
}

fn element(text: &str) -> Option<&str> {
    let text = text.trim();
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_single_event_is_its_own_only_element() {
        let frame = r#"{"id":"x","payload":{"a":[1,2]}}"#;
        assert_eq!(split(frame), vec![frame]);
        assert!(!is_batch(frame));
        assert_eq!(join(&[frame], false), frame);
        assert_eq!(join(&[frame], true), format!("[{frame}]"));
    }

    #[test]
    fn a_batch_splits_at_its_top_level_commas_only() {
        let frame = r#" [ {"a":"x,]}\"["} , {"b":[1,{"c":2}]} ] "#;
        assert_eq!(
            split(frame),
            vec![r#"{"a":"x,]}\"["}"#, r#"{"b":[1,{"c":2}]}"#]
        );
    }

    #[test]
    fn an_empty_batch_is_malformed_not_free() {
        for empty in ["[]", " [ ] ", "[\n]"] {
            assert_eq!(split(empty), vec![empty], "{empty:?}");
        }
    }

    #[test]
    fn a_malformed_batch_comes_back_whole_so_decoding_reports_it() {
        for bad in ["[]", "[{}", "[{},]", "[,{}]", "[{\"a\":\"]", "[}]", "[{}]]"] {
            assert_eq!(split(bad), vec![bad], "{bad}");
        }
        let long = join(&vec!["{}"; MAX_BATCH_EVENTS + 1], true);
        assert_eq!(split(&long), vec![long.as_str()]);
        let full = join(&vec!["{}"; MAX_BATCH_EVENTS], true);
        assert_eq!(split(&full).len(), MAX_BATCH_EVENTS);
    }

    #[test]
    fn long_bursts_are_cut_into_frames_the_receiver_takes() {
        let events: Vec<String> = (0..2_500).map(|i| format!("{{\"n\":{i}}}")).collect();
        let framed = frames(&events, true);
        assert_eq!(framed.len(), 3);
        let back: Vec<&str> = framed.iter().flat_map(|f| split(f)).collect();
        assert_eq!(back, events.iter().map(String::as_str).collect::<Vec<_>>());
        let big = "x".repeat(MAX_BATCH_BYTES);
        let framed = frames(&[big.as_str(), "{}", big.as_str()], true);
        assert_eq!(framed.len(), 3);
        assert_eq!(frames(&events, false).len(), events.len());
    }

    proptest! {
        #[test]
        fn joined_events_split_back_into_the_same_texts(
            values in proptest::collection::vec(
                prop_oneof![
                    any::<String>().prop_map(|s| serde_json::json!({ "text": s })),
                    proptest::collection::vec(any::<String>(), 0..4)
                        .prop_map(|v| serde_json::json!({ "list": v, "nested": { "k": "]},[{" } })),
                ],
                1..8,
            )
        ) {
            let texts: Vec<String> = values.iter().map(ToString::to_string).collect();
            let frame = join(&texts, true);
            let parsed: Vec<serde_json::Value> = serde_json::from_str(&frame).unwrap();
            prop_assert_eq!(&parsed, &values);
            prop_assert_eq!(split(&frame), texts.iter().map(String::as_str).collect::<Vec<_>>());
        }

        #[test]
        fn any_text_splits_without_panicking(text in ".{0,64}") {
            let parts = split(&text);
            prop_assert!(parts.len() <= MAX_BATCH_EVENTS);
        }
    }
}
