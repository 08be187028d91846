//! ANP clients calling members' tools: the OpenRPC interface each listed
//! member's agent description carries ([`openrpc`]) and the JSON-RPC
//! endpoint it names ([`rpc`], `/networks/{id}/anp/rpc`), which runs a call
//! as MCP's `tools/call` for the authenticated caller. DID authentication
//! itself (DIDWba headers and HTTP Message Signatures) is
//! [`crate::bindings::access::didwba`]'s, shared by every binding.

pub mod openrpc;
pub mod rpc;
