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

use crate::bindings::caller::{Caller, Origins};
use crate::bindings::mcp::envelope::{CLIENT_CAPABILITIES, PROTOCOL_VERSION, VERSION_HEADER};
use crate::bindings::mcp::jsonrpc::{self, Body, Id, Message, RpcError};
use crate::bindings::mcp::outcome::Outcome;
use crate::bindings::mcp::session::McpHost;
use crate::bindings::mcp::streams::Streams;
use crate::bindings::mcp::transport;
use crate::bindings::message::{Body as ResponseBody, Method, Request, Response};
use crate::bindings::step::Step;
use crate::{Network, NetworkId};
use base64::Engine;
use serde_json::{Map, Value, json};

/// The MCP revision calls are made in (stateless, tool output as any JSON).
const REVISION: &str = "2026-07-28";
/// The JSON-RPC error code of a tool call that failed.
pub const TOOL_FAILED: i64 = -32000;

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
            jsonrpc::INVALID_REQUEST,
            "Invalid Request: POST a JSON-RPC request",
        );
        return Err(refused(None, 405, &error).with_header("Allow", "POST"));
    }
    let (id, method, params) = match jsonrpc::parse(&req.body) {
        Ok(Body::Single(Message::Request { id, method, params })) => (id, method, params),
        Ok(_) => {
            let error = RpcError::new(
                jsonrpc::INVALID_REQUEST,
                "Invalid Request: one JSON-RPC request with an id",
            );
            return Err(refused(None, 400, &error));
        }
        Err(refusal) => return Err(Response::json(refusal.response()).with_status(400)),
    };
    let mut arguments: Map<String, Value> = params;
    arguments.remove("_meta");
    let meta = json!({PROTOCOL_VERSION: REVISION, CLIENT_CAPABILITIES: {}});
    let body = json!({"jsonrpc": "2.0", "id": id.to_value(), "method": "tools/call",
        "params": {"name": method, "arguments": arguments, "_meta": meta}});
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

/// One MCP answer as the ANP call's answer.
fn answer(mut value: Value) -> Value {
    let Some(object) = value.as_object_mut() else {
        return value;
    };
    if let Some(error) = object.get_mut("error") {
        let unknown = error["code"] == json!(jsonrpc::INVALID_PARAMS)
            && error["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("Unknown tool"));
        if unknown {
            error["code"] = json!(jsonrpc::METHOD_NOT_FOUND);
            error["message"] = json!(error["message"].as_str().unwrap_or("").replacen(
                "Unknown tool",
                "Method not found",
                1
            ));
        }
        return value;
    }
    let Some(result) = object.remove("result") else {
        return value;
    };
    if result["isError"] == json!(true) {
        let message = result["content"][0]["text"]
            .as_str()
            .unwrap_or("the tool call failed");
        let data = result["structuredContent"]["error"].clone();
        let error = RpcError::new(TOOL_FAILED, message).with_data(data);
        object.insert(
            "error".into(),
            jsonrpc::error(None, &error)["error"].clone(),
        );
    } else {
        let output = match result.get("structuredContent") {
            Some(structured) => structured.clone(),
            None => result["content"][0]["text"].clone(),
        };
        object.insert("result".into(), output);
    }
    value
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
