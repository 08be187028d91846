//! W3C trace context (`traceparent`, `tracestate`) on events.
//!
//! An event may carry `metadata.traceparent` (and `metadata.tracestate`): the
//! trace it belongs to and the span that caused it. Each event is itself a
//! span whose id is [`span_of`] its event id (the low 64 bits of the ULID's
//! random part), so anything an event causes — the network's acks, replies
//! and errors, a tool's result, a task's updates — carries
//! [`TraceContext::caused_by`] that event: the same trace id, the event's
//! span as parent. A viewer rebuilds the tree from the events alone.
//!
//! Bindings accept the context from their transport (the HTTP `traceparent`
//! header on every HTTP binding, the metadata of a WebSocket frame); the
//! network stamps it on events that have none of their own.

use crate::error::{Coded, ErrorCode};
use crate::ids::ulid::EventId;
use serde_json::{Map, Value, json};

/// The metadata (and HTTP header) names.
pub const TRACEPARENT: &str = "traceparent";
/// The vendor-specific part, passed on unchanged.
pub const TRACESTATE: &str = "tracestate";
/// Longest `tracestate` kept (W3C: 512 characters and 32 list members).
pub const MAX_TRACESTATE: usize = 512;

/// One event's place in a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceParent {
    /// The trace, 16 bytes, not all zero.
    pub trace_id: u128,
    /// The span that caused this event, 8 bytes, not all zero.
    pub parent_id: u64,
    /// Trace flags (bit 0: sampled).
    pub flags: u8,
}

/// A trace context: the parent and the vendors' state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    /// `traceparent`.
    pub parent: TraceParent,
    /// `tracestate`, when given and valid.
    pub state: Option<String>,
}

/// Why a trace context was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// Not `00-{32 hex}-{16 hex}-{2 hex}` (lowercase), or an all-zero id.
    #[error(
        "metadata.traceparent must be a W3C traceparent: 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>, ids not all zero"
    )]
    Parent,
    /// Not a string of printable ASCII of at most 512 characters.
    #[error("metadata.tracestate must be a W3C tracestate of at most {MAX_TRACESTATE} characters")]
    State,
}

impl Coded for TraceError {
    fn code(&self) -> ErrorCode {
        ErrorCode::MalformedEvent
    }
}

fn hex_field(text: &str, len: usize) -> Option<u128> {
    (text.len() == len && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        .then(|| u128::from_str_radix(text, 16).ok())
        .flatten()
}

impl TraceParent {
    /// Reads a `traceparent` (version `00`; a later version's first four
    /// fields, as W3C asks of a reader that knows only `00`).
    pub fn parse(text: &str) -> Result<Self, TraceError> {
        let mut fields = text.trim().split('-');
        let (Some(version), Some(trace), Some(parent), Some(flags)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(TraceError::Parent);
        };
        let more = fields.next().is_some();
        let version = hex_field(version, 2).ok_or(TraceError::Parent)?;
        if version == 0xff || (version == 0 && more) {
            return Err(TraceError::Parent);
        }
        let trace_id = hex_field(trace, 32).ok_or(TraceError::Parent)?;
        let parent_id = hex_field(parent, 16)
            .and_then(|p| u64::try_from(p).ok())
            .ok_or(TraceError::Parent)?;
        let flags = hex_field(flags, 2)
            .and_then(|f| u8::try_from(f).ok())
            .ok_or(TraceError::Parent)?;
        if trace_id == 0 || parent_id == 0 {
            return Err(TraceError::Parent);
        }
        Ok(Self {
            trace_id,
            parent_id,
            flags,
        })
    }

    /// The trace id as 32 lowercase hex digits.
    pub fn trace_hex(&self) -> String {
        format!("{:032x}", self.trace_id)
    }
}

impl std::fmt::Display for TraceParent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "00-{:032x}-{:016x}-{:02x}",
            self.trace_id, self.parent_id, self.flags
        )
    }
}

