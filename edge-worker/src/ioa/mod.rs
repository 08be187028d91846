//! The IOA binding's I/O inside the network object (the decisions are
//! `agentnet_core::bindings::ioa`'s): its requests ([`endpoint`]) and its open
//! streams ([`live`]).
//!
//! May use the core, [`crate::host`] and the network object it runs in.

pub mod endpoint;
pub mod live;
