//! The JSON-RPC endpoint ANP clients call a member's tools at,
//! `POST /networks/{id}/anp/rpc`, as each member's agent description's
//! OpenRPC interface names it ([`super::openrpc`]).
//!
//! A call is `{"jsonrpc": "2.0", "id", "method": <tool name>, "params":
//! {<arguments>}}` (the `anp` SDK's `ANPInterface.execute`). It is MCP's
//! `tools/call` under another envelope, so it takes MCP's path: the
//! caller's DID proof (an HTTP Message Signature or a DIDWba header) joins
//! it and is exchanged for a bearer session first, against the request as
//! it was signed; a bearer is taken as it is; then the call becomes a
//! stateless (2026-07-28) `tools/call` request to the network's MCP
//! endpoint ([`to_mcp`]), invoking the tool as that member through the
//! network's guards and permissions, and its answer becomes a JSON-RPC
//! answer again ([`from_mcp`]): the tool's output as `result`; a failed call
//! as an error `-32000` whose `data` is the failure's `{code, message}`; an
//! unknown tool as `-32601` (method not found).

use crate::bindings::access::caller::{Caller, Origins};
use crate::bindings::jsonrpc::{
    self, Answer, Body, Call, Code, Failure, Id, Message, RpcCode, RpcError, Success,
};
use crate::bindings::mcp::envelope::{CLIENT_CAPABILITIES, PROTOCOL_VERSION, VERSION_HEADER};
use crate::bindings::mcp::outcome::Outcome;
use crate::bindings::mcp::session::McpHost;
use crate::bindings::mcp::streams::Streams;
use crate::bindings::mcp::transport;
use crate::bindings::message::{Body as ResponseBody, Method, Request, Response};
use crate::bindings::step::Step;
use crate::{Network, NetworkId};
use base64::Engine;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The MCP revision calls are made in (stateless, tool output as any JSON).
const REVISION: &str = "2026-07-28";
/// ANP's own JSON-RPC error codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnpError {
    /// A tool call that failed (-32000); `data` is the failure's `{code, message}`.
    ToolFailed,
}

impl RpcCode for AnpError {
    fn code(self) -> i64 {
        match self {
            Self::ToolFailed => -32000,
        }
    }
}

/// What ANP reads of an MCP `tools/call` result (`CallToolResult`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolResult {
    /// Whether the call failed.
    #[serde(default)]
    is_error: bool,
    /// The content blocks; the first one's text is the answer when there is
    /// no structured content.
    #[serde(default)]
    content: Vec<ContentBlock>,
    /// The tool's output as JSON.
    #[serde(default)]
    structured_content: Option<Value>,
}

/// A content block of a [`ToolResult`] (its text, when it is a text block).
#[derive(Debug, Deserialize)]
struct ContentBlock {
    #[serde(default)]
    text: Option<String>,
}

/// The endpoint's URL for `network` at `origin`.
pub fn url(origin: &str, network: &str) -> String {
    format!("{origin}/networks/{network}/anp/rpc")
}

fn refused(id: Option<&Id>, status: u16, error: &RpcError) -> Response {
    Response::json(jsonrpc::error(id, error)).with_status(status)
}

/// `Mcp-Name` for `name`: as it is when plain ASCII, else the base64 sentinel.
fn mcp_name(name: &str) -> String {
    if name.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
        name.to_owned()
    } else {
        let encoded = base64::engine::general_purpose::STANDARD.encode(name);
        format!("=?base64?{encoded}?=")
    }
}

