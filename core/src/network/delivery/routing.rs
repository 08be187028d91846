//! Who receives an event: the target's recipients (ONM §6) filtered by visibility.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::event::metadata::Visibility;
use crate::ids::address::{Address, Entity};
use crate::model::state::State;

/// The visibility an event has when it does not say: derived from its target.
pub fn default_visibility(target: &Address) -> Visibility {
    match target.entity() {
        Entity::Channel(_) => Visibility::Channel,
        e if e.is_participant() => Visibility::Direct,
        _ => Visibility::Public,
    }
}

/// Checks that an explicit visibility fits the target.
pub fn check_visibility(target: &Address, visibility: Visibility) -> Result<(), Rejection> {
    let fits = match visibility {
        Visibility::Public | Visibility::ModOnly => true,
        Visibility::Channel => matches!(target.entity(), Entity::Channel(_)),
        Visibility::Direct => target.entity().is_participant(),
    };
    if fits {
        Ok(())
    } else {
        Err(Rejection::new(
            ErrorCode::MalformedEvent,
            format!("visibility {visibility:?} does not fit target {target}"),
        ))
    }
}

/// True when member `who` may see `event` with `visibility`.
pub fn visible_to(state: &State, event: &Event, visibility: Visibility, who: &Address) -> bool {
    visible_to_known(
        state,
        event,
        visibility,
        who,
        state.members.contains_key(who),
    )
}

/// [`visible_to`] for a `who` whose membership the caller has looked up
/// already (`is_member`): delivery asks for every recipient of every event.
pub(crate) fn visible_to_known(
    state: &State,
    event: &Event,
    visibility: Visibility,
    who: &Address,
    is_member: bool,
) -> bool {
    if &event.source == who {
        return true;
    }
    if !event.target.is_local() {
        return visibility != Visibility::ModOnly && state.bridge_for(&event.target) == Some(who);
    }
    match visibility {
        Visibility::Public => is_member,
        Visibility::Channel => match event.target.entity() {
            Entity::Channel(name) => state
                .channels
                .get(name)
                .is_some_and(|c| c.members.contains(who)),
            _ => false,
        },
        Visibility::Direct => &event.target == who,
        Visibility::ModOnly => false,
    }
}

/// True when `who` may see a logged event: only what it could have received —
/// its own events, and events whose target reaches it (see [`reached_by`]) with
/// a visibility, read back from the metadata (or derived from the target) as
/// when it was accepted, that lets it see them.
pub fn logged_visible_to(state: &State, event: &Event, who: &Address) -> bool {
    if &event.source == who {
        return true;
    }
    // Who changed what in the network is every master's to read.
    let admin = event
        .event_type
        .as_str()
        .starts_with(crate::network::handlers::admin_types::PREFIX)
        || event.event_type.as_str() == crate::vocabulary::event_types::INVITATION_CREATED;
    if admin && state.role_of(who) == Some(crate::ids::standing::Role::Master) {
        return true;
    }
    let visibility = crate::event::metadata::ProtocolMetadata::read(&event.metadata)
        .ok()
        .and_then(|m| m.visibility)
        .unwrap_or_else(|| default_visibility(&event.target));
    reached_by(state, event, who) && visible_to(state, event, visibility, who)
}

/// True when `event`'s target reaches `who` now: everyone for a broadcast, the
/// member itself, a channel's or group's members, a resource's owner, a
/// cross-network target's bridge. Events to `core` and to mods reach no member.
pub fn reached_by(state: &State, event: &Event, who: &Address) -> bool {
    let target = &event.target;
    if !target.is_local() {
        return state.bridge_for(target) == Some(who);
    }
    match target.entity() {
        Entity::Broadcast => state.members.contains_key(who),
        e if e.is_participant() => target == who,
        Entity::Channel(name) => state
            .channels
            .get(name)
            .is_some_and(|c| c.members.contains(who)),
        Entity::Group(name) => state
            .groups
            .get(name)
            .is_some_and(|g| g.members.contains(who)),
        Entity::Tool(_) | Entity::File(_) | Entity::Context(_) => {
            state.resources.get(target).is_some_and(|r| &r.owner == who)
        }
        _ => false,
    }
}

/// The members `event` is routed to, before visibility and presence.
pub fn recipients(state: &State, event: &Event) -> Result<Vec<Address>, Rejection> {
    let target = &event.target;
    if !target.is_local() {
        // Cross-network: the configured bridge member carries it (ONM §4, §10);
        // a bridge never gets its own cross-network events back.
        return match state.bridge_for(target) {
            Some(bridge) if state.members.contains_key(bridge) && *bridge != event.source => {
                Ok(vec![bridge.clone()])
            }
            Some(bridge) if *bridge != event.source => Err(Rejection::new(
                ErrorCode::CrossNetwork,
                format!("{target} is in another network and its bridge {bridge} has not joined"),
            )),
            _ => Err(Rejection::new(
                ErrorCode::CrossNetwork,
                format!("{target} is in another network and no bridge is configured"),
            )),
        };
    }
    let unknown = || {
        Rejection::new(
            ErrorCode::UnknownTarget,
            format!("{target} does not exist in this network"),
        )
    };
    let others = |members: &mut dyn Iterator<Item = &Address>| -> Vec<Address> {
        members.filter(|a| **a != event.source).cloned().collect()
    };
    match target.entity() {
        Entity::Broadcast => Ok(others(&mut state.members.keys())),
        e if e.is_participant() => {
            if state.members.contains_key(target) {
                Ok(vec![target.clone()])
            } else {
                Err(Rejection::new(
                    ErrorCode::UnknownTarget,
                    format!("{target} is not a member"),
                ))
            }
        }
        Entity::Channel(name) => {
            let channel = state.channels.get(name).ok_or_else(unknown)?;
            Ok(others(&mut channel.members.iter()))
        }
        Entity::Group(name) => {
            let group = state.groups.get(name).ok_or_else(unknown)?;
            Ok(others(&mut group.members.iter()))
        }
        Entity::Tool(_) | Entity::File(_) | Entity::Context(_) => {
            let resource = state.resources.get(target).ok_or_else(unknown)?;
            Ok(others(&mut std::iter::once(&resource.owner)))
        }
        _ => Err(unknown()),
    }
}
