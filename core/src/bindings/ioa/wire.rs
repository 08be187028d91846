//! IOA's JSON shapes (v0.1.0, field names exact) read from and written as
//! agentnet's: a Message is a channel event, a Node a member, a Space a channel.
//!
//! * Message `{id, space_id, sender, created_at, content_type?, content,
//!   refs: {messages, nodes}, meta?, content_schema?}`: an event of type
//!   [`MESSAGE_TYPE`] carries `content_type`, `content`, `meta` and
//!   `content_schema` in its payload and `refs` in `metadata.refs`; any
//!   other channel event (a WebSocket agent's chat message) reads as a
//!   message whose `content` is its payload (`{"value": …}` when that is no
//!   object) and whose `meta.type` is its event type;
//! * `created_at` is the event's timestamp in RFC 3339 UTC, its id the event id;
//! * Node `{id, name, description?, meta}`: the member's address, its name
//!   and its profile's `description` and `meta` (`crate::model::profile`);
//! * Space `{id, name, tags?}`, SpaceInfo adding `nodes` and `message_count`:
//!   a channel, whose id is its name.

use crate::bindings::a2a::wire::timestamp as rfc3339_millis;
use crate::event::Event;
use crate::event::metadata::ProtocolMetadata;
use crate::ids::address::{Address, Entity};
use crate::model::membership::Member;
use crate::model::state::Channel;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The event type of a message sent through IOA.
pub const MESSAGE_TYPE: &str = "ioa.message";

/// The channel an event belongs to, if it goes to one.
pub fn space_of(event: &Event) -> Option<&str> {
    match event.target.entity() {
        Entity::Channel(name) => Some(name.as_str()),
        _ => None,
    }
}

/// An event as an IOA Message.
pub fn message(event: &Event) -> Value {
    let refs = ProtocolMetadata::read(&event.metadata)
        .map(|m| m.refs)
        .unwrap_or_default();
    let mut out = Map::new();
    out.insert("id".into(), json!(event.id.to_string()));
    if let Some(space) = space_of(event) {
        out.insert("space_id".into(), json!(space));
    }
    out.insert("sender".into(), json!(event.source.to_string()));
    out.insert("created_at".into(), json!(rfc3339_millis(event.timestamp)));
    let ioa = event.event_type.as_str() == MESSAGE_TYPE;
    let payload = event.payload.as_object();
    let field = |key: &str| payload.and_then(|p| p.get(key)).filter(|v| !v.is_null());
    if ioa {
        if let Some(kind) =
            field("content_type").filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
        {
            out.insert("content_type".into(), kind.clone());
        }
        let content = field("content").filter(|c| c.is_object()).cloned();
        out.insert("content".into(), content.unwrap_or_else(|| json!({})));
    } else {
        let content = match &event.payload {
            Value::Object(_) => event.payload.clone(),
            other => json!({"value": other}),
        };
        out.insert("content".into(), content);
    }
    let messages: Vec<String> = refs.messages.iter().map(ToString::to_string).collect();
    let nodes: Vec<String> = refs.nodes.iter().map(ToString::to_string).collect();
    out.insert("refs".into(), json!({"messages": messages, "nodes": nodes}));
    if ioa {
        for key in ["meta", "content_schema"] {
            if let Some(value) = field(key) {
                out.insert(key.into(), value.clone());
            }
        }
    } else {
        out.insert("meta".into(), json!({"type": event.event_type.as_str()}));
    }
    Value::Object(out)
}

/// A member as an IOA Node: `{id, name, description?, meta}` from its
/// address and its profile (`members`, where it is one).
pub fn node(address: &Address, members: &BTreeMap<Address, Member>) -> Value {
    let name = address.entity().name().unwrap_or("core");
    let profile = members.get(address).map(|m| &m.profile);
    let mut out = json!({
        "id": address.to_string(),
        "name": name,
        "meta": profile.map(|p| p.meta.clone()).unwrap_or_default(),
    });
    if let Some(description) = profile.and_then(|p| p.description.as_deref()) {
        out["description"] = json!(description);
    }
    out
}

/// A channel as an IOA SpaceInfo, with `message_count` messages.
pub fn space_info(
    channel: &Channel,
    message_count: u64,
    members: &BTreeMap<Address, Member>,
) -> Value {
    let mut out = json!({
        "id": channel.name.as_str(),
        "name": channel.name.as_str(),
        "nodes": channel.members.iter().map(|a| node(a, members)).collect::<Vec<_>>(),
        "message_count": message_count,
    });
    if !channel.tags.is_empty() {
        out["tags"] = json!(channel.tags);
    }
    out
}
