//! The tools every network offers over MCP, for agents that speak only MCP:
//!
//! | tool | does |
//! |---|---|
//! | `agentnet_post` | posts a message (`workspace.message.posted` unless `type` says otherwise) to a channel, a member or `agent:broadcast` |
//! | `agentnet_read` | reads what reached the member after a cursor (its own cursor by default); with `wait_ms` it waits up to [`MAX_READ_WAIT_MS`] for something to arrive |
//! | `agentnet_members` | the roster: members with role, presence and verification, channels, groups, resources |
//! | `agentnet_channel` | creates, joins or leaves a channel |
//!
//! Each is an event from the member (or, for the read, a poll of its log),
//! so the network's guards, permissions and log see it as they see any
//! other. A refusal is an error result (`isError: true`) naming its code.

use super::caller::{Caller, MethodCall};
use super::definition::Definition;
use super::results::{ToolOutcome, tool_result};
use super::waiting::{MAX_READ_WAIT_MS, Reply, WaitFor, or_reply};
use crate::bindings::exchange::BindingHost;
use crate::bindings::http::{DEFAULT_POLL, MAX_POLL, page_response};
use crate::bindings::jsonrpc::RpcError;
use crate::bindings::member::{new_event, submit_event};
use crate::ids::event_type::{EventType, core_types};
use crate::vocabulary::event_types::MESSAGE_POSTED;
use crate::{Address, Network, Rejection};
use serde_json::{Map, Value, json};

/// The built-in tools' names.
pub const NAMES: [&str; 4] = [POST, READ, MEMBERS, CHANNEL];
const POST: &str = "agentnet_post";
const READ: &str = "agentnet_read";
const MEMBERS: &str = "agentnet_members";
const CHANNEL: &str = "agentnet_channel";

/// The built-in tools' definitions.
pub fn definitions() -> [Definition; 4] {
    [
        Definition::new(
            POST,
            "Post a message to a channel (channel/{name}), a member (agent:{name}, human:{name}) or everyone (agent:broadcast).",
            json!({
                "to": {"type": "string", "description": "the target address"},
                "text": {"type": "string", "description": "the message"},
                "type": {"type": "string", "description": "the event type (default workspace.message.posted)"},
                "in_reply_to": {"type": "string", "description": "the id of the event this answers"},
                "payload": {"type": "object", "description": "a payload to send instead of {content: text}"}
            }),
            &["to"],
        ),
        Definition::new(
            READ,
            "Read the events that reached you after a cursor: {events: [{seq, event}], next_after}. Pass next_after as after to read on; wait_ms waits for the next event when there is none yet.",
            json!({
                "after": {"type": "integer", "minimum": 0, "description": "read after this seq (default: where you last read)"},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_POLL},
                "wait_ms": {"type": "integer", "minimum": 0, "maximum": MAX_READ_WAIT_MS}
            }),
            &[],
        ),
        Definition::new(
            MEMBERS,
            "List the network's members with their role and presence (online/offline), and its channels, groups and resources.",
            json!({}),
            &[],
        ),
        Definition::new(
            CHANNEL,
            "Create, join or leave a channel.",
            json!({
                "action": {"type": "string", "enum": ["create", "join", "leave"]},
                "channel": {"type": "string", "description": "the channel's name (or channel/{name})"},
                "members": {"type": "array", "items": {"type": "string"}, "description": "create: members to invite"},
                "private": {"type": "boolean", "description": "create: only members may join"}
            }),
            &["action", "channel"],
        ),
    ]
}

fn refused(caller: &Caller<'_>, rejection: &Rejection) -> Reply {
    Reply::Result(tool_result(
        caller.revision,
        ToolOutcome::failed(rejection.code.as_str(), rejection.message.clone()),
    ))
}

/// A refusal, or the payload of what answered (an ack, a roster).
fn acked(caller: &Caller<'_>, answer: Result<Option<crate::Event>, Rejection>) -> Reply {
    match answer {
        Ok(answer) => output(
            caller,
            answer.map_or_else(|| json!({"ok": true}), |a| a.payload),
        ),
        Err(rejection) => refused(caller, &rejection),
    }
}

fn output(caller: &Caller<'_>, value: Value) -> Reply {
    Reply::Result(tool_result(caller.revision, ToolOutcome::Output(value)))
}

fn text<'a>(args: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, RpcError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(RpcError::invalid_params(format!("{key} must be a string"))),
    }
}

fn number(args: &Map<String, Value>, key: &str) -> Result<Option<u64>, RpcError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value.as_u64().map(Some).ok_or_else(|| {
            RpcError::invalid_params(format!("{key} must be a non-negative integer"))
        }),
    }
}

/// Runs built-in tool `name`, or `None` when no built-in has that name.
pub fn call<H: BindingHost>(
    mut call: MethodCall<'_, H>,
    name: &str,
    args: &Map<String, Value>,
) -> Result<Option<Reply>, H::Error> {
    let reply = match name {
        POST => post(call, args)?,
        READ => read(call, args)?,
        MEMBERS => {
            let submitted = call.submit_core(core_types::AGENT_DISCOVER, None, json!({}))?;
            acked(call.caller, submitted.answer)
        }
        CHANNEL => channel(call, args)?,
        _ => return Ok(None),
    };
    Ok(Some(reply))
}

