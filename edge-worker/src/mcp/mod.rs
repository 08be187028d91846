//! The MCP endpoint's I/O inside the network object (the decisions are
//! `agentnet_core::bindings::mcp`'s): its requests ([`endpoint`]), its live
//! streams and waiting requests ([`live`]), its sessions' rows ([`store`])
//! and the approvals it asks of people as elicitations ([`elicit`]).
//!
//! May use the core, [`crate::host`] and the network object it runs in.

pub mod elicit;
pub mod endpoint;
pub mod live;
pub mod store;
