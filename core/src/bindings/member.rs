//! Acting as the member a request is authenticated as — an MCP tool call, an
//! A2A message, an ANP call, an IOA post, a hosted agent's step: every read,
//! post or listing is an event from that address through the whole pipeline
//! (guards such as rate limits and access control, the log, the inspector),
//! and its answer is read from what the network replied.

use super::exchange::{BindingHost, client_for};
use super::jsonrpc::{Code, RpcError};
use crate::ids::event_type::{EventType, core_types};
use crate::ids::time::Timestamp;
use crate::{Address, Event, EventId, Network, Rejection};
use serde_json::Value;

/// What the network answered an event with.
#[derive(Debug, Clone, PartialEq)]
pub struct Submitted {
    /// The event's id (a tool's result answers it later).
    pub id: EventId,
    /// The answer: a reply or delivery to the member that answers the event
    /// (a roster, a resource's content), else the ack (`None` when the network
    /// answered nothing, as for an event it drops), or the network's refusal.
    pub answer: Result<Option<Event>, Rejection>,
    /// When the network took it: the time it stamps on the event it keeps.
    pub accepted_at: Timestamp,
}

/// Sends an event of `event_type` from `member` to `target` and reads the answer.
pub fn submit<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    event_type: EventType,
    target: Address,
    payload: Value,
) -> Result<Submitted, H::Error> {
    let event = new_event(host, network, member, event_type, target, payload);
    submit_event(host, network, member, event)
}

/// A new event from `member`, for [`submit_event`] once its metadata is set.
pub fn new_event<H: BindingHost>(
    host: &mut H,
    network: &Network,
    member: &Address,
    event_type: EventType,
    target: Address,
    payload: Value,
) -> Event {
    let now = host.now();
    client_for(host, network, member).event(event_type, target, payload, now)
}

/// Submits `event` (from `member`) and reads the answer.
pub fn submit_event<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    event: Event,
) -> Result<Submitted, H::Error> {
    let now = host.now();
    let id = event.id;
    let effects = network.handle_event(Some(member), event, now);
    let collected = host.collect(network, effects, Some(member))?;
    let answers = |e: &&Event| {
        crate::event::metadata::ProtocolMetadata::read(&e.metadata)
            .ok()
            .and_then(|m| m.in_reply_to)
            == Some(id)
    };
    let replies: Vec<&Event> = collected.replies.iter().filter(answers).collect();
    let is = |e: &&&Event, t: &str| e.event_type.as_str() == t;
    let answer = match replies.iter().find(|e| is(e, core_types::EVENT_ERROR)) {
        Some(error) => Err(Rejection::from_error_payload(&error.payload)),
        None => Ok(replies
            .iter()
            .find(|e| !is(e, core_types::EVENT_ACK))
            .copied()
            .or_else(|| collected.delivered.iter().find(answers))
            .or_else(|| replies.first().copied())
            .cloned()),
    };
    Ok(Submitted {
        id,
        answer,
        accepted_at: now,
    })
}

/// Sends a core event (`network.*`, to `core` unless `target` says otherwise).
pub fn submit_core<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    event_type: &'static str,
    target: Option<Address>,
    payload: Value,
) -> Result<Submitted, H::Error> {
    let target = target.unwrap_or_else(Address::core);
    submit(
        host,
        network,
        member,
        EventType::from_static(event_type),
        target,
        payload,
    )
}

/// The network's refusal of a request that has no error result (a listing,
/// a read) as a JSON-RPC error: [`Code::NetworkRefused`] with `data.code`.
pub fn refusal(rejection: &Rejection) -> RpcError {
    RpcError::new(
        Code::NetworkRefused,
        format!("{}: {}", rejection.code, rejection.message),
    )
    .with_data(serde_json::json!({"code": rejection.code.as_str()}))
}

/// The resources the member may read (`network.resource.discover`, of
/// `kind` when given), each with `your_permissions`, or the network's refusal.
pub fn discover<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    kind: Option<&str>,
) -> Result<Result<Vec<Value>, RpcError>, H::Error> {
    let payload = kind.map_or_else(|| serde_json::json!({}), |k| serde_json::json!({"type": k}));
    let submitted = submit_core(
        host,
        network,
        member,
        core_types::RESOURCE_DISCOVER,
        None,
        payload,
    )?;
    Ok(match submitted.answer {
        Ok(answer) => Ok(answer
            .and_then(|a| {
                a.payload
                    .get("resources")
                    .and_then(Value::as_array)
                    .cloned()
            })
            .unwrap_or_default()),
        Err(rejection) => Err(refusal(&rejection)),
    })
}
