//! `network.admin.*`: masters manage a running network (docs/admin.md). Each
//! change is an event from the master to `core`, logged, so the history
//! shows who changed what; the new configuration goes to the host as
//! [`Effect::StoreConfig`]. Mods are [`super::admin_mods`].
//!
//! | type | payload | what |
//! |---|---|---|
//! | `network.admin.pause` / `.resume` / `.archive` | `{reason?}` | the network's status; archived is final |
//! | `network.admin.token.rotate` | `{token: "access" \| "admin"}` | a new network or admin token; the ack alone carries it |
//! | `network.admin.invitation.revoke` | `{code}` | an unused invitation is void |
//! | `network.admin.member.remove` | `{address}` | the member is gone, its connections and sessions closed |
//! | `network.admin.member.ban` / `.unban` | `{address, reason?}` | removed and refused at join (`banned`) / allowed again |
//! | `network.admin.settings.update` | `{presence_timeout_ms?, limits?, public?, name?, description?}` | those settings |
//! | `network.admin.agent.host` / `.unhost` | a hosted agent's configuration (no key) / `{address}` | an LLM agent the host runs joins / leaves ([`super::admin_hosted`]) |
//! | `network.admin.config` | `{}` | read: the ack carries the configuration (without secrets' hashes), the invitations, and what the master may do now (`actions`, `members`, `banned`: [`super::admin_actions`]) |

use super::payload::{invalid, payload_address, require_master};
use crate::error::Rejection;
use crate::event::{Event, Limits};
use crate::ids::address::Address;
use crate::model::config::NetworkStatus;
use crate::model::requests::admin::{InvitationRevoke, SettingsUpdate, TokenRotate};
use crate::model::requests::field::read;
use crate::model::state::RowKind;
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, Outcome, logged};
use serde_json::{Value, json};

pub use super::admin_types as types;
use crate::ids::time::Timestamp;

/// Shortest and longest presence timeout a master may set.
pub const PRESENCE_TIMEOUT_RANGE_MS: std::ops::RangeInclusive<u64> = 5_000..=86_400_000;

/// Handles one `network.admin.*` event from a master.
pub(super) fn handle(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    require_master(&network.state, &event.source, "manage the network")?;
    let kind = event.event_type.as_str();
    let mut outcome = match kind {
        types::PAUSE => status(network, NetworkStatus::Paused)?,
        types::RESUME => status(network, NetworkStatus::Active)?,
        types::ARCHIVE => archive(network)?,
        types::MOD_LOAD | types::MOD_UNLOAD | types::MOD_CONFIGURE => {
            super::admin_mods::handle(network, event)?
        }
        types::TOKEN_ROTATE => rotate(network, event)?,
        types::INVITATION_REVOKE => revoke(network, event)?,
        types::MEMBER_REMOVE => remove(network, event, false, now)?,
        types::MEMBER_BAN => remove(network, event, true, now)?,
        types::MEMBER_UNBAN => {
            let address = payload_address(event, "address")?;
            network.config.banned.remove(&address);
            logged()
        }
        types::SETTINGS => settings(network, event)?,
        types::AGENT_HOST => super::admin_hosted::host(network, event, now)?,
        types::AGENT_UNHOST => super::admin_hosted::unhost(network, event, now)?,
        types::CONFIG => return Ok(read_config(network, &event.source)),
        other => return Err(invalid(format!("{other} is not an admin event"))),
    };
    outcome
        .effects
        .push(Effect::StoreConfig(Box::new(network.config.clone())));
    Ok(outcome)
}

fn status(network: &mut Network, to: NetworkStatus) -> Handled {
    if network.config.status == NetworkStatus::Archived {
        return Err(Rejection::new(
            crate::error::ErrorCode::NetworkUnavailable,
            "this network is archived: that is final",
        ));
    }
    network.config.status = to;
    let mut outcome = logged();
    outcome.ack.insert("status".into(), json!(to));
    Ok(outcome)
}

/// Archiving is final, and every member stops being one: each one's
/// credentials end once the master has its answer (sockets close; sessions,
/// tokens and streams are refused). The roster and the log stay, as history.
fn archive(network: &mut Network) -> Handled {
    let mut outcome = status(network, NetworkStatus::Archived)?;
    outcome.after_ack.extend(
        network
            .state
            .members
            .keys()
            .map(|member| Effect::EndCredentials(member.clone())),
    );
    Ok(outcome)
}

fn rotate(network: &mut Network, event: &Event) -> Handled {
    let token = crate::crypto::to_hex(&network.ids.random_bytes())
        + &crate::crypto::to_hex(&network.ids.random_bytes());
    let hash = Some(crate::crypto::sha256_hex(token.as_bytes()));
    match read::<TokenRotate>(&event.payload).token.as_text() {
        Some("access") => network.config.access.token_sha256 = hash,
        Some("admin") => network.config.access.admin_token_sha256 = hash,
        _ => return Err(invalid("payload.token is access or admin")),
    }
    // The log keeps that it was rotated, by whom; only the master's ack carries the token.
    let mut outcome = logged();
    outcome.ack.insert("token".into(), json!(token));
    Ok(outcome)
}

