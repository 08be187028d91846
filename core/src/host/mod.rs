//! What a host does with the network's effects, written once for every host.
//!
//! The network returns [`Effect`]s; some of them ask for more work whose
//! answer is more effects (a [`Effect::Read`] of the log is answered by
//! [`Network::answer_read`], a delivery written to a push stream counts as
//! acknowledged). [`apply_effects`] runs that loop: each effect goes to the
//! host's [`Host::apply`] in order, and the effects it leads to are applied
//! right after it, before the next one (depth first). Every host — the
//! in-memory [`MemoryHost`], the edge's Durable Object — applies effects
//! through this one function, so they apply them in the same order.
//!
//! * [`memory`] — a host that keeps everything in memory (tests, simulation, conformance)
//! * [`credentials`] — what a host ends when a member stops being one
//! * [`conformance`] — the JSON conformance-vector runner shared with JS

pub mod apply;
pub mod conformance;
pub mod credentials;
pub mod memory;

pub use apply::{Host, apply_effects};
pub use memory::MemoryHost;
