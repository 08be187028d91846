//! `network.admin.agent.host` / `.unhost`: a master adds, changes or removes
//! an LLM agent the network's host runs ([`crate::agent::hosted`]).
//!
//! Hosting makes the agent a member (online while hosted, with its name and
//! `meta.hosted`) and puts it in the network's open channels, or in the
//! `channels` the payload names; the configuration goes into the network's
//! configuration. The event never carries a provider key (refused with
//! `hosted_agent_key_in_event`): the key reaches the host beside it.

use super::payload::{invalid, payload_address};
use crate::agent::hosted::{HostedAgent, HostedError, MAX_HOSTED, from_payload};
use crate::error::{Coded, ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Name;
use crate::ids::standing::Verification;
use crate::ids::time::Timestamp;
use crate::model::membership::{Member, Presence};
use crate::model::requests::admin::HostChannels;
use crate::model::requests::field::read;
use crate::model::state::Row;
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, logged};
use serde_json::{Value, json};

fn refused(error: HostedError) -> Rejection {
    let code = match &error {
        HostedError::Config(config) => config.code(),
        _ => ErrorCode::InvalidRequest,
    };
    Rejection::new(code, format!("{} ({})", error, error.reason()))
}

/// Adds or changes a hosted agent.
pub(super) fn host(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let channels = channels_of(&event.payload)?;
    let mut payload = event.payload.clone();
    if let Some(fields) = payload.as_object_mut() {
        fields.remove("channels");
    }
    let hosted = from_payload(&payload, &event.source, now).map_err(refused)?;
    let address = hosted.config.address.clone();
    let known = network
        .config
        .hosted_agents
        .iter()
        .position(|h| h.config.address == address);
    if known.is_none() && network.state.members.contains_key(&address) {
        return Err(Rejection::new(
            ErrorCode::AlreadyExists,
            format!("{address} is a member already: host an agent under another name"),
        ));
    }
    if known.is_none() && network.config.hosted_agents.len() >= MAX_HOSTED {
        return Err(Rejection::new(
            ErrorCode::LimitReached,
            format!("a network hosts at most {MAX_HOSTED} agents"),
        ));
    }
    let mut outcome = logged();
    let member = hosted_member(network, &hosted, now);
    network
        .state
        .members
        .insert(address.clone(), member.clone());
    network.seen_online(now);
    outcome.effects.push(Effect::Store(Row::Member(member)));
    let wanted: Vec<Name> = match channels {
        Some(names) => names,
        None => network
            .state
            .channels
            .values()
            .filter(|c| !c.private)
            .map(|c| c.name.clone())
            .collect(),
    };
    for name in wanted {
        let Some(channel) = network.state.channels.get_mut(&name) else {
            return Err(invalid(format!("no channel {name}")));
        };
        if channel.members.insert(address.clone()) {
            outcome
                .effects
                .push(Effect::Store(Row::Channel(channel.clone())));
        }
    }
    let config = serde_json::to_value(&hosted.config).unwrap_or(Value::Null);
    match known {
        Some(at) => network.config.hosted_agents[at] = hosted,
        None => network.config.hosted_agents.push(hosted),
    }
    outcome.ack.insert("address".into(), json!(address));
    outcome.ack.insert("agent".into(), config);
    Ok(outcome)
}

/// The member a hosted agent is: online, named, `meta.hosted`.
fn hosted_member(network: &Network, hosted: &HostedAgent, now: Timestamp) -> Member {
    let address = &hosted.config.address;
    let mut member = network
        .state
        .members
        .get(address)
        .cloned()
        .unwrap_or(Member::new(
            address.clone(),
            Verification::ANONYMOUS,
            Presence::Online,
            now,
        ));
    member.status = Presence::Online;
    member.last_seen = now;
    if !hosted.name.is_empty() {
        member.profile.name = Some(hosted.name.clone());
    }
    if !hosted.config.description.is_empty() {
        member.profile.description = Some(hosted.config.description.clone());
    }
    let meta = &mut member.profile.meta;
    meta.insert("llm".into(), json!(true));
    meta.insert("hosted".into(), json!(true));
    meta.insert("provider".into(), json!(hosted.config.provider));
    meta.insert("model".into(), json!(hosted.config.model));
    member
}

/// The `channels` a payload names, if it names them.
fn channels_of(payload: &Value) -> Result<Option<Vec<Name>>, Rejection> {
    let Some(names) = read::<HostChannels>(payload).channels.sent() else {
        return Ok(None);
    };
    let names = names.ok_or_else(|| invalid("channels is a list of channel names"))?;
    names
        .iter()
        .map(|n| {
            let text = n.as_str().unwrap_or_default();
            let text = text.strip_prefix("channel/").unwrap_or(text);
            text.parse::<Name>()
                .map_err(|_| invalid(format!("{n} is not a channel name")))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Stops hosting an agent: it leaves the network as a removed member does.
pub(super) fn unhost(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let address = payload_address(event, "address")?;
    let Some(at) = network
        .config
        .hosted_agents
        .iter()
        .position(|h| h.config.address == address)
    else {
        return Err(Rejection::new(
            ErrorCode::NotFound,
            format!("{address} is not a hosted agent"),
        ));
    };
    network.config.hosted_agents.remove(at);
    let mut outcome = logged();
    outcome.effects.extend(network.disconnect(&address, now));
    outcome.effects.extend(network.forget_member(&address));
    outcome.ack.insert("address".into(), json!(address));
    Ok(outcome)
}
