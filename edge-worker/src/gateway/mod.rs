//! The connection gateways (`GatewayObject`, `docs/scale.md`): workerd's
//! entry ([`entry`]), a gateway's state and work ([`object`]), what it keeps of each socket ([`held`]), its life apart
//! from traffic ([`lifecycle`]), the shared sockets it holds ([`lanes`]), its SQLite rows ([`store`]), its requests to
//! the network object ([`uplink`]), and the Worker's hand-off of an upgrade to
//! one ([`handoff`]).
//!
//! May use the core, [`crate::host`] and the network object's side of the
//! link it speaks ([`crate::network::gateway_link`], its policy and socket
//! ids); the network object never uses this folder.

pub mod entry;
pub mod handoff;
pub mod held;
pub mod lanes;
pub mod lifecycle;
pub mod object;
pub mod store;
#[cfg(feature = "test-hooks")]
pub mod test_hooks;
pub mod uplink;
