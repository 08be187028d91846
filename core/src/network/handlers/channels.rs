//! Handlers for channels and groups: create, delete, join and leave.

use super::payload::{channel_name, group_name, invalid, member_list, require_master};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::core_types as t;
use crate::model::requests::channels::ChannelSettings;
use crate::model::requests::field::{AsSent, read};
use crate::model::state::{Channel, Group, Row, RowKind};
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, logged};
use serde_json::json;

/// `network.channel.create`: a new channel with its creator as its member.
/// The members it lists are invited, not added: each joins when it wants
/// (`network.channel.join`); `private: true` lets only them, the creator and
/// masters join.
pub(super) fn create_channel(network: &mut Network, event: &Event) -> Handled {
    let name = channel_name(event, "channel").or_else(|_| channel_name(event, "name"))?;
    if network.state.channels.contains_key(&name) {
        return Err(Rejection::new(
            ErrorCode::AlreadyExists,
            format!("channel/{name} exists"),
        ));
    }
    let mut invited: std::collections::BTreeSet<Address> =
        member_list(event)?.into_iter().collect();
    invited.remove(&event.source);
    let settings = read::<ChannelSettings>(&event.payload);
    let private = settings
        .private
        .checked(|| invalid("payload.private is true or false"))?
        .unwrap_or(false);
    let channel = Channel {
        name: name.clone(),
        members: std::iter::once(event.source.clone()).collect(),
        created_by: event.source.clone(),
        private,
        invited,
        tags: merged_tags(&[], settings.tags)?,
        title: channel_title(settings.title)?,
    };
    network.state.channels.insert(name, channel.clone());
    let mut outcome = logged();
    outcome
        .ack
        .insert("channel".into(), json!(format!("channel/{}", channel.name)));
    outcome.effects.push(Effect::Store(Row::Channel(channel)));
    Ok(outcome)
}

/// Longest channel display name, in characters.
pub const MAX_CHANNEL_TITLE_CHARS: usize = 80;

/// A new channel's `title` (the name people typed): trimmed, blank as none,
/// at most [`MAX_CHANNEL_TITLE_CHARS`] characters, no control characters.
fn channel_title(title: AsSent<String>) -> Result<Option<String>, Rejection> {
    match title.checked(|| invalid("payload.title is a string"))? {
        None => Ok(None),
        Some(title) => {
            let title = title.trim();
            if title.chars().count() > MAX_CHANNEL_TITLE_CHARS
                || title.chars().any(char::is_control)
            {
                return Err(invalid(format!(
                    "payload.title has at most {MAX_CHANNEL_TITLE_CHARS} characters and no control characters"
                )));
            }
            Ok((!title.is_empty()).then(|| title.to_owned()))
        }
    }
}

/// `network.channel.delete`: by its creator or a master.
pub(super) fn delete_channel(network: &mut Network, event: &Event) -> Handled {
    let name = channel_name(event, "channel")?;
    let role = network.state.role_of(&event.source);
    match network.state.channels.get(&name) {
        None => {
            return Err(Rejection::new(
                ErrorCode::UnknownTarget,
                format!("channel/{name} does not exist"),
            ));
        }
        Some(channel) if !channel.may_delete(&event.source, role) => {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!(
                    "only {} or a master may delete channel/{name}",
                    channel.created_by
                ),
            ));
        }
        Some(_) => {}
    }
    network.state.channels.remove(&name);
    let mut outcome = logged();
    outcome.effects.push(Effect::Remove {
        kind: RowKind::Channel,
        key: name.to_string(),
    });
    Ok(outcome)
}

/// `network.channel.join` / `network.channel.leave` for the sender.
pub(super) fn join_or_leave_channel(network: &mut Network, event: &Event) -> Handled {
    let name = channel_name(event, "channel")?;
    let role = network.state.role_of(&event.source);
    let channel = network.state.channels.get_mut(&name).ok_or_else(|| {
        Rejection::new(
            ErrorCode::UnknownTarget,
            format!("channel/{name} does not exist"),
        )
    })?;
    if event.event_type.as_str() == t::CHANNEL_JOIN {
        if !channel.may_join(&event.source, role) {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!(
                    "channel/{name} is private: joining it needs an invitation from its creator"
                ),
            ));
        }
        channel.members.insert(event.source.clone());
        let tags = read::<ChannelSettings>(&event.payload).tags;
        channel.tags = merged_tags(&channel.tags, tags)?;
    } else {
        channel.members.remove(&event.source);
    }
    let mut outcome = logged();
    outcome
        .effects
        .push(Effect::Store(Row::Channel(channel.clone())));
    Ok(outcome)
}

/// Most tags a channel keeps, and the longest tag.
const MAX_TAGS: usize = 32;
const MAX_TAG_LEN: usize = 128;

/// `existing` with the event's `payload.tags` added: trimmed, without empty
/// ones or repeats, in first-seen order (IOA's space tags).
fn merged_tags(existing: &[String], given: AsSent<Vec<String>>) -> Result<Vec<String>, Rejection> {
    let given = given
        .checked(|| invalid("payload.tags is a list of strings"))?
        .unwrap_or_default();
    let mut tags = existing.to_vec();
    for tag in given.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
        if tag.chars().count() > MAX_TAG_LEN {
            return Err(invalid(format!(
                "a tag is at most {MAX_TAG_LEN} characters"
            )));
        }
        if !tags.iter().any(|t| t == tag) {
            tags.push(tag.to_owned());
        }
    }
    if tags.len() > MAX_TAGS {
        return Err(invalid(format!("a channel keeps at most {MAX_TAGS} tags")));
    }
    Ok(tags)
}

/// `network.group.update` (masters): a group and its members.
pub(super) fn update_group(network: &mut Network, event: &Event) -> Handled {
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
pub(super) fn delete_group(network: &mut Network, event: &Event) -> Handled {
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
