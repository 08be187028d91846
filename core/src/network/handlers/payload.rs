//! Reading a core event's payload: addresses, entity names, member lists,
//! and the checks several handlers share.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::{Address, Entity, Name};
use crate::ids::standing::Role;
use crate::model::requests::field::{AsSent, read};
use crate::model::state::{Resource, State};
use serde_json::Value;

pub(super) fn invalid(message: impl Into<String>) -> Rejection {
    Rejection::new(ErrorCode::InvalidRequest, message)
}

pub(super) fn payload_str<'a>(event: &'a Event, key: &str) -> Option<&'a str> {
    event.payload.get(key).and_then(Value::as_str)
}

pub(super) fn payload_address(event: &Event, key: &str) -> Result<Address, Rejection> {
    let text = payload_str(event, key)
        .ok_or_else(|| invalid(format!("payload.{key} must be an address")))?;
    text.parse()
        .map_err(|e: crate::ids::address::AddressError| Rejection::from(&e))
}

/// An optional address field `payload.{key}`, read as `field` (absent or
/// `null`: none).
pub(super) fn address_in(field: AsSent<String>, key: &str) -> Result<Option<Address>, Rejection> {
    field
        .checked(|| invalid(format!("payload.{key} must be an address")))?
        .map(|text| text.parse().map_err(|e| Rejection::from(&e)))
        .transpose()
}

/// `payload.{key}` as the name of a `{kind}/…` entity, accepting `general` or `channel/general`.
fn entity_name(event: &Event, key: &str, kind: &str) -> Result<Name, Rejection> {
    let text = payload_str(event, key)
        .ok_or_else(|| invalid(format!("payload.{key} must name a {kind}")))?;
    let prefix = format!("{kind}/");
    let full = if text.starts_with(&prefix) {
        text.to_owned()
    } else {
        format!("{prefix}{text}")
    };
    match full
        .parse::<Address>()
        .map_err(|e| Rejection::from(&e))?
        .entity()
    {
        Entity::Channel(name) if kind == "channel" => Ok(name.clone()),
        Entity::Group(name) if kind == "group" => Ok(name.clone()),
        _ => Err(invalid(format!("{text} is not a {kind}"))),
    }
}

pub(super) fn channel_name(event: &Event, key: &str) -> Result<Name, Rejection> {
    entity_name(event, key, "channel")
}

pub(super) fn group_name(event: &Event) -> Result<Name, Rejection> {
    entity_name(event, "group", "group")
}

pub(super) fn member_list(event: &Event) -> Result<Vec<Address>, Rejection> {
    member_list_in(read::<Members>(&event.payload).members, "members")
}

/// The members a request names (`payload.members`).
#[derive(Default, serde::Deserialize)]
#[serde(default)]
struct Members {
    members: AsSent<Vec<Value>>,
}

/// `payload.{key}`, read as `list`: local participant addresses (absent: none).
pub(super) fn member_list_in(
    list: AsSent<Vec<Value>>,
    key: &str,
) -> Result<Vec<Address>, Rejection> {
    match list {
        AsSent::Absent | AsSent::Null => Ok(Vec::new()),
        AsSent::Given(items) => items
            .iter()
            .map(|v| {
                let a: Address = v
                    .as_str()
                    .ok_or_else(|| invalid(format!("payload.{key} must be addresses")))?
                    .parse()
                    .map_err(|e: crate::ids::address::AddressError| Rejection::from(&e))?;
                if a.entity().is_participant() && a.is_local() {
                    Ok(a)
                } else {
                    Err(invalid(format!("{a} cannot be a member")))
                }
            })
            .collect(),
        AsSent::Wrong(_) => Err(invalid(format!(
            "payload.{key} must be a list of addresses"
        ))),
    }
}

pub(super) fn require_master(state: &State, who: &Address, what: &str) -> Result<(), Rejection> {
    if state.role_of(who) == Some(Role::Master) {
        Ok(())
    } else {
        Err(Rejection::new(
            ErrorCode::Forbidden,
            format!("only masters may {what}"),
        ))
    }
}

/// The resource registered at `target` (local form).
pub(super) fn resource_at<'a>(
    state: &'a State,
    target: &Address,
) -> Result<&'a Resource, Rejection> {
    state.resources.get(&target.to_local()).ok_or_else(|| {
        Rejection::new(
            ErrorCode::UnknownTarget,
            format!("{target} is not registered"),
        )
    })
}
