//! `mod/access-control`: resource permissions and channel membership.
//!
//! Guards (priority 20):
//! * any event sent to `channel/{name}` needs membership of that channel;
//! * `network.events.query` for a channel needs membership of it.
//!
//! Resource permissions ([`check_resource_permissions`]) and who may delete
//! a channel are the network's own checks, made whether or not this mod is loaded.

use super::api::{Context, Mod, ModMode, ModSpec};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::{Address, Entity};
use crate::ids::event_type::core_types;
use crate::model::access::Permission;
use crate::model::state::State;
use serde_json::Value;

pub(super) struct AccessControl {
    spec: ModSpec,
}

impl AccessControl {
    pub(super) fn new() -> Self {
        Self {
            spec: ModSpec::standard("access-control", &["*"], 20, ModMode::Guard),
        }
    }
}

fn forbidden(message: impl Into<String>) -> Rejection {
    Rejection::new(ErrorCode::Forbidden, message)
}

fn require(
    state: &State,
    who: &Address,
    resource: &Address,
    permission: Permission,
) -> Result<(), Rejection> {
    match state.resources.get(resource) {
        // A missing resource is the router's error (unknown_target), not a permission one.
        None => Ok(()),
        Some(r) if state.may(who, r, permission) => Ok(()),
        Some(_) => Err(forbidden(format!(
            "{who} lacks the {} permission on {resource}",
            serde_json::to_value(permission)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        ))),
    }
}

fn payload_address(event: &Event, key: &str) -> Option<Address> {
    event
        .payload
        .get(key)
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
}

fn require_channel_member(
    state: &State,
    who: &Address,
    channel: &Address,
) -> Result<(), Rejection> {
    match channel.entity() {
        Entity::Channel(name) => match state.channels.get(name) {
            Some(c) if !c.members.contains(who) => {
                Err(forbidden(format!("{who} is not a member of {channel}")))
            }
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

impl Mod for AccessControl {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }

    fn guard(&mut self, cx: &Context<'_>, event: &Event) -> Result<(), Rejection> {
        let who = &event.source;
        match event.event_type.as_str() {
            // The network itself enforces resource permissions and who deletes
            // a channel, with or without this mod (`check_resource_permissions`).
            core_types::RESOURCE_INVOKE
            | core_types::RESOURCE_READ
            | core_types::RESOURCE_UPDATE
            | core_types::RESOURCE_UNREGISTER
            | core_types::RESOURCE_REGISTER
            | core_types::CHANNEL_DELETE => Ok(()),
            core_types::EVENTS_QUERY => match payload_address(event, "target") {
                Some(channel) => require_channel_member(cx.state, who, &channel),
                None => Ok(()),
            },
            _ => require_channel_member(cx.state, who, &event.target),
        }
    }
}

/// The permission a resource declares for what `event` does to it, checked
/// for the sender. The network runs this for every event, whatever mods it
/// loads: `network.resource.invoke` needs `invoke`, `network.resource.read`
/// needs `read`, `network.resource.update` needs `write` (files, context) or
/// `admin` (tools) — a document sync needs `read`, and `write` only when it
/// carries changes — `network.resource.unregister` needs `admin`, and
/// re-registering an existing resource needs its `admin` (else
/// `already_exists`, naming the member that offers it).
pub fn check_resource_permissions(state: &State, event: &Event) -> Result<(), Rejection> {
    let who = &event.source;
    match event.event_type.as_str() {
        core_types::RESOURCE_INVOKE => {
            require(state, who, &event.target.to_local(), Permission::Invoke)
        }
        core_types::RESOURCE_READ => {
            require(state, who, &event.target.to_local(), Permission::Read)
        }
        core_types::RESOURCE_UPDATE if crate::documents::is_sync_event(event) => {
            // Syncing needs read; a message that carries changes is an edit and needs write
            // (told here with Automerge; a keeper elsewhere is told whether the member may write).
            let target = event.target.to_local();
            require(state, who, &target, Permission::Read)?;
            #[cfg(feature = "documents")]
            if event
                .payload
                .get(crate::documents::payload::SYNC)
                .and_then(Value::as_str)
                .is_some_and(crate::documents::carries_changes)
            {
                require(state, who, &target, Permission::Write)?;
            }
            Ok(())
        }
        core_types::RESOURCE_UPDATE => {
            let permission = match event.target.entity() {
                Entity::Tool(_) => Permission::Admin,
                _ => Permission::Write,
            };
            require(state, who, &event.target.to_local(), permission)
        }
        core_types::RESOURCE_UNREGISTER => match payload_address(event, "address") {
            Some(address) if state.resources.contains_key(&address) => {
                require(state, who, &address, Permission::Admin)
            }
            _ => Ok(()),
        },
        core_types::RESOURCE_REGISTER => match payload_address(event, "address")
            .and_then(|address| state.resources.get(&address))
        {
            // Another member's name: say whose it is, not which permission is missing.
            Some(taken) if !state.may(who, taken, Permission::Admin) => Err(Rejection::new(
                ErrorCode::AlreadyExists,
                format!(
                    "{} is offered by {}: register it under another name",
                    taken.address, taken.owner
                ),
            )),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}
