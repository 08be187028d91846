//! The admin routes of the HTTP binding: a master's session manages the
//! network under `/networks/{id}/v1/admin/…`, and scripts read
//! `mod/analytics` at `GET /networks/{id}/v1/analytics` (docs/admin.md).
//!
//! Every admin route sends the master's event to `core` (its JSON body is
//! the payload) through the same pipeline as any other binding, so the
//! change is logged with who made it; the answer is the event's ack payload
//! or its error.
//!
//! | route | event |
//! |---|---|
//! | `POST v1/admin/pause` / `resume` / `archive` | `network.admin.pause` / `.resume` / `.archive` |
//! | `POST v1/admin/mods/load` / `unload` / `configure` | `network.admin.mod.load` / `.unload` / `.configure` |
//! | `POST v1/admin/tokens/rotate` `{token: "access" \| "admin"}` | `network.admin.token.rotate` |
//! | `POST v1/admin/invitations` `{invitee?, ttl_ms?}` | `network.agent.invite` |
//! | `POST v1/admin/invitations/revoke` `{code}` | `network.admin.invitation.revoke` |
//! | `POST v1/admin/members/remove` / `ban` / `unban` `{address}` | `network.admin.member.remove` / `.ban` / `.unban` |
//! | `POST v1/admin/settings` | `network.admin.settings.update` |
//! | `GET v1/admin/config` | `network.admin.config` |
//! | `POST v1/admin/agents` `{name, persona, provider, base_url, model, tools?, answers?, channels?, key?}` | `network.admin.agent.host` (without the key, which the host keeps: [`crate::bindings::hosted::admin`]) |
//! | `POST v1/admin/agents/remove` `{address}` | `network.admin.agent.unhost` |
//! | `GET v1/admin/agents` | read: the hosted agents, each with whose key it uses |
//!
//! `POST v1/invitations/reject` `{code}` needs no session: the code's holder
//! declines the invitation without joining ([`reject`]); `POST
//! v1/invitations/show` `{code}` tells the holder what it is invited to
//! ([`show`]), so an invitation page can offer to accept or decline.

use crate::bindings::exchange::{BindingHost, json_body, payload_of};
use crate::bindings::hosted::admin as hosted;
use crate::bindings::message::{Method, Request, Response};
use crate::ids::event_type::core_types;
use crate::ids::standing::Role;
use crate::ids::time::Timestamp;
use crate::network::admin_types as types;
use crate::{Address, ErrorCode, Network};
use serde_json::{Value, json};

/// The event type an admin route sends, `None` for no such route.
pub fn event_type(method: &Method, action: &str) -> Option<&'static str> {
    Some(match (method, action) {
        (Method::Post, "pause") => types::PAUSE,
        (Method::Post, "resume") => types::RESUME,
        (Method::Post, "archive") => types::ARCHIVE,
        (Method::Post, "mods/load") => types::MOD_LOAD,
        (Method::Post, "mods/unload") => types::MOD_UNLOAD,
        (Method::Post, "mods/configure") => types::MOD_CONFIGURE,
        (Method::Post, "tokens/rotate") => types::TOKEN_ROTATE,
        (Method::Post, "invitations") => core_types::AGENT_INVITE,
        (Method::Post, "invitations/revoke") => types::INVITATION_REVOKE,
        (Method::Post, "members/remove") => types::MEMBER_REMOVE,
        (Method::Post, "members/ban") => types::MEMBER_BAN,
        (Method::Post, "members/unban") => types::MEMBER_UNBAN,
        (Method::Post, "settings") => types::SETTINGS,
        (Method::Get, "config") => types::CONFIG,
        (Method::Post, "agents") => types::AGENT_HOST,
        (Method::Post, "agents/remove") => types::AGENT_UNHOST,
        _ => return None,
    })
}

/// Answers `v1/admin/{action}` for `member` (`action` as [`crate::bindings::route`] read it).
pub fn handle<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: Address,
    req: &Request,
    action: &str,
    peer: Option<String>,
) -> Result<Response, H::Error> {
    let hosted_agents = action == "agents" || action == "agents/remove";
    if hosted_agents && req.method == Method::Get && action == "agents" {
        return hosted::list(host, network, &member);
    }
    let Some(event_type) = event_type(&req.method, action) else {
        return Ok(if hosted_agents {
            let message = format!("{} is not allowed on v1/admin/{action}", req.method);
            Response::error(ErrorCode::MethodNotAllowed, message)
        } else {
            let message = format!("no admin route {} v1/admin/{action}", req.method);
            Response::error(ErrorCode::NotFound, message)
        });
    };
    let payload = match payload_of(network, req) {
        Ok(payload) => payload,
        Err(response) => return Ok(response),
    };
    match event_type {
        types::AGENT_HOST | types::AGENT_UNHOST => {
            hosted::send(host, network, member, event_type, payload, peer)
        }
        _ => {
            let body = json!({"type": event_type, "target": "core", "payload": payload});
            super::send::send_value(host, network, member, body, peer)
        }
    }
}

/// The invitation code a request's JSON body names, or the response refusing it.
fn code_of(network: &Network, req: &Request) -> Result<String, Response> {
    let body = json_body(&req.body, &network.config().limits)?;
    body.get("code")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| Response::error(ErrorCode::InvalidRequest, "code names the invitation"))
}

/// `POST v1/invitations/show` `{code}`: what the code's holder is invited to
/// (`{network: {id, name, description, policy}, inviter, invitee, expires_at}`);
/// `not_found` for a code that is used, revoked or expired.
pub fn show(network: &Network, req: &Request, now: Timestamp) -> Response {
    let code = match code_of(network, req) {
        Ok(code) => code,
        Err(response) => return response,
    };
    match network.invitation_for(&code, now) {
        Ok(invitation) => Response::json(invitation),
        Err(rejection) => crate::bindings::exchange::rejected(&rejection),
    }
}

/// `POST v1/invitations/reject` `{code}`: whoever holds the code declines it
/// without joining; the inviter gets `workspace.invitation.rejected`.
pub fn reject<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
) -> Result<Response, H::Error> {
    let code = match code_of(network, req) {
        Ok(code) => code,
        Err(response) => return Ok(response),
    };
    let now = host.now();
    Ok(match network.reject_invitation(&code, now) {
        Ok(effects) => {
            host.apply(network, effects)?;
            Response::json(json!({"ok": true}))
        }
        Err(rejection) => crate::bindings::exchange::rejected(&rejection),
    })
}

/// `GET v1/analytics`: `mod/analytics`' counts, for masters.
pub fn analytics(network: &Network, member: &Address) -> Response {
    if network.state().role_of(member) != Some(Role::Master) {
        return Response::error(ErrorCode::Forbidden, "only masters may read analytics");
    }
    match network.analytics() {
        Some(counts) => Response::json(counts),
        None => Response::error(
            ErrorCode::NotSupported,
            "mod/analytics is not loaded in this network",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_admin_route_names_an_admin_event_and_others_none() {
        assert_eq!(
            event_type(&Method::Post, "pause"),
            Some("network.admin.pause")
        );
        assert_eq!(
            event_type(&Method::Post, "members/ban"),
            Some("network.admin.member.ban")
        );
        assert_eq!(
            event_type(&Method::Get, "config"),
            Some("network.admin.config")
        );
        assert_eq!(event_type(&Method::Get, "pause"), None);
        assert_eq!(event_type(&Method::Post, "self-destruct"), None);
    }
}
