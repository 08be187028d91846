//! The event envelope of ONM §6 and its validating JSON codec.
//!
//! ```json
//! {"id": "01J…", "type": "workspace.message.posted", "source": "agent:alice",
//!  "target": "channel/general", "payload": {"content": "hello"},
//!  "metadata": {"in_reply_to": "01J…"}, "timestamp": 1709337600000, "network": "demo"}
//! ```
//!
//! [`Event::decode`] checks every field with its own validator and reports
//! which one failed with a stable code, so a bad frame gets a precise
//! `network.event.error` instead of a generic parse failure. Serialization
//! is deterministic: struct fields in envelope order, object keys sorted.
//!
//! * [`envelope`] — the [`Event`] struct, its [`Limits`] and serde form
//! * [`decode`] — validating decode with a stable code per bad field
//! * [`text`] — the fast, byte-identical JSON encoder
//! * [`enrichment`] — what the network adds (`sender`, `received_at`, `delivery`)
//! * [`metadata`] — protocol metadata: `in_reply_to`, visibility, IOA `refs`, the trace
//! * [`trace`] — W3C trace context on events: parsing, and what an event causes
//! * [`raw`] — the borrowed first pass over a frame's fields
//! * [`batch`] — several events in one frame (a JSON array)

pub mod batch;
pub mod decode;
pub mod enrichment;
pub mod envelope;
pub mod metadata;
pub(crate) mod raw;
pub mod text;
pub mod trace;

pub use decode::DecodeError;
pub use envelope::{Event, Limits};

#[cfg(test)]
pub(crate) mod tests;
