//! The registry's HTTP routes (docs/identity.md), over [`crate::identity::registry`]:
//!
//! * `POST /registry/v1/challenge {name}` → `{nonce, expires_at}`
//! * `POST /registry/v1/agents {name, public_key, nonce, signature, acs?}` → 201 the record
//!   (AIC, DIDs); an `acs` is checked by [`crate::discovery::acs::validate`] first
//! * `GET /registry/v1/agents/{name}` → the record
//! * `POST /registry/v1/agents/{name}/rotate {public_key, nonce, signature}` (signed by the old key)
//! * `POST /registry/v1/agents/{name}/revoke {nonce, signature}`
//! * `POST /registry/v1/token {name, audience, nonce, signature}` → `{access_token, token_type, expires_in}`
//! * `GET /registry/v1/did/{did}` → the DID document (`did:openagents:…`, or this host's did:wba)
//! * `GET /agents/{name}/did.json` → the did:wba document of a registered agent
//! * `GET /.well-known/jwks.json` → the keys its JWTs verify with
//!
//! Signatures are Ed25519, hex, over [`crate::identity::registry::proof_message`].
//! Refusals are `{code, message, reason}` with the identity error's stable reason.

use super::message::{Method, Request, Response, percent_decode};
use crate::ErrorCode;
use crate::identity::did::Did;
use crate::identity::error::IdentityError;
use crate::identity::registry::{AgentRecord, Proof, Registry};
use crate::ids::time::Timestamp;
use serde_json::{Value, json};

/// Where the registry's routes start.
pub const API_PREFIX: &str = "/registry/v1/";
/// The JWKS path.
pub const JWKS_PATH: &str = "/.well-known/jwks.json";

/// True when `path` is one of the registry's (the Worker sends it to the registry object),
/// the discovery paths included (`/.well-known/agent-descriptions`, and a network's).
pub fn is_registry_path(path: &str) -> bool {
    path.starts_with(API_PREFIX)
        || path == JWKS_PATH
        || path == crate::discovery::descriptions::WELL_KNOWN
        || super::route::paths::well_known_network(path).is_some()
        || agent_document_name(path).is_some()
}

/// `{name}` of `/agents/{name}/did.json`.
fn agent_document_name(path: &str) -> Option<&str> {
    let name = path.strip_prefix("/agents/")?.strip_suffix("/did.json")?;
    (!name.is_empty() && !name.contains('/')).then_some(name)
}

pub use super::refusals::identity_refusal;

fn body(req: &Request) -> Result<Value, Response> {
    serde_json::from_str(&req.body)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| Response::error(ErrorCode::InvalidRequest, "the body is a JSON object"))
}

fn field<'a>(body: &'a Value, name: &str) -> Result<&'a str, Response> {
    body.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| Response::error(ErrorCode::InvalidRequest, format!("{name} is required")))
}

/// The body's key proof: its `nonce` and `signature`.
pub(super) fn proof(body: &Value) -> Result<Proof<'_>, Response> {
    Ok(Proof {
        nonce: field(body, "nonce")?,
        signature: field(body, "signature")?,
    })
}

fn stored(
    result: Result<AgentRecord, IdentityError>,
    registry: &Registry,
    status: u16,
) -> Result<(Response, Option<AgentRecord>), Response> {
    let record = result.map_err(|e| identity_refusal(&e))?;
    let response = Response::json(record.to_json(registry.config())).with_status(status);
    Ok((response, Some(record)))
}

/// Answers a registry request. `nonce` makes a fresh random nonce; `now` is unix ms.
pub fn handle(
    registry: &mut Registry,
    req: &Request,
    nonce: impl FnOnce() -> String,
    now: Timestamp,
) -> (Response, Option<AgentRecord>) {
    match route(registry, req, nonce, now) {
        Ok(done) => done,
        Err(response) => (response, None),
    }
}

fn route(
    registry: &mut Registry,
    req: &Request,
    nonce: impl FnOnce() -> String,
    now: Timestamp,
) -> Result<(Response, Option<AgentRecord>), Response> {
    let path = req.path();
    let document = |did: &Did| {
        registry
            .did_document(did)
            .map(|doc| (Response::json(doc), None))
            .map_err(|e| identity_refusal(&e))
    };
    if path == JWKS_PATH {
        return Ok((Response::json(registry.jwks().to_json()), None));
    }
    if let Some(name) = agent_document_name(path) {
        return document(&Did::wba_for_agent(&registry.config().host, name));
    }
    let rest = path.strip_prefix(API_PREFIX).unwrap_or("");
    let segments: Vec<&str> = rest.split('/').collect();
    match (&req.method, segments.as_slice()) {
        (Method::Get, ["did", did]) => {
            let did: Did = percent_decode(did)
                .parse()
                .map_err(|e| identity_refusal(&e))?;
            document(&did)
        }
        (Method::Get, ["agents", name]) => registry
            .registered(name)
            .map(|r| (Response::json(r.to_json(registry.config())), None))
            .map_err(|e| identity_refusal(&e)),
        (Method::Post, ["challenge"]) => {
            let body = body(req)?;
            let nonce = nonce();
            let expires_at = registry
                .challenge(field(&body, "name")?, nonce.clone(), now)
                .map_err(|e| identity_refusal(&e))?;
            Ok((
                Response::json(json!({"nonce": nonce, "expires_at": expires_at})),
                None,
            ))
        }
        (Method::Post, ["agents"]) => {
            let body = body(req)?;
            // The ACS is checked before the agent exists; its `aic` is the registry's to fill.
            let checked = match body.get("acs").filter(|a| !a.is_null()) {
                Some(acs) => {
                    let mut acs = acs.clone();
                    if acs.get("aic").and_then(Value::as_str) == Some("") {
                        acs.as_object_mut().map(|o| o.remove("aic"));
                    }
                    let checked = crate::discovery::acs::validate(&acs, "")
                        .map_err(|e| super::refusals::discovery_refusal(&e))?;
                    Some(checked)
                }
                None => None,
            };
            let name = field(&body, "name")?;
            let result = registry
                .register(name, field(&body, "public_key")?, proof(&body)?, None, now)
                .and_then(|record| match checked {
                    Some(mut acs) => {
                        acs["aic"] = Value::String(record.aic);
                        registry.set_acs(name, acs)
                    }
                    None => Ok(record),
                });
            stored(result, registry, 201)
        }
        (Method::Post, ["agents", name, "rotate"]) => {
            let body = body(req)?;
            let result = registry.rotate(name, field(&body, "public_key")?, proof(&body)?, now);
            stored(result, registry, 200)
        }
        (Method::Post, ["agents", name, "revoke"]) => {
            let body = body(req)?;
            let result = registry.revoke(name, proof(&body)?, now);
            stored(result, registry, 200)
        }
        (Method::Post, ["token"]) => {
            let body = body(req)?;
            let token = registry
                .token(
                    field(&body, "name")?,
                    field(&body, "audience")?,
                    proof(&body)?,
                    now,
                )
                .map_err(|e| identity_refusal(&e))?;
            let ttl = registry.config().token_ttl_secs;
            Ok((
                Response::json(
                    json!({"access_token": token, "token_type": "Bearer", "expires_in": ttl}),
                ),
                None,
            ))
        }
        (Method::Other(_), _) => Err(Response::error(
            ErrorCode::MethodNotAllowed,
            "use GET or POST",
        )),
        _ => Err(Response::error(
            ErrorCode::NotFound,
            format!("no registry route {} {path}", req.method),
        )),
    }
}

#[cfg(test)]
mod tests;
