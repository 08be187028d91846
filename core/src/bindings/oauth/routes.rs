//! The authorization server's paths, and the answer to a request for one:
//! its metadata, the authorization endpoint's page and form, the token
//! endpoint, registration, and CORS preflights for the JSON endpoints
//! (browser-based clients call them from other origins; no cookie is ever
//! involved).

use super::errors;
use super::grants::OAuthHost;
use super::metadata::{self, Endpoint};
use super::{authorize, register, token};
use crate::bindings::message::{Method, Request, Response};
use crate::{Network, NetworkId};

/// Which authorization server path a request is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `/.well-known/oauth-authorization-server/networks/{id}`.
    Metadata(NetworkId),
    /// `/networks/{id}/oauth/{endpoint}`.
    Endpoint(NetworkId, Endpoint),
}

impl Target {
    /// The network it belongs to.
    pub fn network(&self) -> &NetworkId {
        match self {
            Self::Metadata(id) | Self::Endpoint(id, _) => id,
        }
    }
}

fn not_allowed(allow: &str) -> Response {
    errors::OAuthError::new(errors::Code::InvalidRequest, format!("use {allow}"))
        .response()
        .with_status(405)
        .with_header("Allow", allow)
}

/// A CORS preflight's answer: browser-based clients may call the JSON endpoints.
fn preflight() -> Response {
    Response::text("")
        .with_status(204)
        .with_header("Access-Control-Allow-Origin", "*")
        .with_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        .with_header(
            "Access-Control-Allow-Headers",
            "Content-Type, Authorization, MCP-Protocol-Version",
        )
        .with_header("Access-Control-Max-Age", "86400")
}

/// Answers a request for the loaded `network` (once the route table, `crate::bindings::route`, named `target`).
pub fn handle<H: OAuthHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    target: &Target,
) -> Result<Response, H::Error> {
    let options = matches!(&req.method, Method::Other(m) if m == "OPTIONS");
    Ok(match (target, &req.method) {
        (Target::Endpoint(_, Endpoint::Authorize), Method::Get) => {
            authorize::get(host, network, req)?
        }
        (Target::Endpoint(_, Endpoint::Authorize), Method::Post) => {
            authorize::post(host, network, req)?
        }
        (Target::Endpoint(_, Endpoint::Authorize), _) => not_allowed("GET, POST"),
        _ if options => preflight(),
        (Target::Metadata(id), Method::Get) => metadata::metadata(req.origin(), id),
        (Target::Metadata(_), _) => not_allowed("GET"),
        (Target::Endpoint(_, Endpoint::Token), Method::Post) => token::token(host, network, req)?,
        (Target::Endpoint(_, Endpoint::Register), Method::Post) => {
            register::register(host, &req.body)?
        }
        (Target::Endpoint(..), _) => not_allowed("POST"),
    })
}
