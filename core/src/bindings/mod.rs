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
//! * [`caller`] — who a request is from: the origin check, a DID proof exchanged for a session
//! * [`jsonrpc`] — JSON-RPC 2.0 as MCP, A2A and ANP speak it: envelopes, ids, error codes
//! * [`member`] — acting as the authenticated member: events in, the network's answers out
//! * [`http`] — the HTTP binding of ONM §11 inside a network
//! * [`membership`] — its join and leave
//! * [`admin`] — its admin routes (`v1/admin/…`) and analytics
//! * [`send`] — one event sent for an HTTP caller, and the response it makes
//! * [`session`] — HTTP sessions and tickets: expiry, where a token may travel
//! * [`policy`] — how long sessions and tickets live; the WebSocket limits
//! * [`ws`] — the WebSocket upgrade (a join, ticket or session at upgrade) and each frame
//! * [`sockets`] — a network's WebSockets: caps, join deadline, bad frames, by member
//! * [`sse`] — Server-Sent Events: framing, resume point, streams bounded in number, pages and bytes
//! * [`observe`] — structured request logs (traced or failed requests) for Workers Logs
//! * [`hosted`] — the LLM agents a network hosts: their loops fed, their effects as events; their admin routes
//! * [`hosts`] — the names a deployment answers for (DNS rebinding protection, every route)
//! * [`cors`] — which web origins may use the HTTP endpoints from a browser (preflights, headers)
//! * [`create`] — network creation and the demo network
//! * [`networks`] — a network's creation as the Worker forwards it (`POST /v1/networks`)
//! * [`directory`] — the listing of public networks and the creation limits
//! * [`mcp`] — MCP (Streamable HTTP) at `/networks/{id}/mcp`
//! * [`didwba`] — DID authentication (DIDWba header, HTTP Message Signatures) any binding can use
//! * [`anp`] — ANP clients: members' tools as OpenRPC, called at `/networks/{id}/anp/rpc`
//! * [`registry`] — the identity registry at `/registry/v1/`, DID documents and the JWKS
//! * [`oauth`] — each network's OAuth authorization server for its MCP endpoint (consent = join)
//! * [`a2a`] — A2A (JSON-RPC, both generations) at `/networks/{id}/a2a`
//! * [`ioa`] — IOA (spaces, nodes, the message graph, SSE) at `/networks/{id}/ioa`
//! * [`webpush`] — members' Web Push subscriptions and the VAPID key at `/networks/{id}/v1/push/`

pub mod a2a;
pub mod admin;
pub mod anp;
pub mod caller;
pub mod cors;
pub mod create;
pub mod didwba;
pub mod directory;
pub mod discovery;
pub mod discovery_members;
pub mod discovery_submit;
pub mod exchange;
pub mod files;
pub mod hosted;
pub mod hosts;
pub mod http;
pub mod ioa;
pub mod jsonrpc;
pub mod mcp;
pub mod member;
pub mod membership;
pub mod message;
pub mod networks;
pub mod nonce_claims;
pub mod oauth;
pub mod observe;
pub mod policy;
pub mod refusals;
pub mod registry;
pub mod route;
pub mod send;
pub mod session;
pub mod sockets;
pub mod sse;
pub mod step;
pub mod webpush;
pub mod ws;

#[cfg(test)]
mod sse_tests;
#[cfg(test)]
pub(crate) mod tests;

pub use exchange::{BindingHost, Collected};
pub use http::{Outcome, TestHook};
pub use message::{Body, Method, Request, Response, status_of};
