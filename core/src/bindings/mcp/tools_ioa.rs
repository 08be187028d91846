//! IOA's three MCP tools on the network's MCP endpoint (IOA's `/mcp`), as
//! the member the request is authenticated as — never an anonymous node
//! (IOA's reference server leaves `/mcp` open and acts as one shared node):
//!
//! | tool | does |
//! |---|---|
//! | `ioa_space` `{name, description, tags?}` | creates or joins a space: its SpaceInfo with `start_messages` (its root messages) |
//! | `ioa_send` `{space_id, content, refs?, meta?, content_schema?, content_type?}` | sends a message: the Message |
//! | `ioa_read` `{space_id, message_id?, direction?, after?, limit?, all?}` | reads a space as `GET /spaces/{id}/messages` does |
//!
//! A refusal is an error result whose code says its IOA status
//! (`invalid_request` 422, `not_found` 404, `forbidden` 403…) and whose
//! message is IOA's `detail`.

use super::caller::{Caller, MethodCall};
use super::definition::Definition;
use super::results::{ToolOutcome, tool_result};
use super::waiting::Reply;
use crate::Network;
use crate::bindings::exchange::BindingHost;
use crate::bindings::ioa::reads::{self, ReadOptions};
use crate::bindings::ioa::refusal::Refusal;
use crate::bindings::ioa::routes::{NO_GRAPH, joined};
use crate::bindings::ioa::{send, spaces};
use serde_json::{Map, Value, json};

const SPACE: &str = "ioa_space";
const SEND: &str = "ioa_send";
const READ: &str = "ioa_read";

/// The IOA tools' definitions.
pub fn definitions() -> [Definition; 3] {
    [
        Definition::new(
            SPACE,
            "Create or join an IOA message space for collaboration with other nodes. Returns space info with id, name, nodes, message count and its root messages.",
            json!({
                "name": {"type": "string", "description": "IOA space name"},
                "description": {"type": "string", "description": "Your role or intent in this space"},
                "tags": {"type": "array", "items": {"type": "string"}, "description": "Optional labels for ownership, workspace routing, or domain classification"}
            }),
            &["name", "description"],
        ),
        Definition::new(
            SEND,
            "Send a structured IOA message to a space. Use refs.messages and refs.nodes to target context or recipients.",
            json!({
                "space_id": {"type": "string", "description": "IOA space id"},
                "content": {"type": "object", "description": "Structured message content"},
                "content_type": {"type": "string", "description": "Optional protocol: checkpoint, handoff, team, swarm or your own"},
                "refs": {"type": "object", "description": "Optional references: {\"messages\": [\"msg-id\"], \"nodes\": [\"node-id\"]}"},
                "meta": {"type": "object", "description": "Optional metadata for the message (kind, labels, ttl)"},
                "content_schema": {"type": "object", "description": "Optional JSON Schema describing content"}
            }),
            &["space_id", "content"],
        ),
        Definition::new(
            READ,
            "Read IOA messages from a space: a message's related context (direction upstream or downstream for one side), after a cursor, a limit, or all messages instead of those addressed to you.",
            json!({
                "space_id": {"type": "string", "description": "IOA space id"},
                "message_id": {"type": "string", "description": "Read this message's ancestors and descendants"},
                "direction": {"type": "string", "enum": ["", "upstream", "downstream"]},
                "after": {"type": "string", "description": "Message id cursor"},
                "limit": {"type": "integer", "minimum": 1},
                "all": {"type": "boolean", "description": "Read all messages instead of only those addressed to you"}
            }),
            &["space_id"],
        ),
    ]
}

fn result(caller: &Caller<'_>, outcome: Result<Value, Refusal>) -> Reply {
    let outcome = match outcome {
        Ok(value) => ToolOutcome::Output(value),
        Err(refusal) => {
            let code = match refusal.status {
                401 => "not_joined",
                403 => "forbidden",
                404 => "not_found",
                422 => "invalid_request",
                503 => "not_supported",
                _ => "internal",
            };
            ToolOutcome::failed(code, refusal.detail)
        }
    };
    Reply::Result(tool_result(caller.revision, outcome))
}

fn text(args: &Map<String, Value>, key: &str) -> Result<Option<String>, Refusal> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(Refusal::input(format!("{key} must be a string"))),
    }
}

fn space_id(args: &Map<String, Value>) -> Result<String, Refusal> {
    text(args, "space_id")?.ok_or_else(|| Refusal::input("space_id is required"))
}

fn read_options(args: &Map<String, Value>) -> Result<ReadOptions, Refusal> {
    let limit = match args.get("limit") {
        None | Some(Value::Null) => None,
        Some(n) => Some(
            n.as_u64()
                .filter(|n| *n > 0)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| Refusal::input("limit must be greater than 0"))?,
        ),
    };
    Ok(ReadOptions {
        message_id: text(args, "message_id")?,
        direction: text(args, "direction")?.unwrap_or_default(),
        after: text(args, "after")?,
        limit,
        all: args.get("all").and_then(Value::as_bool).unwrap_or(false),
    })
}

/// Runs IOA tool `name`, or `None` when no IOA tool has that name.
pub fn call<H: BindingHost>(
    call: MethodCall<'_, H>,
    name: &str,
    args: &Map<String, Value>,
) -> Result<Option<Reply>, H::Error> {
    let member = call.caller.member;
    let outcome = match name {
        SPACE => match spaces::space_create(args, false) {
            Err(refusal) => Err(refusal),
            Ok(space) => match spaces::create_or_join(call.host, call.network, member, &space)? {
                Err(refusal) => Err(refusal),
                Ok(()) => graph_read(call.network, |n, g| {
                    let mut info = spaces::info(n, g, member, &space.name)?;
                    info["start_messages"] = json!(reads::roots(n, g, member, &space.name));
                    Ok(info)
                }),
            },
        },
        SEND => {
            let mut body = args.clone();
            body.remove("space_id");
            match (space_id(args), send::outgoing(&body)) {
                (Ok(space), Ok(outgoing)) => {
                    send::send(call.host, call.network, member, &space, outgoing)?
                }
                (Err(refusal), _) | (_, Err(refusal)) => Err(refusal),
            }
        }
        READ => graph_read(call.network, |n, g| {
            let space = space_id(args)?;
            joined(n, member, &space)?;
            reads::read_space(n, g, member, &space, &read_options(args)?).map(Value::Array)
        }),
        _ => return Ok(None),
    };
    Ok(Some(result(call.caller, outcome)))
}

fn graph_read(
    network: &Network,
    run: impl FnOnce(&Network, &dyn crate::model::graph::GraphIndex) -> Result<Value, Refusal>,
) -> Result<Value, Refusal> {
    match network.graph() {
        Some(graph) => run(network, graph),
        None => Err(Refusal::new(503, NO_GRAPH)),
    }
}
