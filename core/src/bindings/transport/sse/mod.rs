//! Server-Sent Events: `GET /networks/{id}/v1/sse`.
//!
//! Authenticated by the HTTP session (`Authorization: Bearer …`), or, since
//! `EventSource` cannot set headers, a single-use `?ticket=` (preferred) or `?session=`. Each logged event is
//! one `id: {seq}` / `event: message` / `data: {event}` record; a
//! reconnecting client sends `Last-Event-ID` (or `?after=`) and gets
//! everything after it first, otherwise the stream starts at the member's
//! cursor. A [`KEEPALIVE`] comment goes out when a stream has been idle for
//! [`KEEPALIVE_MS`] so proxies keep it open. Events written to a stream count
//! as acknowledged: a reader that misses some resumes from its last id.
//!
//! A [`Stream`] is bounded on every side:
//!
//! * a member has at most [`MAX_STREAMS_PER_MEMBER`] open (`limit_reached`);
//! * what a stream missed is read a page at a time ([`next_page`]), the next
//!   page only once the client has read the stream down to
//!   [`LOW_WATER_BYTES`]; meanwhile live events wait in the log;
//! * records the client has not read are held up to [`MAX_QUEUED_BYTES`]: a
//!   client that reads slower than its events come is cut off rather than
//!   held in memory, and resumes from its `Last-Event-ID` when it reconnects;
//!   one that reads nothing at all for [`STALLED_TICKS`] keepalive periods is
//!   gone, and its stream is cut too.

use super::sockets::Close;
use crate::bindings::exchange::{BindingHost, rejected};
use crate::bindings::message::Request;
use crate::bindings::step::Step;
use crate::network::{MAX_READ_LIMIT, Page};
use crate::{Address, ErrorCode, Network, Rejection};
use std::cell::RefCell;
use std::collections::VecDeque;

/// Interval of keepalive comments, in milliseconds.
pub const KEEPALIVE_MS: u64 = 15_000;
/// The keepalive comment.
pub const KEEPALIVE: &str = ": keepalive\n\n";
/// Open streams one member may have.
pub const MAX_STREAMS_PER_MEMBER: usize = 8;
/// Keepalive ticks without a read, while records wait, after which a client counts as gone.
pub const STALLED_TICKS: u32 = 2;
/// Bytes a stream holds for a client that has not read them; past this the stream is cut.
pub const MAX_QUEUED_BYTES: usize = 2 * 1024 * 1024;
/// A stream that catches up gets its next page once no more than this is unread.
pub const LOW_WATER_BYTES: usize = 256 * 1024;
// A page read at the low water mark (at most a host's page of the log, 1 MiB) fits below the cut.
const _: () = assert!(LOW_WATER_BYTES + 1024 * 1024 < MAX_QUEUED_BYTES);
/// The headers of every stream's response, whichever binding writes it (the
/// network's, MCP's, A2A's, IOA's): an event stream, not cached, not
/// buffered by a proxy in front of the host.
pub const HEADERS: [(&str, &str); 3] = [
    ("Content-Type", "text/event-stream"),
    ("Cache-Control", "no-cache"),
    ("X-Accel-Buffering", "no"),
];

/// One SSE record, the framing every stream uses: its `id:`, `event:` and
/// `retry:` fields when given, then `data:` (one line per line of `data`),
/// ended by a blank line.
pub fn frame(id: Option<&str>, event: Option<&str>, retry: Option<u64>, data: &str) -> String {
    let mut record = String::with_capacity(data.len() + 32);
    let mut field = |name: &str, value: &str| {
        record.push_str(name);
        record.push_str(": ");
        record.push_str(value);
        record.push('\n');
    };
    if let Some(id) = id {
        field("id", id);
    }
    if let Some(event) = event {
        field("event", event);
    }
    if let Some(retry) = retry {
        field("retry", &retry.to_string());
    }
    for line in data.split('\n') {
        field("data", line.strip_suffix('\r').unwrap_or(line));
    }
    record.push('\n');
    record
}

