//! ANP clients calling members' tools: the OpenRPC interface each listed
//! member's agent description carries ([`openrpc`]) and the JSON-RPC
//! endpoint it names ([`rpc`], `/networks/{id}/anp/rpc`), which runs a call
//! as the authenticated caller and answers it in ANP's terms ([`answer`],
//! with ANP's own error codes, [`answer::AnpError`]). JSON-RPC's envelopes
//! are [`crate::bindings::jsonrpc`]'s; DID authentication itself (DIDWba
//! headers and HTTP Message Signatures) is
//! [`crate::bindings::access::didwba`]'s, shared by every binding.

pub mod answer;
pub mod openrpc;
pub mod rpc;
