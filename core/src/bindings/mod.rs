//! Every transport binding as pure code: request → core → response.
//!
//! A host reads its platform's request into a [`Request`], lets a binding
//! decide what it means and what the answer says, performs the I/O the
//! binding asks for through [`BindingHost`] (sessions and tickets, the log's id index,
//! applying effects), and writes the [`Response`] — or opens the stream or
//! accepts the socket an [`Outcome`] describes. Native unit tests reach every
//! decision here without a network.
//!
//! * [`message`] — the request and response types, URL parts, status per error code
//! * [`route`] — the route table: every request read once into a `Route` (the only reader of `/networks/…` paths)
//! * [`exchange`] — what a binding needs from its host; replies collected for a response
//! * [`step`] — a binding's step: go on with a value, or answer now
//! * [`access`] — who a request is from and what it may do: the caller, sessions and tickets, their policy, CORS, host names, DIDWba and its nonces
//! * [`member`] — acting as the authenticated member: events in, the network's answers out
//! * [`tool_result`] — a tool's answer (`network.resource.invoke.result`), read once into typed fields
//! * [`jsonrpc`] — JSON-RPC 2.0 as MCP, A2A and ANP speak it: envelopes, ids, error codes
//! * [`http`] — the HTTP binding of ONM §11 inside a network: join and leave, admin routes, sending, files, Web Push
//! * [`transport`] — the WebSocket upgrade and frames, a network's sockets, Server-Sent Events
//! * [`observe`] — structured request logs (traced or failed requests) for Workers Logs
//! * [`refusals`] — identity, discovery and outbound-fetch errors as HTTP responses
//! * [`hosted`] — the LLM agents a network hosts: their loops fed, their effects as events; their admin routes
//! * [`directory`] — the listing of public networks, the creation limits, network creation and the demo network
//! * [`registry`] — the identity registry at `/registry/v1/`, DID documents and the JWKS
//! * [`discovery`] — the discovery routes: agent descriptions, ACS, capability search, the DRC feed
//! * [`mcp`] — MCP (Streamable HTTP) at `/networks/{id}/mcp`
//! * [`anp`] — ANP clients: members' tools as OpenRPC, called at `/networks/{id}/anp/rpc`
//! * [`oauth`] — each network's OAuth authorization server for its MCP endpoint (consent = join)
//! * [`a2a`] — A2A (JSON-RPC, both generations) at `/networks/{id}/a2a`
//! * [`ioa`] — IOA (spaces, nodes, the message graph, SSE) at `/networks/{id}/ioa`

pub mod a2a;
pub mod access;
pub mod anp;
pub mod directory;
pub mod discovery;
pub mod exchange;
pub mod hosted;
pub mod http;
pub mod ioa;
pub mod jsonrpc;
pub mod mcp;
pub mod member;
pub mod message;
pub mod oauth;
pub mod observe;
pub mod refusals;
pub mod registry;
pub mod route;
pub mod step;
pub mod tool_result;
pub mod transport;

#[cfg(test)]
pub(crate) mod tests;

pub use exchange::{BindingHost, Collected};
pub use http::{Outcome, TestHook};
pub use message::{Body, Method, Request, Response, status_of};
