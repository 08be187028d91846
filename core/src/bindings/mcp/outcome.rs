//! What the host does to answer an MCP request ([`Outcome`]), and the small
//! answers every part of the transport gives: `202`, a JSON-RPC error with
//! an HTTP status, what the client's `Accept` allows.

use super::waiting::{Reply, Waiting};
use crate::Address;
use crate::bindings::jsonrpc::{self, Id, RpcCode, RpcError};
use crate::bindings::message::{Request, Response};
use serde_json::Value;

/// What the host does to answer.
#[derive(Debug)]
pub enum Outcome {
    /// Write this response.
    Respond(Response),
    /// Answer as JSON once every waiting request has its answer
    /// ([`super::tools::finish`], then [`assemble`]).
    Hold {
        /// The answers ready now.
        ready: Vec<Value>,
        /// The requests that wait.
        waits: Vec<Waiting>,
        /// The body was a batch (answer an array).
        batch: bool,
    },
    /// Open (or resume) SSE stream `stream`, registered in [`super::streams::Streams`]: write
    /// `opening`, then each waiting request's answer; close it when it is done
    /// and nothing waits, or keep it open for notifications.
    Stream {
        /// The stream's id.
        stream: String,
        /// Records to write first.
        opening: Vec<String>,
        /// Requests whose answers go on it.
        waits: Vec<Waiting>,
        /// Close it once `opening` and `waits` are written.
        closes: bool,
    },
    /// A session ended: close these streams' connections, then answer.
    Ended {
        /// Its streams.
        streams: Vec<String>,
        /// The answer.
        response: Response,
    },
    /// `notifications/cancelled`: stop waiting for `request` of `member`, answer `202`.
    Cancel {
        /// The member.
        member: Address,
        /// The cancelled request.
        request: Id,
    },
}

impl Outcome {
    /// A stream that stays open for notifications, after `opening`.
    pub fn listening(stream: String, opening: Vec<String>) -> Self {
        Self::Stream {
            stream,
            opening,
            waits: Vec::new(),
            closes: false,
        }
    }
}

/// The JSON answer of a held body: its ready and finished answers, in order
/// (`202` when there are none left: every request in it was cancelled).
pub fn assemble(mut answers: Vec<Value>, batch: bool) -> Response {
    match (batch, answers.pop()) {
        (_, None) => accepted(),
        (false, Some(single)) if answers.is_empty() => Response::json(single),
        (_, last) => {
            answers.extend(last);
            Response::json(Value::Array(answers))
        }
    }
}

/// `202 Accepted`, no body.
pub fn accepted() -> Response {
    Response::text("").with_status(202)
}

/// A JSON-RPC error without id, with `status`.
pub fn bad(status: u16, code: impl RpcCode, message: impl Into<String>) -> Response {
    Response::json(jsonrpc::error(None, &RpcError::new(code, message))).with_status(status)
}

/// What the client's `Accept` allows: `(json, sse)`.
pub fn accepts(req: &Request) -> (bool, bool) {
    let Some(accept) = req.header("Accept") else {
        return (true, true);
    };
    let has = |kind: &str| {
        accept.split(',').any(|t| {
            let t = t.split(';').next().unwrap_or("").trim();
            t.eq_ignore_ascii_case(kind) || t == "*/*"
        })
    };
    (has("application/json"), has("text/event-stream"))
}

/// A reply as the transport writes it.
#[derive(Debug)]
pub enum Answered {
    /// Its JSON-RPC answer, now.
    Now(Value),
    /// It waits.
    Later(Waiting),
}

/// The JSON-RPC answer of a reply, or the request that waits.
pub fn answer(id: &Id, reply: Reply) -> Answered {
    match reply {
        Reply::Result(result) => Answered::Now(jsonrpc::result(id, result)),
        Reply::Error(error) => Answered::Now(jsonrpc::error(Some(id), &error)),
        Reply::Wait(waiting) => Answered::Later(waiting),
    }
}

/// Whether a request's `Accept` allows an SSE answer.
pub fn accepts_sse(req: &Request) -> bool {
    accepts(req).1
}
