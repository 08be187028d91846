//! Spaces are channels: `POST /spaces` (and `ioa_space`) creates the channel
//! or joins it, idempotent by name, keeping `tags`; `GET /spaces` lists the
//! channels the caller may see, `GET /spaces/{id}` one with its nodes and
//! message count.
//!
//! A SpaceCreate without a `description` takes the caller node's own (its
//! profile's), and is refused only when both are empty — the rule of IOA's
//! reference server (`CreateSpace`).

use super::refusal::{Refusal, object_body};
use super::wire::space_info;
use crate::bindings::exchange::BindingHost;
use crate::bindings::member::submit_core;
use crate::ids::address::Name;
use crate::ids::event_type::core_types;
use crate::model::graph::{GraphIndex, space_key};
use crate::model::state::Channel;
use crate::{Address, Network};
use serde_json::{Map, Value, json};

/// A SpaceCreate: `{name, description, tags?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpaceCreate {
    /// The channel's name.
    pub name: String,
    /// The caller's role or intent in it (empty: the caller node's description).
    pub description: String,
    /// Labels.
    pub tags: Vec<String>,
}

/// Reads a SpaceCreate from an object (a body or a tool's arguments).
pub fn space_create(body: &Map<String, Value>, strict: bool) -> Result<SpaceCreate, Refusal> {
    if strict
        && let Some(unknown) = body
            .keys()
            .find(|k| !["name", "description", "tags"].contains(&k.as_str()))
    {
        return Err(Refusal::input(format!("json: unknown field \"{unknown}\"")));
    }
    let text = |key: &str| match body.get(key) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.trim().to_owned()),
        Some(_) => Err(Refusal::input(format!("{key} must be a string"))),
    };
    let name = text("name")?;
    if name.is_empty() {
        return Err(Refusal::input("Space name is required"));
    }
    let description = text("description")?;
    let tags = match body.get("tags") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(tags)) if tags.iter().all(Value::is_string) => tags
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect(),
        Some(_) => return Err(Refusal::input("tags must be a list of strings")),
    };
    Ok(SpaceCreate {
        name,
        description,
        tags,
    })
}

/// `POST /spaces`' body.
pub fn body(text: &str) -> Result<SpaceCreate, Refusal> {
    space_create(&object_body(text)?, true)
}

fn channel<'a>(network: &'a Network, id: &str) -> Option<&'a Channel> {
    network.state().channels.get(&id.parse::<Name>().ok()?)
}

/// A channel `caller` may see: public ones, and private ones it is in or invited to.
fn visible(channel: &Channel, caller: &Address) -> bool {
    !channel.private || channel.members.contains(caller) || channel.invited.contains(caller)
}

/// The SpaceInfo of channel `id`, or 404.
pub fn info(
    network: &Network,
    graph: &dyn GraphIndex,
    caller: &Address,
    id: &str,
) -> Result<Value, Refusal> {
    match channel(network, id) {
        Some(c) if visible(c, caller) => Ok(space_info(
            c,
            graph.count(&space_key(id)),
            &network.state().members,
        )),
        _ => Err(Refusal::not_found(format!("Space '{id}' not found"))),
    }
}

/// Every space `caller` may see, by name.
pub fn list(network: &Network, graph: &dyn GraphIndex, caller: &Address) -> Vec<Value> {
    network
        .state()
        .channels
        .values()
        .filter(|c| visible(c, caller))
        .map(|c| {
            let count = graph.count(&space_key(c.name.as_str()));
            space_info(c, count, &network.state().members)
        })
        .collect()
}

/// The description `space` is created or joined with: its own, else the
/// caller node's; `None` when both are empty.
pub fn description(network: &Network, caller: &Address, space: &SpaceCreate) -> Option<String> {
    let own = Some(space.description.clone()).filter(|d| !d.is_empty());
    own.or_else(|| {
        let profile = &network.state().members.get(caller)?.profile;
        let node = profile.description.as_deref()?.trim();
        (!node.is_empty()).then(|| node.to_owned())
    })
}

/// Creates the space or joins it (with its tags) as `caller`.
pub fn create_or_join<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    caller: &Address,
    space: &SpaceCreate,
) -> Result<Result<(), Refusal>, H::Error> {
    if description(network, caller, space).is_none() {
        return Ok(Err(Refusal::input("Space description is required")));
    }
    let Ok(name) = space.name.parse::<Name>() else {
        return Ok(Err(Refusal::input(format!(
            "Space name '{}' is not a channel name (letters, digits, '-', '_', '.')",
            space.name
        ))));
    };
    let existing = network.state().channels.get(&name);
    let event = match existing {
        None => core_types::CHANNEL_CREATE,
        Some(c) if c.members.contains(caller) && space.tags.iter().all(|t| c.tags.contains(t)) => {
            return Ok(Ok(()));
        }
        Some(_) => core_types::CHANNEL_JOIN,
    };
    let payload = json!({"channel": name.as_str(), "tags": space.tags});
    let submitted = submit_core(host, network, caller, event, None, payload)?;
    Ok(submitted.answer.map(|_| ()).map_err(|r| Refusal::from(&r)))
}
