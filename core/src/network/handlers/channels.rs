//! Handlers for channels and groups: create, delete, join and leave.

use super::payload::{channel_name, group_name, member_list, require_master};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::core_types as t;
use crate::model::state::{Channel, Group, Row, RowKind};
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::outcome::{Outcome, logged};
use serde_json::json;

/// `network.channel.create`: a new channel with its creator and listed members.
pub(super) fn create_channel(network: &mut Network, event: &Event) -> Result<Outcome, Rejection> {
    let name = channel_name(event, "channel").or_else(|_| channel_name(event, "name"))?;
    if network.state.channels.contains_key(&name) {
        return Err(Rejection::new(
            ErrorCode::AlreadyExists,
            format!("channel/{name} exists"),
        ));
    }
    let mut members: std::collections::BTreeSet<Address> =
        member_list(event)?.into_iter().collect();
    members.insert(event.source.clone());
    let channel = Channel {
        name: name.clone(),
        members,
        created_by: event.source.clone(),
    };
    network.state.channels.insert(name, channel.clone());
    let mut outcome = logged();
    outcome
        .ack
        .insert("channel".into(), json!(format!("channel/{}", channel.name)));
    outcome.effects.push(Effect::Store(Row::Channel(channel)));
    Ok(outcome)
}

/// `network.channel.delete`.
pub(super) fn delete_channel(network: &mut Network, event: &Event) -> Result<Outcome, Rejection> {
    let name = channel_name(event, "channel")?;
    if network.state.channels.remove(&name).is_none() {
        return Err(Rejection::new(
            ErrorCode::UnknownTarget,
            format!("channel/{name} does not exist"),
        ));
    }
    let mut outcome = logged();
    outcome.effects.push(Effect::Remove {
        kind: RowKind::Channel,
        key: name.to_string(),
    });
    Ok(outcome)
}

/// `network.channel.join` / `network.channel.leave` for the sender.
pub(super) fn join_or_leave_channel(
    network: &mut Network,
    event: &Event,
) -> Result<Outcome, Rejection> {
    let name = channel_name(event, "channel")?;
    let channel = network.state.channels.get_mut(&name).ok_or_else(|| {
        Rejection::new(
            ErrorCode::UnknownTarget,
            format!("channel/{name} does not exist"),
        )
    })?;
    if event.event_type.as_str() == t::CHANNEL_JOIN {
        channel.members.insert(event.source.clone());
    } else {
        channel.members.remove(&event.source);
    }
    let mut outcome = logged();
    outcome
        .effects
        .push(Effect::Store(Row::Channel(channel.clone())));
    Ok(outcome)
}

/// `network.group.update` (masters): a group and its members.
pub(super) fn update_group(network: &mut Network, event: &Event) -> Result<Outcome, Rejection> {
    require_master(&network.state, &event.source, "manage groups")?;
    let name = group_name(event)?;
    let group = Group {
        name: name.clone(),
        members: member_list(event)?.into_iter().collect(),
    };
    network.state.groups.insert(name, group.clone());
    let mut outcome = logged();
    outcome.effects.push(Effect::Store(Row::Group(group)));
    Ok(outcome)
}

/// `network.group.delete` (masters).
pub(super) fn delete_group(network: &mut Network, event: &Event) -> Result<Outcome, Rejection> {
    require_master(&network.state, &event.source, "manage groups")?;
    let name = group_name(event)?;
    if network.state.groups.remove(&name).is_none() {
        return Err(Rejection::new(
            ErrorCode::UnknownTarget,
            format!("group/{name} does not exist"),
        ));
    }
    let mut outcome = logged();
    outcome.effects.push(Effect::Remove {
        kind: RowKind::Group,
        key: name.to_string(),
    });
    Ok(outcome)
}
