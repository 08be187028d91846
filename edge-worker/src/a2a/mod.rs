//! The A2A binding's I/O inside the network object (the decisions are
//! `agentnet_core::bindings::a2a`'s): requests and cards ([`endpoint`]), the
//! watchers and outbound deliveries it keeps ([`live`]), push notifications
//! ([`push`]), calls to external A2A agents ([`remote`]) and signed cards
//! ([`signing`]).
//!
//! May use the core, [`crate::host`] and the network object it runs in.

pub mod endpoint;
pub mod live;
pub mod push;
pub mod remote;
pub mod signing;
