//! The hosted agents' admin routes: `POST v1/admin/agents` adds or changes
//! one (its `key` taken out before the event and kept by the host as that
//! agent's secret), `POST v1/admin/agents/remove` `{address}` removes one
//! (and its key), `GET v1/admin/agents` lists them with whose key each uses
//! (`own`, `deployment` or `none`) — never the key itself.

use crate::agent::hosted::{DEPLOYMENT_KEY_VAR, split_key};
use crate::bindings::exchange::{BindingHost, payload_of};
use crate::bindings::message::{Method, Request, Response};
use crate::error::ErrorCode;
use crate::ids::standing::Role;
use crate::network::admin_types as types;
use crate::{Address, Network};
use serde_json::{Value, json};

/// Answers `v1/admin/agents` and `v1/admin/agents/remove` for `member`.
pub fn handle<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: Address,
    req: &Request,
    action: &str,
    peer: Option<String>,
) -> Result<Response, H::Error> {
    if req.method == Method::Get && action == "agents" {
        return list(host, network, &member);
    }
    if req.method != Method::Post {
        let message = format!("{} is not allowed on v1/admin/{action}", req.method);
        return Ok(Response::error(ErrorCode::MethodNotAllowed, message));
    }
    let body = match payload_of(network, req) {
        Ok(body) => body,
        Err(response) => return Ok(response),
    };
    if action == "agents/remove" {
        let event = json!({"type": types::AGENT_UNHOST, "target": "core", "payload": body});
        let response = crate::bindings::http::send::send_value(host, network, member, event, peer)?;
        if response.status == 200
            && let Some(agent) = body
                .get("address")
                .and_then(Value::as_str)
                .and_then(|a| a.parse::<Address>().ok())
        {
            host.keep_agent_key(&agent, None)?;
        }
        return Ok(response);
    }
    let (payload, key) = match split_key(&body) {
        Ok(split) => split,
        Err(error) => {
            let message = format!("{error} ({})", error.reason());
            return Ok(Response::error(ErrorCode::InvalidRequest, message));
        }
    };
    let event = json!({"type": types::AGENT_HOST, "target": "core", "payload": payload});
    let response = crate::bindings::http::send::send_value(host, network, member, event, peer)?;
    if response.status != 200 {
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
fn list<H: BindingHost>(
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
