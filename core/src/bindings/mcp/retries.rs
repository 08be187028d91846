//! Idempotent tool calls: a `tools/call` sent again with the same JSON-RPC
//! request id in the same MCP session (a retry after a lost answer) is
//! answered with the first call's result and does not invoke the tool again
//! (the same id with other params is a new call).
//!
//! The session remembers its recent calls ([`Session::calls`]): the request
//! id, when it came, the invocation it started and, once known, its result.
//! A retry while the tool is still running waits for that invocation's
//! result; a retry after it answered gets the same result. Bounds: the
//! [`MAX_CALLS`] newest calls of a session, for [`RETRY_WINDOW_MS`] each,
//! results up to [`MAX_RESULT_BYTES`] (a call whose result was larger is
//! still not run again: its retry is told so), [`MAX_KEPT_BYTES`] in all.
//! Revision 2026-07-28 has no sessions, so no retry is recognised there.

use super::session::{Call, McpHost, Session};
use super::tools;
use super::waiting::{Arrival, INVOKE_TIMEOUT_MS, Reply, WaitFor, Waiting};
use crate::Network;
use crate::bindings::jsonrpc::{Code, Id, RpcError};
use crate::crypto::sha256_hex;
use crate::identity::jcs::canonicalize;
use crate::ids::time::Timestamp;
use serde_json::{Map, Value};

/// How long a call is remembered (unix ms).
pub const RETRY_WINDOW_MS: u64 = 10 * 60 * 1000;
/// The most calls one session remembers (the oldest go first).
pub const MAX_CALLS: usize = 64;
/// The largest result kept to answer a retry with (JSON bytes).
pub const MAX_RESULT_BYTES: usize = 64 * 1024;
/// The most result bytes one session keeps in all.
pub const MAX_KEPT_BYTES: usize = 256 * 1024;

/// The longest request id remembered (JSON bytes); calls with longer ids are not.
pub const MAX_ID_BYTES: usize = 200;

/// The digest a call's params are compared by.
pub fn digest(params: &Map<String, Value>) -> String {
    sha256_hex(canonicalize(&Value::Object(params.clone())).as_bytes())
}

/// What a retry of `request` with `params` comes to, when it is one (`None`:
/// a new call; the same id with other params is one too).
pub fn replay(
    session: &Session,
    (request, params): (&Id, &Map<String, Value>),
    member: &crate::Address,
    now: Timestamp,
) -> Option<Reply> {
    let key = request.to_value();
    let digest = digest(params);
    let call = session.calls.iter().find(|c| {
        c.request == key && c.params == digest && now.millis_since(c.at) < RETRY_WINDOW_MS
    })?;
    if let Some(result) = &call.result {
        return Some(Reply::Result(result.clone()));
    }
    if call.dropped {
        let message = "this tools/call was answered already and its result was too large to keep";
        return Some(Reply::Error(RpcError::new(Code::InternalError, message)));
    }
    let (event, tool) = call.invoked.as_ref()?;
    Some(Reply::Wait(Waiting {
        request: request.clone(),
        revision: session.revision,
        member: member.clone(),
        session: Some(session.id.clone()),
        deadline: now.plus_millis(INVOKE_TIMEOUT_MS),
        wait: WaitFor::Invoke {
            event: event.parse().ok()?,
            tool: tool.parse().ok()?,
        },
    }))
}

/// Notes what a new call of `request` came to in `session` (errors are not
/// noted: nothing ran, so a retry may run). Whether the session changed.
pub fn note(
    session: &mut Session,
    (request, params): (&Id, &Map<String, Value>),
    reply: &Reply,
    now: Timestamp,
) -> bool {
    let (invoked, result) = match reply {
        Reply::Error(_) => return false,
        Reply::Result(result) => (None, Some(result.clone())),
        Reply::Wait(Waiting {
            wait: WaitFor::Invoke { event, tool },
            ..
        }) => (Some((event.to_string(), tool.to_string())), None),
        Reply::Wait(_) => return false,
    };
    let key = request.to_value();
    if key.to_string().len() > MAX_ID_BYTES {
        return false;
    }
    session
        .calls
        .retain(|c| c.request != key && now.millis_since(c.at) < RETRY_WINDOW_MS);
    session.calls.push(Call {
        request: key,
        params: digest(params),
        at: now,
        invoked,
        result: None,
        dropped: false,
    });
    if let Some(result) = result {
        keep(session, request, result);
    }
    bound(session);
    true
}

/// Keeps `result` as the answer of `request` (when it is remembered).
fn keep(session: &mut Session, request: &Id, result: Value) {
    let key = request.to_value();
    let Some(call) = session.calls.iter_mut().find(|c| c.request == key) else {
        return;
    };
    call.invoked = None;
    if result.to_string().len() > MAX_RESULT_BYTES {
        call.dropped = true;
    } else {
        call.result = Some(result);
    }
}

/// Drops the oldest calls beyond [`MAX_CALLS`], and the oldest results beyond [`MAX_KEPT_BYTES`].
fn bound(session: &mut Session) {
    if session.calls.len() > MAX_CALLS {
        let extra = session.calls.len() - MAX_CALLS;
        session.calls.drain(..extra);
    }
    let mut kept: usize = session.calls.iter().map(Call::size).sum();
    for call in &mut session.calls {
        if kept <= MAX_KEPT_BYTES {
            break;
        }
        if call.result.is_some() {
            kept -= call.size();
            call.result = None;
            call.dropped = true;
        }
    }
}

/// [`tools::finish`] for a request that waited, keeping a tool's result in
/// its session for retries (a timeout is not kept: the invocation may still answer).
pub fn finish<H: McpHost>(
    host: &mut H,
    network: &mut Network,
    waiting: &Waiting,
    arrival: Arrival,
) -> Result<Option<Value>, H::Error> {
    let delivered = matches!(arrival, Arrival::Delivered(_));
    let result = tools::finish(host, network, waiting, arrival)?;
    if let (true, Some(result), Some(id), WaitFor::Invoke { .. }) =
        (delivered, &result, &waiting.session, &waiting.wait)
        && let Some(mut session) = host.mcp_session(id)?
        && session
            .calls
            .iter()
            .any(|c| c.request == waiting.request.to_value())
    {
        keep(&mut session, &waiting.request, result.clone());
        bound(&mut session);
        host.save_mcp_session(&session)?;
    }
    Ok(result)
}
