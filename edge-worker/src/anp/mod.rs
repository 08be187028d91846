//! The ANP endpoint's I/O inside the network object (the decisions are
//! `agentnet_core::bindings::anp`'s): its calls ([`endpoint`]), which wait
//! for a tool's owner among the network's waiting requests ([`crate::mcp::live`]).
//!
//! May use the core, [`crate::host`], the network object it runs in and the
//! waiting requests it shares with MCP.

pub mod endpoint;
