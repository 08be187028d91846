//! MCP: every network is an MCP server at `/networks/{id}/mcp` (Streamable
//! HTTP), for revisions 2025-03-26, 2025-06-18, 2025-11-25 (with the
//! `initialize` handshake and sessions) and 2026-07-28 (stateless).
//!
//! A request is authenticated as a member by the bearer session of
//! `POST /networks/{id}/v1/join`; everything it does is that member's
//! events through the network's pipeline. The network's tools, files,
//! contexts and skills are MCP tools, resources and prompts; four built-in
//! tools let an MCP-only agent talk in the network.
//!
//! | module | what |
//! |---|---|
//! | [`errors`] | MCP's own JSON-RPC error codes ([`crate::bindings::jsonrpc`] frames the messages) |
//! | [`revision`] | the revisions and what differs between them |
//! | [`envelope`] | 2026-07-28's per-request `_meta` and mirrored headers |
//! | [`access`] | `Origin`, the bearer member, `401` and protected-resource metadata |
//! | [`session`] | legacy sessions and the host's session table ([`session::McpHost`]) |
//! | [`transport`] | what each POST, GET and DELETE means ([`transport::handle`]) |
//! | [`modern`], [`listen`] | 2026-07-28 requests; GET streams, resuming and DELETE |
//! | [`outcome`] | what the host does to answer ([`outcome::Outcome`]) |
//! | [`methods`] | dispatch of each method; `initialize` and `server/discover` results |
//! | [`tools`], [`builtins`], [`tools_ioa`], [`definition`] | the network's tools, the built-in ones, IOA's three; a built-in's definition |
//! | [`resources`], [`prompts`] | files and contexts; skills as prompts |
//! | [`caller`] | who a method is called by, and the call being answered ([`caller::MethodCall`]: its host, network and caller, the shared list and wait; acting as them: [`crate::bindings::member`]) |
//! | [`results`] | result shapes per revision |
//! | [`waiting`] | requests that wait for a delivery (a tool's result, new events) |
//! | [`retries`] | a `tools/call` sent again with its request id: the first answer, no second run |
//! | [`notices`], [`streams`] | who hears which change, on which SSE stream; resuming |
//! | [`elicit`], [`elicit_answer`] | approvals asked of a person as `elicitation/create`; their answers as decisions |

pub mod access;
pub mod builtins;
pub mod caller;
pub mod definition;
pub mod elicit;
pub mod elicit_answer;
pub mod envelope;
pub mod errors;
pub mod listen;
pub mod methods;
pub mod modern;
pub mod notices;
pub mod outcome;
pub mod prompts;
pub mod resources;
pub mod results;
pub mod retries;
pub mod revision;
pub mod session;
pub mod streams;
pub mod tools;
pub mod tools_ioa;
pub mod transport;
pub mod waiting;

#[cfg(test)]
mod tests;
