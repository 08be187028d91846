//! The MCP methods, whatever the transport: the handshake's and discovery's
//! results, and each request's dispatch to tools, resources or prompts.
//!
//! Which methods exist depends on the revision: `ping` only before
//! 2026-07-28, `server/discover` only from it (where `initialize`,
//! `resources/subscribe` and `logging/setLevel` are gone). A method this
//! server does not offer is -32601.

use super::caller::MethodCall;
use super::results::{cacheable, complete, server_info};
use super::revision::Revision;
use super::waiting::Reply;
use super::{prompts, resources, tools};
use crate::bindings::exchange::BindingHost;
use crate::bindings::jsonrpc::{Code, RpcError};
use crate::event::trace::{TRACEPARENT, TRACESTATE, TraceContext};
use crate::{Address, Network};
use serde_json::{Map, Value, json};

/// What this server can do (every revision reads the same object).
pub fn capabilities() -> Value {
    json!({
        "tools": {"listChanged": true},
        "resources": {"subscribe": true, "listChanged": true},
        "prompts": {"listChanged": true},
    })
}

/// What a model is told about this server.
pub fn instructions(network: &Network, member: &Address) -> String {
    format!(
        "This is the agentnet network \"{}\" ({}), where agents and people exchange events. You act in it as the member {member}. \
         Its tools are the tools other members share (each call goes to the member that offers it) and four built-ins: \
         agentnet_post sends a message to a channel, a member or agent:broadcast; agentnet_read reads what reached you (pass wait_ms to wait for the next message); \
         agentnet_members lists who is here and online; agentnet_channel creates, joins or leaves a channel. \
         Its resources are the network's shared files and contexts (openagents:// URIs); its prompts are the skills shared as contexts.",
        network.config().name,
        network.id()
    )
}

/// The `initialize` result in `revision`.
pub fn initialize_result(network: &Network, member: &Address, revision: Revision) -> Value {
    json!({
        "protocolVersion": revision.as_str(),
        "capabilities": capabilities(),
        "serverInfo": server_info(network, revision),
        "instructions": instructions(network, member),
    })
}

/// The `server/discover` result (2026-07-28).
pub fn discover_result(network: &Network, member: &Address, revision: Revision) -> Value {
    cacheable(
        revision,
        json!({
            "supportedVersions": Revision::supported(),
            "capabilities": capabilities(),
            "instructions": instructions(network, member),
        }),
    )
}

/// The W3C trace context a request carries in `params._meta.traceparent`
/// (and `tracestate`), as MCP clients propagate it; none when absent or
/// malformed (the request goes on with its transport's context, if any).
pub fn meta_trace(params: &Map<String, Value>) -> Option<TraceContext> {
    let meta = params.get("_meta")?.as_object()?;
    let text = |key: &str| meta.get(key).and_then(Value::as_str);
    TraceContext::from_headers(text(TRACEPARENT), text(TRACESTATE))
}

/// Answers request `method` (all but the transport's own: `initialize`,
/// the subscriptions, `subscriptions/listen`). A trace context in the
/// request's `_meta` is the context of the events it causes, ahead of the
/// HTTP request's `traceparent` header.
pub fn call<H: BindingHost>(
    call: MethodCall<'_, H>,
    method: &str,
    params: &Map<String, Value>,
) -> Result<Reply, H::Error> {
    let Some(trace) = meta_trace(params) else {
        return dispatch(call, method, params);
    };
    let MethodCall {
        host,
        network,
        caller,
    } = call;
    network.traced(Some(trace), |network| {
        dispatch(
            MethodCall {
                host,
                network,
                caller,
            },
            method,
            params,
        )
    })
}

/// [`call`] within the request's trace context.
fn dispatch<H: BindingHost>(
    call: MethodCall<'_, H>,
    method: &str,
    params: &Map<String, Value>,
) -> Result<Reply, H::Error> {
    let caller = call.caller;
    let modern = caller.revision.is_modern();
    Ok(match method {
        "tools/list" => tools::list(call)?,
        "tools/call" => tools::call(call, params)?,
        "resources/list" => resources::list(call)?,
        "resources/templates/list" => resources::templates(caller),
        "resources/read" => resources::read(call, params)?,
        "prompts/list" => prompts::list(call)?,
        "prompts/get" => prompts::get(call, params)?,
        "ping" if !modern => Reply::Result(json!({})),
        "server/discover" if modern => Reply::Result(discover_result(
            call.network,
            caller.member,
            caller.revision,
        )),
        _ => Reply::Error(not_found(method)),
    })
}

/// The error for a method this server does not offer.
pub fn not_found(method: &str) -> RpcError {
    RpcError::new(Code::MethodNotFound, format!("Method not found: {method}"))
}

/// An empty result (`{}`, marked as complete from 2026-07-28).
pub fn empty(revision: Revision) -> Value {
    complete(revision, json!({}))
}
