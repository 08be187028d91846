//! `POST /spaces/{id}/messages` and `ioa_send`: an IOA SendMessage becomes an
//! [`MESSAGE_TYPE`](super::wire::MESSAGE_TYPE) event from the caller to the
//! space's channel, through the network's whole pipeline — which checks the
//! refs ([`crate::network`]'s graph: parents in the same space, recipients
//! members) and logs it with its links.

use super::apps;
use super::refusal::{Refusal, object_body};
use super::schema;
use super::wire::{MESSAGE_TYPE, message};
use crate::bindings::exchange::BindingHost;
use crate::bindings::member::{new_event, submit_event};
use crate::ids::address::Name;
use crate::ids::event_type::EventType;
use crate::{Address, Network};
use serde_json::{Map, Value, json};

/// The fields of a SendMessage.
const FIELDS: [&str; 5] = ["content_type", "content", "refs", "meta", "content_schema"];

/// A checked SendMessage: the event's payload and `metadata.refs`.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    /// `{content, content_type?, meta?, content_schema?}`.
    pub payload: Map<String, Value>,
    /// `{messages, nodes}`.
    pub refs: Value,
}

fn optional_object(body: &Map<String, Value>, key: &str) -> Result<Option<Value>, Refusal> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(o)) => Ok(Some(Value::Object(o.clone()))),
        Some(_) => Err(Refusal::input(format!("{key} must be a JSON object"))),
    }
}

fn id_list(refs: &Map<String, Value>, key: &str) -> Result<Vec<Value>, Refusal> {
    match refs.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => Ok(items.clone()),
        Some(_) => Err(Refusal::input(format!("refs.{key} must be a list of ids"))),
    }
}

/// Reads and checks a SendMessage body (unknown fields refused, as IOA does).
pub fn outgoing(body: &Map<String, Value>) -> Result<Outgoing, Refusal> {
    if let Some(unknown) = body.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(Refusal::input(format!("json: unknown field \"{unknown}\"")));
    }
    let Some(Value::Object(content)) = body.get("content") else {
        return Err(Refusal::input(
            "content is required and must be a JSON object",
        ));
    };
    let content_type = match body.get("content_type") {
        None | Some(Value::Null) => None,
        Some(Value::String(kind)) if kind.is_empty() => None,
        Some(Value::String(kind)) => Some(kind.clone()),
        Some(_) => return Err(Refusal::input("content_type must be a string")),
    };
    if let Some(kind) = &content_type
        && let Some(why) = apps::invalid(kind, content)
    {
        return Err(Refusal::input(why));
    }
    let content_schema = optional_object(body, "content_schema")?;
    if let Some(why) = content_schema.as_ref().and_then(schema::invalid) {
        return Err(Refusal::input(format!(
            "content_schema is not valid JSON Schema: {why}"
        )));
    }
    let refs = match body.get("refs") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(refs)) => {
            if let Some(unknown) = refs.keys().find(|k| *k != "messages" && *k != "nodes") {
                return Err(Refusal::input(format!(
                    "json: unknown field \"{unknown}\" in refs"
                )));
            }
            refs.clone()
        }
        Some(_) => {
            return Err(Refusal::input(
                "refs must be {messages: [...], nodes: [...]}",
            ));
        }
    };
    let refs = json!({"messages": id_list(&refs, "messages")?, "nodes": id_list(&refs, "nodes")?});
    let mut payload = Map::new();
    payload.insert("content".into(), Value::Object(content.clone()));
    if let Some(kind) = content_type {
        payload.insert("content_type".into(), json!(kind));
    }
    if let Some(meta) = optional_object(body, "meta")? {
        payload.insert("meta".into(), meta);
    }
    if let Some(schema) = content_schema {
        payload.insert("content_schema".into(), schema);
    }
    Ok(Outgoing { payload, refs })
}

/// Sends `outgoing` from `caller` to `space`: the Message, or why not.
pub fn send<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    caller: &Address,
    space: &str,
    outgoing: Outgoing,
) -> Result<Result<Value, Refusal>, H::Error> {
    let Some(channel) = space
        .parse::<Name>()
        .ok()
        .filter(|name| network.state().channels.contains_key(name))
    else {
        return Ok(Err(Refusal::not_found(format!(
            "Space '{space}' not found"
        ))));
    };
    let target = Address::local(crate::ids::address::Entity::Channel(channel));
    let event_type = EventType::from_static(MESSAGE_TYPE);
    let payload = Value::Object(outgoing.payload);
    let mut event = new_event(host, network, caller, event_type, target, payload);
    event.metadata.insert("refs".into(), outgoing.refs);
    let mut sent = event.clone();
    let submitted = submit_event(host, network, caller, event)?;
    // The Message as kept: the network dates it when it takes it, not when it was made.
    sent.timestamp = submitted.accepted_at;
    Ok(match submitted.answer {
        Ok(_) => Ok(message(&sent)),
        Err(rejection) => Err(Refusal::from(&rejection)),
    })
}

/// `POST /spaces/{id}/messages`' body, checked.
pub fn body(text: &str) -> Result<Outgoing, Refusal> {
    outgoing(&object_body(text)?)
}
