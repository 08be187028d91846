//! The network's OAuth authorization server's I/O (the decisions are
//! `agentnet_core::bindings::oauth`'s): its requests ([`endpoint`]) and its
//! clients', codes' and tokens' rows ([`store`]).
//!
//! May use the core, [`crate::host`] and the network object it runs in.

pub mod endpoint;
pub mod store;
