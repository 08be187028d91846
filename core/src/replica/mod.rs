//! The client replica: the participant's local-first copy of a network.
//!
//! Used by the web workspace and the npm package. It holds
//! * the **log**: events received (and own events once acknowledged), by
//!   `seq`, up to a **watermark** — the highest `seq` of this member's
//!   delivery chain it holds without gaps;
//! * the **outbox**: events created here, each with a ULID from the
//!   randomness and time passed in, waiting for the network's ack.
//!
//! Like quinn-proto's connection it does no I/O: the host feeds it
//! [`Replica::connected`], [`Replica::receive`], [`Replica::disconnected`]
//! and [`Replica::handle_timeout`], and applies the [`ReplicaEffect`]s it
//! returns — frames to send, rows to persist, events and outcomes to show.
//!
//! On connect it joins with `resume.after = watermark`, receives what it
//! missed in order, then flushes the outbox in creation order. Incoming
//! events are applied idempotently: a `seq` it holds is a duplicate (it
//! re-acks, nothing else); a `prev` beyond the watermark is a gap, and it
//! asks the network to resend (`network.agent.resume`) instead of applying.
//!
//! With [`Replica::set_keepalive`] it also watches the link ([`keepalive`]):
//! it sends a heartbeat after a silence, says when a silent link is dead
//! ([`ReplicaEffect::Disconnect`]) and when to reconnect after a loss
//! ([`Replica::lost`], then [`ReplicaEffect::Reconnect`]), with exponential
//! backoff and jitter. Hosts then need no timers of their own beyond the one
//! [`Replica::poll_timeout`] asks for.

mod deadlines;
#[cfg(feature = "documents")]
mod document_access;
#[cfg(feature = "documents")]
mod document_copies;
#[cfg(feature = "documents")]
mod document_store;
#[cfg(feature = "documents")]
mod documents;
pub mod keepalive;
mod member_secret;
mod receiving;
mod row_reader;
mod sending;
mod state;
mod types;

#[cfg(feature = "documents")]
pub use document_copies::{DocumentCopies, DocumentEdit, DocumentLink};
#[cfg(feature = "documents")]
pub use document_store::SyncedDocuments;
pub use keepalive::{HEARTBEAT_PING, HEARTBEAT_PONG, Keepalive};
pub use state::Replica;
pub use types::{
    ACK_DELAY_MS, ACK_EVERY, OutboxEntry, OutboxState, RESEND_AFTER_MS, ReplicaEffect, ReplicaRow,
};

#[cfg(test)]
mod tests;