fn revoke(network: &mut Network, event: &Event) -> Handled {
    let code = read::<InvitationRevoke>(&event.payload)
        .code
        .given()
        .ok_or_else(|| invalid("payload.code names it"))?;
    if network.state.invitations.remove(&code).is_none() {
        return Err(Rejection::new(
            crate::error::ErrorCode::NotFound,
            "no such unused invitation",
        ));
    }
    let mut outcome = logged();
    outcome.effects.push(Effect::Remove {
        kind: RowKind::Invitation,
        key: code,
    });
    Ok(outcome)
}

fn remove(network: &mut Network, event: &Event, ban: bool, now: Timestamp) -> Handled {
    let address = payload_address(event, "address")?;
    let address = address.to_local();
    if address == event.source {
        return Err(invalid("a master does not remove itself: it leaves"));
    }
    if !ban && !network.state.members.contains_key(&address) {
        return Err(Rejection::new(
            crate::error::ErrorCode::NotFound,
            format!("{address} is not a member"),
        ));
    }
    if ban {
        network.config.banned.insert(address.clone());
    }
    let mut outcome = logged();
    outcome.effects.extend(network.disconnect(&address, now));
    outcome.effects.extend(network.forget_member(&address));
    Ok(outcome)
}

fn settings(network: &mut Network, event: &Event) -> Handled {
    let update = read::<SettingsUpdate>(&event.payload);
    let mut config = network.config.clone();
    if let Some(timeout) = update.presence_timeout_ms.sent() {
        let timeout = timeout
            .filter(|t| PRESENCE_TIMEOUT_RANGE_MS.contains(t))
            .ok_or_else(|| {
                invalid(format!(
                    "presence_timeout_ms is {} to {} milliseconds",
                    PRESENCE_TIMEOUT_RANGE_MS.start(),
                    PRESENCE_TIMEOUT_RANGE_MS.end()
                ))
            })?;
        config.presence_timeout_ms = timeout;
    }
    if let Some(limits) = update.limits.parsed() {
        let limits = limits.map_err(|e| invalid(format!("limits: {e}")))?;
        let floor = Limits::default();
        if limits.max_frame_bytes > floor.max_frame_bytes
            || limits.max_payload_bytes > limits.max_frame_bytes
            || limits.max_type_len < 16
            || limits.max_payload_bytes < 1024
            || limits.max_metadata_bytes < 1024
        {
            return Err(invalid(format!(
                "limits stay between 1024 bytes and the host's frame bound of {} bytes",
                floor.max_frame_bytes
            )));
        }
        config.limits = limits;
    }
    if let Some(files) = update.files.parsed() {
        let files = files.map_err(|e| invalid(format!("files: {e}")))?;
        files.check().map_err(invalid)?;
        config.files = files;
    }
    if let Some(public) = update.public.sent() {
        config.public = public.ok_or_else(|| invalid("public is true or false"))?;
    }
    if let Some(name) = update.name.sent() {
        config.name = name
            .filter(|n| !n.trim().is_empty() && n.len() <= 200)
            .ok_or_else(|| invalid("name is 1 to 200 characters"))?;
    }
    if let Some(description) = update.description.sent() {
        let description = description
            .filter(|d| d.len() <= 2_000)
            .ok_or_else(|| invalid("description is at most 2000 characters"))?;
        config
            .metadata
            .insert("description".into(), json!(description));
    }
    network.config = config;
    // A shorter presence timeout brings deadlines forward.
    network.refresh_wakeup();
    Ok(logged())
}

/// The configuration as `master` reads it: secrets' hashes left out, with
/// what it may do now ([`super::admin_actions`]).
fn read_config(network: &Network, master: &Address) -> Outcome {
    let mut config = serde_json::to_value(&network.config).unwrap_or(Value::Null);
    if let Some(access) = config.get_mut("access").and_then(Value::as_object_mut) {
        let has_token = access.remove("token_sha256").is_some();
        let has_admin = access.remove("admin_token_sha256").is_some();
        access.insert("has_token".into(), json!(has_token));
        access.insert("has_admin_token".into(), json!(has_admin));
    }
    let invitations: Vec<Value> = network
        .state
        .invitations
        .values()
        .map(|i| serde_json::to_value(i).unwrap_or(Value::Null))
        .collect();
    let mut outcome = Outcome::default();
    outcome.ack.insert("config".into(), config);
    outcome.ack.insert("invitations".into(), json!(invitations));
    outcome
        .ack
        .insert("mods".into(), json!(network.pipeline.addresses()));
    let actions = super::admin_actions::admin_actions(
        &network.config,
        network.state.members.values(),
        &master.to_local(),
    );
    if let Value::Object(actions) = actions {
        outcome.ack.extend(actions);
    }
    outcome
}

/// True when `address` is banned here.
pub(crate) fn is_banned(network: &Network, address: &Address) -> bool {
    network.config.banned.contains(address)
}
