//! Server-Sent Events: `GET /networks/{id}/v1/sse`.
//!
//! Authenticated by the HTTP session (`Authorization: Bearer …`), or, since
//! `EventSource` cannot set headers, a single-use `?ticket=` (preferred) or `?session=`. Each logged event is
//! one `id: {seq}` / `event: message` / `data: {event}` record; a
//! reconnecting client sends `Last-Event-ID` (or `?after=`) and gets
//! everything after it first, otherwise the stream starts at the member's
//! cursor. A [`KEEPALIVE`] comment goes out every [`KEEPALIVE_MS`] so
//! proxies keep the stream open. Events written to a stream count as
//! acknowledged: a reader that misses some resumes from its last id. A stream
//! whose member leaves ends with a [`closed_record`].

use super::exchange::{Answer, BindingHost, rejected};
use super::message::Request;
use super::sockets::Close;
use crate::network::MAX_READ_LIMIT;
use crate::{Address, Network};

/// Interval of keepalive comments, in milliseconds.
pub const KEEPALIVE_MS: u64 = 15_000;
/// The keepalive comment.
pub const KEEPALIVE: &str = ": keepalive\n\n";
/// Catch-up pages sent when a stream opens (of up to [`MAX_READ_LIMIT`] events each).
pub const OPENING_PAGES: usize = 50;
/// The headers of a stream's response.
pub const HEADERS: [(&str, &str); 2] = [
    ("Content-Type", "text/event-stream"),
    ("Cache-Control", "no-cache"),
];

/// The SSE record of an event's JSON: with `id:` when it has a `seq`.
pub fn record(seq: Option<u64>, json: &str) -> String {
    match seq {
        Some(seq) => format!("id: {seq}\nevent: message\ndata: {json}\n\n"),
        None => format!("event: message\ndata: {json}\n\n"),
    }
}

/// The last record of a stream the network ends (its member left): a
/// `closed` event with the close's reason, `{"code", "message"}`.
pub fn closed_record(close: &Close) -> String {
    let (code, message) = close
        .reason
        .split_once(": ")
        .unwrap_or(("closed", close.reason.as_str()));
    let data = serde_json::json!({"code": code, "message": message});
    format!("event: closed\ndata: {data}\n\n")
}

/// Where a stream resumes: `Last-Event-ID`, else `?after=`, when it is a
/// `seq`; `None` means the member's cursor.
pub fn resume_point(req: &Request) -> Option<u64> {
    req.header("Last-Event-ID")
        .map(str::to_owned)
        .or_else(|| req.query("after"))
        .and_then(|a| a.trim().parse::<u64>().ok())
}

/// A stream to open: its first records, for the host to write before any other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stream {
    /// The member it streams to (new deliveries to it go on it too).
    pub member: Address,
    /// The records of the catch-up, in order.
    pub opening: Vec<String>,
}

/// Opens a stream for `member`: reads what it missed after its resume point
/// and counts it as acknowledged.
pub fn open<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: Address,
    resume: Option<u64>,
) -> Result<Answer<Stream>, H::Error> {
    let mut after = resume.unwrap_or_else(|| network.cursor(&member));
    let mut opening = Vec::new();
    for _ in 0..OPENING_PAGES {
        let effects = match network.read_page(&member, after, MAX_READ_LIMIT, host.now()) {
            Ok(effects) => effects,
            Err(rejection) => return Ok(Err(rejected(&rejection))),
        };
        let Some(page) = host.collect(network, effects, Some(&member))?.page else {
            break;
        };
        for (seq, event) in &page.events {
            opening.push(record(Some(*seq), &event.encode()));
        }
        after = page.next_after;
        if !page.has_more {
            break;
        }
    }
    // The stream has everything up to `after`.
    let effects = network.acknowledge_pushed(&member, after, host.now());
    host.apply(network, effects)?;
    Ok(Ok(Stream { member, opening }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::message::Method;

    #[test]
    fn records_are_framed_with_their_seq() {
        assert_eq!(
            record(Some(7), "{\"a\":1}"),
            "id: 7\nevent: message\ndata: {\"a\":1}\n\n"
        );
        assert_eq!(record(None, "{}"), "event: message\ndata: {}\n\n");
        assert!(KEEPALIVE.starts_with(':') && KEEPALIVE.ends_with("\n\n"));
    }

    #[test]
    fn a_stream_ends_with_the_reason_it_was_closed() {
        let member = "agent:a".parse().unwrap();
        let record = closed_record(&crate::bindings::sockets::left(&member));
        assert_eq!(
            record,
            "event: closed\ndata: {\"code\":\"not_joined\",\"message\":\"agent:a left the network\"}\n\n"
        );
    }

    #[test]
    fn the_resume_point_is_last_event_id_then_after() {
        let url = "http://h/networks/demo/v1/sse?after=4";
        let plain = Request::new(Method::Get, url);
        assert_eq!(resume_point(&plain), Some(4));
        let header = plain.clone().with_header("Last-Event-ID", " 9 ");
        assert_eq!(resume_point(&header), Some(9));
        // A header that is no seq wins over the query and means the cursor.
        let bad = plain.with_header("last-event-id", "x");
        assert_eq!(resume_point(&bad), None);
        let none = Request::new(Method::Get, "http://h/networks/demo/v1/sse");
        assert_eq!(resume_point(&none), None);
    }
}