/// The MCP `tools/call` request an ANP call (already authenticated: its
/// proof exchanged for a bearer) stands for, or the JSON-RPC refusal to
/// answer. Only `POST` with one request whose `params` are by name.
pub fn to_mcp(req: &Request, network: &NetworkId) -> Result<Request, Response> {
    if req.method != Method::Post {
        let error = RpcError::new(
            Code::InvalidRequest,
            "Invalid Request: POST a JSON-RPC request",
        );
        return Err(refused(None, 405, &error).with_header("Allow", "POST"));
    }
    let (id, method, params) = match jsonrpc::parse(&req.body) {
        Ok(Body::Single(Message::Request { id, method, params })) => (id, method, params),
        Ok(_) => {
            let error = RpcError::new(
                Code::InvalidRequest,
                "Invalid Request: one JSON-RPC request with an id",
            );
            return Err(refused(None, 400, &error));
        }
        Err(refusal) => return Err(Response::json(refusal.response()).with_status(400)),
    };
    let mut arguments: Map<String, Value> = params;
    arguments.remove("_meta");
    let meta = json!({PROTOCOL_VERSION: REVISION, CLIENT_CAPABILITIES: {}});
    let params = json!({"name": method, "arguments": arguments, "_meta": meta});
    let body = Call::new(id, "tools/call", params).to_value();
    let mut mcp = Request::new(
        Method::Post,
        format!("{}/networks/{network}/mcp", req.origin()),
    )
    .with_body(body.to_string());
    for (name, value) in &req.headers {
        let lower = name.to_ascii_lowercase();
        let dropped = [
            "accept",
            "content-type",
            "content-length",
            "mcp-method",
            "mcp-name",
        ];
        if !dropped.contains(&lower.as_str()) && !lower.starts_with("mcp-protocol") {
            mcp.headers.push((name.clone(), value.clone()));
        }
    }
    Ok(mcp
        .with_header("Accept", "application/json")
        .with_header("Content-Type", "application/json")
        .with_header(VERSION_HEADER, REVISION)
        .with_header("Mcp-Method", "tools/call")
        .with_header("Mcp-Name", &mcp_name(&method)))
}

/// Answers an ANP call for the loaded `network` (`NetworkRoute::Anp` of the route table).
pub fn handle<H: McpHost>(
    host: &mut H,
    network: &mut Network,
    streams: &mut Streams,
    req: &Request,
) -> Result<Outcome, H::Error> {
    // The proof is checked against the request as it was signed, before it is rewritten.
    let caller = match Caller::resolve(host, network, req, Origins::Unchecked)? {
        Step::Go(caller) => caller,
        Step::Answer(refused) => return Ok(Outcome::Respond(refused)),
    };
    let mcp = match to_mcp(caller.request(), network.id()) {
        Ok(mcp) => mcp,
        Err(refused) => return Ok(Outcome::Respond(refused)),
    };
    Ok(match transport::handle(host, network, streams, &mcp)? {
        Outcome::Respond(response) => Outcome::Respond(from_mcp(caller.answer(response))),
        other => other,
    })
}

/// One MCP answer as the ANP call's answer (any other JSON unchanged).
fn answer(value: Value) -> Value {
    let Ok(answer) = serde_json::from_value::<Answer<ToolResult>>(value.clone()) else {
        return value;
    };
    match answer {
        Answer::Failure(Failure { id, mut error, .. }) => {
            if error.is(Code::InvalidParams) && error.message.starts_with("Unknown tool") {
                error.code = Code::MethodNotFound.code();
                error.message = error
                    .message
                    .replacen("Unknown tool", "Method not found", 1);
            }
            jsonrpc::error(id.as_ref(), &error)
        }
        Answer::Success(Success { id, result, .. }) if result.is_error => {
            let message = result.content.into_iter().next().and_then(|c| c.text);
            let data = result
                .structured_content
                .and_then(|s| s.get("error").cloned())
                .unwrap_or(Value::Null);
            let message = message.unwrap_or_else(|| "the tool call failed".to_owned());
            let error = RpcError::new(AnpError::ToolFailed, message).with_data(data);
            jsonrpc::error(Some(&id), &error)
        }
        Answer::Success(Success { id, result, .. }) => {
            let output = match result.structured_content {
                Some(structured) => structured,
                None => result
                    .content
                    .into_iter()
                    .next()
                    .and_then(|c| c.text)
                    .map_or(Value::Null, Value::String),
            };
            jsonrpc::result(&id, output)
        }
    }
}

/// The MCP endpoint's response to a call, as the ANP endpoint answers it:
/// the same status and headers (the bearer of a DID exchange included),
/// the JSON-RPC answer in ANP's terms. A `404` for an unknown method is `200`
/// with its error, as JSON-RPC servers answer.
pub fn from_mcp(response: Response) -> Response {
    match response.body {
        ResponseBody::Json(value) => Response {
            status: if response.status == 404 {
                200
            } else {
                response.status
            },
            headers: response.headers,
            body: ResponseBody::Json(answer(value)),
        },
        body => Response { body, ..response },
    }
}

#[cfg(test)]
#[path = "rpc_tests.rs"]
mod tests;
