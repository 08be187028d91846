//! agentnet-core: the sans-I/O protocol engine of agentnet.
//!
//! Everything here is pure: the host passes in time (unix milliseconds),
//! randomness (seeds) and inputs (frames), and gets back effects to apply.
//! The same code runs natively in tests, in workerd, in the browser and in
//! Node. The design and its rules are in `docs/architecture.md`; what each
//! protocol means here is in `docs/protocols.md` (a bare `§N` below is a
//! section of the OpenAgents Network Model).
//!
//! The layers, lowest first (a module uses only those above it in this list):
//!
//! * [`error`], [`crypto`], [`throttle`], [`bounded`], [`sorting`] — stable error codes;
//!   hashing and hex; token buckets; maps trimmed to a bound, oldest first; one stable sort
//! * [`outbound`] — the policy on every URL the edge fetches on someone else's say-so
//! * [`ids`] — validated identifiers: addresses, event types, network ids, ULIDs, roles and levels
//! * [`event`] — the event envelope: decoding, encoding, enrichment, protocol metadata (§6)
//! * [`model`] — configuration, members, permissions and state rows (§3, §5, §8)
//! * [`vocabulary`] — the workspace's event types and payloads (messages, reactions, presence,
//!   agents' activity, invitations, sessions, approvals)
//! * [`documents`] — files and context as Automerge documents (feature `documents`)
//! * [`identity`] — AICs, JWTs, DIDs, DIDWba and the registry engine (levels 2 and 3)
//! * [`discovery`] — ACS capability documents, capability search, the DRC change feed and
//!   webhooks, ANP agent descriptions
//! * [`verification`] — level 1 Ed25519 challenge-response (§5)
//! * [`mods`] — guard/transform/observe interceptors and the standard mods (§7)
//! * [`network`] — the network state machine: admission, presence, handlers,
//!   routing, delivery and reads (§3, §6–§9)
//! * [`bindings`] — every transport (HTTP, WebSocket, SSE, creation) as pure request → response code
//! * [`host`] — the loop that applies effects for every host; the in-memory host; conformance vectors
//! * [`client`], [`replica`], [`answers`] — the participant's side: building events, the
//!   local-first replica, reading the network's answers as typed payloads
//! * [`agent`] — agents that think: the agent loop, the conversation rules and the
//!   model providers' wire formats, driven by a host
//! * [`webpush`] — Web Push: who is notified of which event, VAPID (RFC 8292) and message
//!   encryption (RFC 8291) for the push requests the edge sends
//! * `fuzzing` — the fuzz targets' bodies, for the core's tests and the fuzz
//!   crate only (feature `fuzzing`, hidden)

pub mod agent;
pub mod answers;
pub mod bindings;
pub mod bounded;
pub mod client;
pub mod crypto;
pub mod discovery;
pub mod documents;
pub mod error;
pub mod event;
pub mod files;
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
pub mod gateway;
pub mod host;
pub mod identity;
pub mod ids;
pub mod model;
pub mod mods;
pub mod network;
pub mod outbound;
pub mod replica;
pub mod sorting;
pub mod throttle;
pub mod verification;
pub mod vocabulary;
pub mod webpush;

pub use error::{Coded, ErrorCode, Rejection};
pub use event::{DecodeError, Event, Limits};
pub use ids::address::{Address, AddressError, Entity, Scope};
pub use ids::event_type::{EventPattern, EventType};
pub use ids::network_id::NetworkId;
pub use ids::standing::{Role, Verification};
pub use ids::time::Timestamp;
pub use ids::ulid::{EventId, UlidGenerator};
pub use model::config::NetworkConfig;
pub use model::membership::Member;
pub use network::{Effect, Network};
