//! JSON-RPC 2.0 as MCP, A2A and ANP speak it: the envelopes as serde types,
//! request ids, the error object and the codes every protocol shares.
//!
//! A body is read by [`parse`] (`read`): one message or a batch array,
//! each element read on its own; whether a batch is allowed is each
//! protocol's rule (MCP's revision 2025-03-26 only; A2A and ANP take one
//! request per POST). Every malformed input is a [`Refused`] with its
//! standard [`Code`], never a panic: text that is not JSON is a parse error
//! (-32700); JSON that is not a message — no `"jsonrpc": "2.0"`, a method
//! that is no string, an id that is `null`, a float or an object — is an
//! invalid request (-32600); `params` that are not an object are invalid
//! params (-32602).
//!
//! What a binding writes is one of the envelopes — [`Call`], [`Success`],
//! [`Failure`], [`Notification`] — as JSON. A protocol's own error codes
//! are an enum of its own implementing [`RpcCode`] (MCP's `McpError`,
//! A2A's `A2aError`, ANP's `AnpError`).

mod codes;
mod envelope;
mod read;

pub use codes::{Code, RpcCode};
pub use envelope::{
    Answer, Call, Failure, Id, Notification, RpcError, Success, V2, error, notification, result,
};
pub use read::{Body, Message, Refused, message, parse, string_param};

#[cfg(test)]
mod tests;
