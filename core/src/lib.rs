//! agentnet-core: the sans-I/O protocol engine of agentnet.
//!
//! Everything here is pure: the host passes in time (unix milliseconds),
//! randomness (seeds) and inputs (frames), and gets back effects to apply.
//! The same code runs natively in tests, in workerd, in the browser and in
//! Node. See `ARCHITECTURE.md` in the shared folder for the rules.
//!
//! * [`address`] — addresses and their parse rules (seed 000 §4)
//! * [`event`] — the event envelope and its validating codec (§6)
//! * [`event_type`] — hierarchical event types and the reserved namespace
//! * [`network`] — the network state machine: members, channels, groups,
//!   resources, routing and the mod pipeline (§3, §6–§9)
//! * [`mods`] — guard/transform/observe interceptors and the standard mods (§7)
//! * [`access`] — access rules and resource permissions (§8)
//! * [`membership`] — roles, verification levels, presence (§3, §5)
//! * [`metadata`] — `in_reply_to`, visibility and IOA `refs`
//! * [`verification`] — level 1 Ed25519 challenge-response (§5)
//! * [`config`] — access policy, delivery mode, status, mods of a network
//! * [`host`] — the loop that applies effects for every host, the in-memory host, conformance vectors
//! * [`bindings`] — every transport (HTTP, WebSocket, SSE, creation) as pure request → response code
//! * [`client`] — what a participant needs to build events and read replies
//! * [`replica`] — the local-first client replica: log, watermark, outbox
//! * [`documents`] — files and context as Automerge documents (feature `documents`)
//! * [`ulid`] — event ids from host time and randomness

pub mod access;
pub mod address;
pub mod bindings;
pub mod client;
pub mod config;
pub mod crypto;
pub mod documents;
pub mod enrichment;
mod envelope;
pub mod error;
pub mod event;
pub mod event_text;
pub mod event_type;
pub mod host;
pub mod membership;
pub mod metadata;
pub mod mods;
pub mod network;
pub mod network_id;
pub mod replica;
pub mod ulid;
pub mod verification;

pub use address::{Address, AddressError, Entity, Scope};
pub use error::{Coded, ErrorCode, Rejection};
pub use event::{DecodeError, Event, Limits};
pub use event_type::{EventPattern, EventType};
pub use membership::{Member, Role, Verification};
pub use network::{Effect, Network, NetworkConfig};
pub use network_id::NetworkId;
pub use ulid::{EventId, UlidGenerator};