/// `agentnet_post`'s arguments: the target, the event type, the payload and
/// the event it answers, if any.
fn post_args(
    args: &Map<String, Value>,
) -> Result<(Address, EventType, Value, Option<String>), RpcError> {
    let to: Address = text(args, "to")?
        .ok_or_else(|| RpcError::invalid_params("to is required"))?
        .parse()
        .map_err(|e| RpcError::invalid_params(format!("to: {e}")))?;
    let kind: EventType = text(args, "type")?
        .unwrap_or(MESSAGE_POSTED)
        .parse()
        .map_err(|e| RpcError::invalid_params(format!("type: {e}")))?;
    let payload = match (args.get("payload"), text(args, "text")?) {
        (Some(Value::Object(payload)), _) => Value::Object(payload.clone()),
        (Some(_), _) => return Err(RpcError::invalid_params("payload must be an object")),
        (None, Some(text)) => json!({"content": text}),
        (None, None) => return Err(RpcError::invalid_params("text or payload is required")),
    };
    let in_reply_to = text(args, "in_reply_to")?.map(str::to_owned);
    Ok((to, kind, payload, in_reply_to))
}

fn post<H: BindingHost>(
    call: MethodCall<'_, H>,
    args: &Map<String, Value>,
) -> Result<Reply, H::Error> {
    let (to, kind, payload, in_reply_to) = or_reply!(post_args(args));
    let mut event = new_event(
        call.host,
        call.network,
        call.caller.member,
        kind,
        to,
        payload,
    );
    if let Some(parent) = in_reply_to {
        event.metadata.insert("in_reply_to".into(), json!(parent));
    }
    Ok(acked(
        call.caller,
        submit_event(call.host, call.network, call.caller.member, event)?.answer,
    ))
}

/// `agentnet_channel`'s arguments as the core event they ask for: its type and payload.
fn channel_args(args: &Map<String, Value>) -> Result<(&'static str, Value), RpcError> {
    let name =
        text(args, "channel")?.ok_or_else(|| RpcError::invalid_params("channel is required"))?;
    let name = name.strip_prefix("channel/").unwrap_or(name).to_owned();
    let kind = match text(args, "action")? {
        Some("create") => core_types::CHANNEL_CREATE,
        Some("join") => core_types::CHANNEL_JOIN,
        Some("leave") => core_types::CHANNEL_LEAVE,
        _ => return Err(RpcError::invalid_params("action is create, join or leave")),
    };
    let mut payload = json!({"channel": name});
    if kind == core_types::CHANNEL_CREATE {
        payload["members"] = args.get("members").cloned().unwrap_or_else(|| json!([]));
        payload["private"] = json!(
            args.get("private")
                .and_then(Value::as_bool)
                .unwrap_or(false)
        );
    }
    Ok((kind, payload))
}

fn channel<H: BindingHost>(
    mut call: MethodCall<'_, H>,
    args: &Map<String, Value>,
) -> Result<Reply, H::Error> {
    let (kind, payload) = or_reply!(channel_args(args));
    Ok(acked(
        call.caller,
        call.submit_core(kind, None, payload)?.answer,
    ))
}

fn read<H: BindingHost>(
    call: MethodCall<'_, H>,
    args: &Map<String, Value>,
) -> Result<Reply, H::Error> {
    let after = or_reply!(number(args, "after"));
    let limit = or_reply!(number(args, "limit"));
    let wait = or_reply!(number(args, "wait_ms"));
    let after = after.unwrap_or_else(|| call.network.cursor(call.caller.member));
    let limit = limit
        .map_or(DEFAULT_POLL, |l| usize::try_from(l).unwrap_or(MAX_POLL))
        .clamp(1, MAX_POLL);
    let page = match read_page(call.host, call.network, call.caller.member, after, limit)? {
        Ok(page) => page,
        Err(rejection) => return Ok(refused(call.caller, &rejection)),
    };
    let wait = wait.unwrap_or(0).min(MAX_READ_WAIT_MS);
    if wait > 0 && page.events.is_empty() && !page.has_more {
        return Ok(Reply::Wait(call.waiting(
            wait,
            WaitFor::Events {
                after: page.next_after,
                limit,
            },
        )));
    }
    Ok(output(call.caller, page_json(&page)))
}

fn read_page<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    after: u64,
    limit: usize,
) -> Result<Result<crate::network::Page, Rejection>, H::Error> {
    let effects = match network.read_page(member, after, limit, host.now()) {
        Ok(effects) => effects,
        Err(rejection) => return Ok(Err(rejection)),
    };
    Ok(host
        .collect(network, effects, Some(member))?
        .page
        .ok_or_else(|| Rejection::new(crate::ErrorCode::Internal, "the read found no page")))
}

fn page_json(page: &crate::network::Page) -> Value {
    let mut body = page_response(page)
        .json_body()
        .cloned()
        .unwrap_or(Value::Null);
    body["has_more"] = json!(page.has_more);
    body
}

/// A waiting read's answer: the log read again after its cursor — or `None`,
/// to wait on, when a delivery woke it but nothing new is there to read (an
/// answer to another request, a delivery sent again) and its time is not up.
pub fn read_again<H: BindingHost>(
    call: MethodCall<'_, H>,
    (after, limit): (u64, usize),
    timed_out: bool,
) -> Result<Option<Value>, H::Error> {
    Ok(
        match read_page(call.host, call.network, call.caller.member, after, limit)? {
            Ok(page) if page.events.is_empty() && !page.has_more && !timed_out => None,
            Ok(page) => Some(tool_result(
                call.caller.revision,
                ToolOutcome::Output(page_json(&page)),
            )),
            Err(rejection) => Some(tool_result(
                call.caller.revision,
                ToolOutcome::failed(rejection.code.as_str(), rejection.message),
            )),
        },
    )
}