/// The SSE record of an event's JSON: with `id:` when it has a `seq`.
pub fn record(seq: Option<u64>, json: &str) -> String {
    frame(
        seq.map(|s| s.to_string()).as_deref(),
        Some("message"),
        None,
        json,
    )
}

/// The last record of a stream the network ends (its member left): a
/// `closed` event with the close's reason, `{"code", "message"}`.
pub fn closed_record(close: &Close) -> String {
    let (code, message) = close
        .reason
        .split_once(": ")
        .unwrap_or(("closed", close.reason.as_str()));
    let data = serde_json::json!({"code": code, "message": message});
    frame(None, Some("closed"), None, &data.to_string())
}

/// Where a stream resumes: `Last-Event-ID`, else `?after=`, when it is a
/// `seq`; `None` means the member's cursor.
pub fn resume_point(req: &Request) -> Option<u64> {
    req.header("Last-Event-ID")
        .map(str::to_owned)
        .or_else(|| req.query("after"))
        .and_then(|a| a.trim().parse::<u64>().ok())
}

/// Where a stream stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Reading what it missed: the next page reads the log after this `seq`;
    /// live events wait in the log meanwhile.
    CatchingUp(u64),
    /// Caught up: live events are written as they come.
    Live,
    /// Cut off (its client read too slowly, or it is over): it takes nothing more.
    Cut,
}

/// What became of an event offered to a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pushed {
    /// Queued for the client: it counts as delivered.
    Queued,
    /// The stream is catching up: the event waits in the log for its page.
    Waits,
    /// The stream is cut: it takes nothing more and should be dropped.
    Cut,
}

/// One open stream of a member: its phase and the records its client has not read yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stream {
    member: Address,
    phase: Phase,
    queue: VecDeque<Vec<u8>>,
    queued: usize,
    /// The client read something since the last keepalive tick.
    read_since_tick: bool,
    /// Keepalive ticks in a row at which records waited and the client had read none.
    stalled_ticks: u32,
}

impl Stream {
    /// A stream of `member` that first catches up on what came after `after`.
    fn new(member: Address, after: u64) -> Self {
        Self {
            member,
            phase: Phase::CatchingUp(after),
            queue: VecDeque::new(),
            queued: 0,
            read_since_tick: false,
            stalled_ticks: 0,
        }
    }

    /// The member it streams to.
    pub fn member(&self) -> &Address {
        &self.member
    }

    /// Offers an event's JSON: a logged one (`seq`) or an unsequenced answer or notice.
    pub fn push(&mut self, seq: Option<u64>, json: &str) -> Pushed {
        match self.phase {
            Phase::Cut => Pushed::Cut,
            // Unsequenced events are in no log: they never wait.
            Phase::CatchingUp(_) if seq.is_some() => Pushed::Waits,
            _ => self.enqueue(record(seq, json)),
        }
    }

    /// Queues a record, or cuts the stream when its client has too much unread.
    fn enqueue(&mut self, record: String) -> Pushed {
        // One record always fits, however large, so an event is never too big to stream.
        if !self.queue.is_empty() && self.queued + record.len() > MAX_QUEUED_BYTES {
            self.cut();
            return Pushed::Cut;
        }
        self.queued += record.len();
        self.queue.push_back(record.into_bytes());
        Pushed::Queued
    }

    /// The host's keepalive tick, every [`KEEPALIVE_MS`]: queues a keepalive
    /// comment when the client has read everything. A client that reads
    /// nothing for [`STALLED_TICKS`] ticks while something waits for it is
    /// gone (a connection that died without closing): the stream is cut, so
    /// it stops counting against the member's [`MAX_STREAMS_PER_MEMBER`].
    pub fn keepalive(&mut self) {
        if self.phase == Phase::Cut {
            return;
        }
        if self.queue.is_empty() {
            self.queued += KEEPALIVE.len();
            self.queue.push_back(KEEPALIVE.as_bytes().to_vec());
            self.stalled_ticks = 0;
        } else if self.read_since_tick {
            self.stalled_ticks = 0;
        } else {
            self.stalled_ticks += 1;
            if self.stalled_ticks >= STALLED_TICKS {
                self.cut();
            }
        }
        self.read_since_tick = false;
    }

