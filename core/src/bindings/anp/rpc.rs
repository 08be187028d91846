//! The JSON-RPC endpoint ANP clients call a member's tools at,
//! `POST /networks/{id}/anp/rpc`, as each member's agent description's
//! OpenRPC interface names it ([`super::openrpc`]).
//!
//! A call is `{"jsonrpc": "2.0", "id", "method": <tool name>, "params":
//! {<arguments>}}` (the `anp` SDK's `ANPInterface.execute`): one request
//! per POST. The caller's DID proof (an HTTP Message Signature or a DIDWba
//! header) is exchanged for a bearer session first, against the request as
//! it was signed; a bearer is taken as it is (the network's sessions and
//! OAuth tokens, [`crate::bindings::mcp::access::member`]). Then the tool
//! runs as that member ([`crate::bindings::mcp::tools::invoke`], through the
//! network's guards and permissions): a built-in answers now ([`Outcome::Respond`]);
//! a member's tool waits for its owner ([`Outcome::Wait`]), and the host
//! answers with [`finish`] once the result arrived or the wait timed out.
//! Answers are [`super::answer`]'s: plain JSON-RPC, status 200.

use super::answer;
use crate::Network;
use crate::bindings::access::caller::{Caller, Origins};
use crate::bindings::jsonrpc::{self, Body, Code, Id, Message, RpcError};
use crate::bindings::mcp::access;
use crate::bindings::mcp::caller::{Caller as ToolCaller, MethodCall};
use crate::bindings::mcp::revision::Revision;
use crate::bindings::mcp::tools;
use crate::bindings::mcp::waiting::{Arrival, Reply, Waiting};
use crate::bindings::message::{Method, Request, Response};
use crate::bindings::oauth::grants::OAuthHost;
use crate::bindings::step::go_on;
use serde_json::{Map, Value};

/// The shape tool results are made in (stateless, tool output as any JSON).
const REVISION: Revision = Revision::V2026_07_28;

/// What the host does to answer a call.
#[derive(Debug)]
pub enum Outcome {
    /// Write this response.
    Respond(Response),
    /// Wait for the tool's owner (registered with the host's waiting
    /// requests), then write [`finish`]'s answer.
    Wait(Waiting),
}

/// One call: its id, the tool's name and its arguments.
struct Call {
    id: Id,
    tool: String,
    arguments: Map<String, Value>,
}

/// The endpoint's URL for `network` at `origin`.
pub fn url(origin: &str, network: &str) -> String {
    format!("{origin}/networks/{network}/anp/rpc")
}

/// A JSON-RPC error without id, with `status`.
fn refused(status: u16, code: Code, message: impl Into<String>) -> Response {
    Response::json(jsonrpc::error(None, &RpcError::new(code, message))).with_status(status)
}

/// The call `req` carries, or the refusal to answer: only `POST` with one
/// request whose `params` are by name.
fn read_call(req: &Request) -> Result<Call, Response> {
    if req.method != Method::Post {
        let message = "Invalid Request: POST a JSON-RPC request";
        return Err(refused(405, Code::InvalidRequest, message).with_header("Allow", "POST"));
    }
    match jsonrpc::parse(&req.body) {
        Ok(Body::Single(Message::Request { id, method, params })) => {
            let mut arguments = params;
            arguments.remove("_meta");
            Ok(Call {
                id,
                tool: method,
                arguments,
            })
        }
        Ok(_) => Err(refused(
            400,
            Code::InvalidRequest,
            "Invalid Request: one JSON-RPC request with an id",
        )),
        Err(refusal) => Err(Response::json(refusal.response()).with_status(400)),
    }
}

/// Answers an ANP call for the loaded `network` (`NetworkRoute::Anp` of the route table).
pub fn handle<H: OAuthHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
) -> Result<Outcome, H::Error> {
    // The proof is checked against the request as it was signed.
    let caller = go_on!(
        Caller::resolve(host, network, req, Origins::Unchecked),
        Outcome::Respond
    );
    let call = match read_call(caller.request()) {
        Ok(call) => call,
        Err(refused) => return Ok(Outcome::Respond(refused)),
    };
    let outcome = network.traced(req.trace_context(), |network| {
        run(host, network, caller.request(), call)
    })?;
    Ok(match outcome {
        Outcome::Respond(response) => Outcome::Respond(caller.answer(response)),
        wait => wait,
    })
}

/// Runs `call` for the member the (exchanged) request `req` authenticates.
fn run<H: OAuthHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    call: Call,
) -> Result<Outcome, H::Error> {
    if !access::origin_allowed(req, &network.config().allowed_origins) {
        return Ok(Outcome::Respond(access::forbidden_origin()));
    }
    let member = go_on!(access::present_member(host, network, req), Outcome::Respond);
    let limit = network.config().limits.max_frame_bytes;
    if req.body.len() > limit {
        let message = format!("Request body too large: over {limit} bytes");
        return Ok(Outcome::Respond(refused(
            413,
            Code::InvalidRequest,
            message,
        )));
    }
    let caller = ToolCaller {
        member: &member,
        revision: REVISION,
        request: &call.id,
        session: None,
    };
    let invoking = MethodCall {
        host,
        network,
        caller: &caller,
    };
    Ok(match tools::invoke(invoking, &call.tool, call.arguments)? {
        Reply::Result(result) => Outcome::Respond(Response::json(answer::result(&call.id, result))),
        Reply::Error(error) => Outcome::Respond(Response::json(answer::error(&call.id, error))),
        Reply::Wait(waiting) => Outcome::Wait(waiting),
    })
}

/// The answer to a call that waited, once its tool's result arrived or its
/// deadline passed; `None` while it should wait on.
pub fn finish<H: OAuthHost>(
    host: &mut H,
    network: &mut Network,
    waiting: &Waiting,
    arrival: Arrival,
) -> Result<Option<Response>, H::Error> {
    let result = tools::finish(host, network, waiting, arrival)?;
    Ok(result.map(|result| Response::json(answer::result(&waiting.request, result))))
}

#[cfg(test)]
#[path = "rpc_tests.rs"]
mod tests;
