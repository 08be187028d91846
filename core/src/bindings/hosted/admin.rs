//! The hosted agents' admin routes, which [`crate::bindings::http::admin`]
//! hands over once it has read the body: `POST v1/admin/agents` adds or
//! changes one (its `key` taken out before the event and kept by the host as
//! that agent's secret), `POST v1/admin/agents/remove` `{address}` removes
//! one (and its key), `GET v1/admin/agents` lists them with whose key each
//! uses (`own`, `deployment` or `none`) — never the key itself.

use crate::agent::hosted::{DEPLOYMENT_KEY_VAR, split_key};
use crate::bindings::exchange::BindingHost;
use crate::bindings::http::send::send_value;
use crate::bindings::message::Response;
use crate::error::ErrorCode;
use crate::ids::standing::Role;
use crate::network::admin_types as types;
use crate::{Address, Network};
use serde_json::{Value, json};

/// `POST v1/admin/agents` or `v1/admin/agents/remove` with its `body`, as
/// `event_type` (`network.admin.agent.host` or `.unhost`): the event, sent
/// without the body's `key`; then the host keeps that key as the added
/// agent's, or drops the removed agent's.
pub fn send<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: Address,
    event_type: &'static str,
    body: Value,
    peer: Option<String>,
) -> Result<Response, H::Error> {
    let removing = event_type == types::AGENT_UNHOST;
    let (payload, key) = if removing {
        (body, None)
    } else {
        match split_key(&body) {
            Ok(split) => split,
            Err(error) => {
                let message = format!("{error} ({})", error.reason());
                return Ok(Response::error(ErrorCode::InvalidRequest, message));
            }
        }
    };
    let removed = payload
        .get("address")
        .and_then(Value::as_str)
        .and_then(|a| a.parse::<Address>().ok());
    let event = json!({"type": event_type, "target": "core", "payload": payload});
    let response = send_value(host, network, member, event, peer)?;
    if response.status != 200 {
        return Ok(response);
    }
    if removing {
        if let Some(agent) = removed {
            host.keep_agent_key(&agent, None)?;
        }
        return Ok(response);
    }
    let agent = response
        .json_body()
        .and_then(|b| b.pointer("/payload/address").or_else(|| b.get("address")))
        .and_then(Value::as_str)
        .and_then(|a| a.parse::<Address>().ok());
    let Some(agent) = agent else {
        return Ok(response);
    };
    if let Some(key) = &key
        && !host.keep_agent_key(&agent, Some(key))?
    {
        let message = "this host keeps no agent keys: set the deployment's key instead";
        return Ok(Response::error(ErrorCode::NotSupported, message));
    }
    let source = host.agent_key_source(&agent)?;
    Ok(Response::json(json!({"address": agent, "key": source})))
}

/// `GET v1/admin/agents`: the hosted agents and whose key each calls with.
pub fn list<H: BindingHost>(
    host: &mut H,
    network: &Network,
    member: &Address,
) -> Result<Response, H::Error> {
    if network.state().role_of(member) != Some(Role::Master) {
        return Ok(Response::error(
            ErrorCode::Forbidden,
            "only a master lists the hosted agents",
        ));
    }
    let mut agents = Vec::new();
    for hosted in &network.config().hosted_agents {
        let source = host.agent_key_source(&hosted.config.address)?;
        agents.push(json!({
            "address": hosted.config.address,
            "name": hosted.name,
            "config": hosted.config,
            "added_by": hosted.added_by,
            "added_at": hosted.added_at,
            "key": source,
        }));
    }
    Ok(Response::json(
        json!({"agents": agents, "deployment_key_var": DEPLOYMENT_KEY_VAR}),
    ))
}
