//! Connection gateways: the network's sockets held outside its sequencer.
//!
//! One network object stays the single ordered writer (the [`crate::Network`]
//! and its log); the sockets are held by gateways, each holding the members
//! [`Placement`] puts on it. The network sends each input's deliveries to each
//! gateway that has recipients **once** ([`ToGateway::Deliveries`]: the event's
//! frame once, the recipients with their `prev`), so its sends per broadcast
//! grow with the number of gateways, not with the audience. The gateway writes
//! each recipient's frame, batched per socket when the socket asked
//! (`crate::event::batch`), takes its sockets' acks out of the stream and
//! sends them back coalesced ([`ToNetwork::Cursors`]), held up to
//! [`CURSOR_DELAY_MS`] so that a broadcast's acks cost the network one
//! request per gateway.
//!
//! Both sides are sans-I/O: [`Gateway`] is one gateway's state machine,
//! [`Sequencer`] turns the network's effects into messages to gateways and
//! gateways' messages into the network's inputs. Hosts move the messages
//! ([`messages`], serde-encoded between Durable Objects). Restarts:
//!
//! * a gateway that restarts has lost its sockets; its first message,
//!   [`ToNetwork::Restarted`], marks its members offline, and their clients
//!   reconnect and resume from their watermarks;
//! * a network object that restarts (rebuilt from its rows, never its log)
//!   tells each gateway ([`ToGateway::Restarted`]), which closes its sockets
//!   for the same resume;
//! * a request between them that fails is sent again for a while (a resent
//!   request's messages a gateway already took are skipped: [`Taken`]) before
//!   either side counts its messages lost.
//!
//! Nothing acknowledged is lost (acks leave only after the rows are written,
//! and a resent event gets its original ack from the log's index), and
//! nothing is applied twice (replicas drop a `seq` they hold).
//! `core/tests/simulation.rs` proves it with gateways and restarts.

mod bound;
mod cursors;
mod downlink;
mod holder;
pub mod messages;
mod placement;
mod sequencer;
mod wire;

pub use bound::Bound;
pub use cursors::CURSOR_DELAY_MS;
pub use downlink::Taken;
pub use holder::{Gateway, GatewayEffect, MAX_UNBOUND_EVENTS, Opening};
pub use messages::{Delivery, DeliveryFrame, GatewayId, ToGateway, ToNetwork};
pub use placement::Placement;
pub use sequencer::{Input, Sequencer};

#[cfg(test)]
mod tests;