/// The span an event is: the low 64 bits of its id (random), never zero.
pub fn span_of(id: EventId) -> u64 {
    match id.to_u128() as u64 {
        0 => 1,
        span => span,
    }
}

fn read_state(value: Option<&str>) -> Result<Option<String>, TraceError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(state)
            if state.len() <= MAX_TRACESTATE
                && state.bytes().all(|b| (0x20..0x7f).contains(&b)) =>
        {
            Ok(Some(state.to_owned()))
        }
        Some(_) => Err(TraceError::State),
    }
}

impl TraceContext {
    /// Reads `traceparent` and `tracestate` from header values. A transport's
    /// context that does not parse is dropped, as W3C asks (the request goes on
    /// without one); a bad `tracestate` alone is dropped with it kept.
    pub fn from_headers(parent: Option<&str>, state: Option<&str>) -> Option<Self> {
        let parent = TraceParent::parse(parent?).ok()?;
        Some(Self {
            parent,
            state: read_state(state).ok().flatten(),
        })
    }

    /// Reads an event's `metadata.traceparent` and `metadata.tracestate`;
    /// `None` when it has none, an error when one is malformed.
    pub fn from_metadata(metadata: &Map<String, Value>) -> Result<Option<Self>, TraceError> {
        let state = match metadata.get(TRACESTATE) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(_) => return Err(TraceError::State),
        };
        match metadata.get(TRACEPARENT) {
            None | Some(Value::Null) if state.is_some() => Err(TraceError::Parent),
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(parent)) => Ok(Some(Self {
                parent: TraceParent::parse(parent)?,
                state: read_state(state)?,
            })),
            Some(_) => Err(TraceError::Parent),
        }
    }

    /// The context of whatever the event `id` (in this trace) causes: the
    /// same trace, the event's span as parent, the same flags and state.
    pub fn caused_by(&self, id: EventId) -> Self {
        Self {
            parent: TraceParent {
                parent_id: span_of(id),
                ..self.parent
            },
            state: self.state.clone(),
        }
    }

    /// Writes this context into `metadata` (replacing any there).
    pub fn write(&self, metadata: &mut Map<String, Value>) {
        metadata.insert(TRACEPARENT.into(), json!(self.parent.to_string()));
        match &self.state {
            Some(state) => metadata.insert(TRACESTATE.into(), json!(state)),
            None => metadata.remove(TRACESTATE),
        };
    }
}

/// The events of trace `trace_id` among `events` as a tree, depth first:
/// each with its depth, under the event whose span its `traceparent` names
/// (roots: those whose parent is not among `events`), siblings in the order
/// given. What a viewer shows for one trace.
pub fn tree(events: &[super::Event], trace_id: u128) -> Vec<(usize, &super::Event)> {
    let traced: Vec<(&super::Event, u64)> = events
        .iter()
        .filter_map(|event| {
            let context = TraceContext::from_metadata(&event.metadata).ok()??;
            (context.parent.trace_id == trace_id).then_some((event, context.parent.parent_id))
        })
        .collect();
    let spans: std::collections::BTreeSet<u64> =
        traced.iter().map(|(event, _)| span_of(event.id)).collect();
    // Children by the span they name, in the order given.
    let mut children: std::collections::BTreeMap<u64, Vec<&super::Event>> = Default::default();
    for (event, parent) in &traced {
        children.entry(*parent).or_default().push(event);
    }
    let mut out = Vec::with_capacity(traced.len());
    let mut stack: Vec<(usize, &super::Event)> = traced
        .iter()
        .rev()
        .filter(|(_, parent)| !spans.contains(parent))
        .map(|(event, _)| (0, *event))
        .collect();
    while let Some((depth, event)) = stack.pop() {
        out.push((depth, event));
        if out.len() > traced.len() {
            break; // a cycle of spans (forged ids) ends the walk
        }
        if let Some(kids) = children.get(&span_of(event.id)) {
            stack.extend(kids.iter().rev().map(|child| (depth + 1, *child)));
        }
    }
    out
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;