    /// The next bytes for the client, oldest first.
    pub fn pop(&mut self) -> Option<Vec<u8>> {
        let record = self.queue.pop_front()?;
        self.queued = self.queued.saturating_sub(record.len());
        self.read_since_tick = true;
        Some(record)
    }

    /// Bytes queued that the client has not read.
    pub fn queued(&self) -> usize {
        self.queued
    }

    /// Ends the stream: what its client has not read is dropped (it resumes
    /// from its last id), and nothing more is taken.
    pub fn cut(&mut self) {
        self.phase = Phase::Cut;
        self.queue.clear();
        self.queued = 0;
    }

    /// Ends the stream after what is queued and one `last` record (a
    /// [`closed_record`]): its client reads them, then the response ends.
    pub fn close(&mut self, last: String) {
        if self.phase == Phase::Cut {
            return;
        }
        self.queued += last.len();
        self.queue.push_back(last.into_bytes());
        self.phase = Phase::Cut;
    }

    /// True when the stream is cut: its response ends, its client reconnects.
    pub fn is_cut(&self) -> bool {
        self.phase == Phase::Cut
    }

    /// True while the stream reads what it missed.
    pub fn is_catching_up(&self) -> bool {
        matches!(self.phase, Phase::CatchingUp(_))
    }

    /// The cursor of the next page, when the stream catches up and its
    /// client has read enough of what was queued.
    pub fn wants_page(&self) -> Option<u64> {
        match self.phase {
            Phase::CatchingUp(after) if self.queued <= LOW_WATER_BYTES => Some(after),
            _ => None,
        }
    }

    /// Queues a page read for this stream; returns the `seq` it now holds up to.
    fn take_page(&mut self, page: &Page) -> Option<u64> {
        for (seq, event) in &page.events {
            if self.enqueue(record(Some(*seq), &event.encode())) == Pushed::Cut {
                return None;
            }
        }
        self.phase = if page.has_more {
            Phase::CatchingUp(page.next_after)
        } else {
            Phase::Live
        };
        Some(page.next_after)
    }
}

/// Opens a stream for `member` resuming after `resume` (else its cursor),
/// with the first page of what it missed queued; refused when the member
/// has [`MAX_STREAMS_PER_MEMBER`] open already.
pub fn open<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: Address,
    resume: Option<u64>,
) -> Result<Step<Stream>, H::Error> {
    if host.open_streams(&member) >= MAX_STREAMS_PER_MEMBER {
        let refusal = Rejection::new(
            ErrorCode::LimitReached,
            format!("{member} has {MAX_STREAMS_PER_MEMBER} event streams open; close one first"),
        );
        return Ok(Step::Answer(rejected(&refusal)));
    }
    let after = resume.unwrap_or_else(|| network.cursor(&member));
    let stream = RefCell::new(Stream::new(member, after));
    if let Err(rejection) = next_page(host, network, &stream)? {
        return Ok(Step::Answer(rejected(&rejection)));
    }
    Ok(Step::Go(stream.into_inner()))
}

/// Reads the next page of a stream that catches up and queues it; what the
/// page holds counts as acknowledged. The stream is not borrowed while the
/// host applies the read. Refused when the member is no longer one.
pub fn next_page<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    stream: &RefCell<Stream>,
) -> Result<Result<(), Rejection>, H::Error> {
    let (member, after) = {
        let stream = stream.borrow();
        match stream.phase {
            Phase::CatchingUp(after) => (stream.member.clone(), after),
            _ => return Ok(Ok(())),
        }
    };
    let effects = match network.read_page(&member, after, MAX_READ_LIMIT, host.now()) {
        Ok(effects) => effects,
        Err(rejection) => {
            stream.borrow_mut().cut();
            return Ok(Err(rejection));
        }
    };
    let Some(page) = host.collect(network, effects, Some(&member))?.page else {
        return Ok(Ok(()));
    };
    if let Some(held) = stream.borrow_mut().take_page(&page) {
        let effects = network.acknowledge_pushed(&member, held, host.now());
        host.apply(network, effects)?;
    }
    Ok(Ok(()))
}

#[cfg(test)]
mod tests;
