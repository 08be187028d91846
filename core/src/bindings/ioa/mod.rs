//! IOA (Internet of Agents v0.1, seed 003) served per network at
//! `/networks/{id}/ioa`, so an unmodified IOA client pointed at that base
//! URL works. The mapping (README, "IOA"):
//!
//! * a space is a channel (idempotent by name, tags kept) — [`spaces`];
//! * a node is a member; `/auth/register` joins under the network's access
//!   policy and its token is a network session — [`nodes`];
//! * a message is an [`wire::MESSAGE_TYPE`] event with IOA's fields, its id
//!   the event id, `created_at` the event time; `refs` are the event's
//!   `metadata.refs`, checked by the network — [`wire`], [`send`], [`apps`], [`schema`];
//! * reads walk the message graph's index — [`reads`]; live streams — [`stream`].
//!
//! Every route but `/health`, `/ready` and `/auth/register` takes
//! `Authorization: Bearer <token>`, and the token alone says who calls: a
//! client's `X-Node-ID` is ignored (IOA's reference server lets it override
//! the token). Errors are `{"detail": "…"}` with IOA's status codes.

pub mod apps;
pub mod nodes;
pub mod reads;
pub mod routes;
pub mod schema;
pub mod send;
pub mod spaces;
pub mod stream;
pub mod wire;

#[cfg(test)]
mod tests;

use super::message::{Request, Response, status_of};
use crate::{NetworkId, Rejection};
use serde_json::{Map, Value, json};

pub use routes::{Handled, handle};

/// A request under a network's IOA base URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The network.
    pub network: NetworkId,
    /// The path's segments after `/ioa`, percent-decoded.
    pub segments: Vec<String>,
}

/// The IOA target of `req`, if its path is under `/networks/{id}/ioa`.
/// `/networks/{id}/ioa/mcp` is not one: it is the network's MCP endpoint.
pub fn target(req: &Request) -> Option<Target> {
    let rest = req.path().strip_prefix("/networks/")?;
    let (id, rest) = rest.split_once('/')?;
    let rest = rest.strip_prefix("ioa")?;
    if !(rest.is_empty() || rest.starts_with('/')) {
        return None;
    }
    let segments: Vec<String> = rest
        .split('/')
        .filter(|s| !s.is_empty())
        .map(super::message::percent_decode)
        .collect();
    if segments == ["mcp"] {
        return None;
    }
    Some(Target {
        network: id.parse().ok()?,
        segments,
    })
}

/// Why IOA refuses a request: a status and IOA's `detail`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 401, 403, 404, 405, 422, 500 or 503.
    pub status: u16,
    /// The explanation.
    pub detail: String,
}

impl Refusal {
    /// A refusal with `status`.
    pub fn new(status: u16, detail: impl Into<String>) -> Self {
        Self {
            status,
            detail: detail.into(),
        }
    }

    /// Bad input: 422.
    pub fn input(detail: impl Into<String>) -> Self {
        Self::new(422, detail)
    }

    /// Nothing there: 404.
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(404, detail)
    }

    /// An agentnet error response (`{code, message}`) as IOA's.
    pub fn from_response(response: &Response) -> Self {
        let body = response.json_body();
        let text = |k: &str| {
            body.and_then(|e| e.get(k))
                .and_then(Value::as_str)
                .unwrap_or("")
        };
        Self::new(
            ioa_status(response.status),
            format!("{}: {}", text("code"), text("message")),
        )
    }

    /// IOA's answer.
    pub fn response(&self) -> Response {
        Response::json(json!({"detail": self.detail})).with_status(self.status)
    }
}

/// IOA answers bad input with 422 where agentnet says 400 (or 409 for a taken name).
fn ioa_status(status: u16) -> u16 {
    match status {
        400 | 409 | 413 => 422,
        other => other,
    }
}

impl From<&Rejection> for Refusal {
    fn from(rejection: &Rejection) -> Self {
        Self::new(
            ioa_status(status_of(rejection.code)),
            format!("{}: {}", rejection.code, rejection.message),
        )
    }
}

/// A JSON object body (IOA answers 422 for anything else).
pub fn object_body(text: &str) -> Result<Map<String, Value>, Refusal> {
    if text.len() > crate::Limits::default().max_frame_bytes {
        return Err(Refusal::input("request body is too large"));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(body)) => Ok(body),
        Ok(_) => Err(Refusal::input("request body must be a JSON object")),
        Err(err) => Err(Refusal::input(err.to_string())),
    }
}
