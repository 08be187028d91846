//! OAuth 2.1 for the MCP endpoint: every network is its own authorization
//! server, so a standard MCP client connects with no hand-copied token. The
//! consent step is joining the network.
//!
//! The flow an MCP client drives (MCP authorization, revisions 2025-06-18
//! and 2025-11-25): a `401` from `/networks/{id}/mcp` points to its
//! protected-resource metadata, which names the issuer
//! `{origin}/networks/{id}`; the issuer's metadata
//! (`/.well-known/oauth-authorization-server/networks/{id}`) names the
//! endpoints; the client registers (RFC 7591), sends the person to the
//! consent page with a PKCE challenge and the `resource`, gets a code back
//! at its redirect URI, and trades it at the token endpoint for an access
//! token that makes MCP requests that member's, as a session token does.
//!
//! | module | what |
//! |---|---|
//! | [`metadata`] | the issuer, its endpoints and metadata (RFC 8414) |
//! | [`register`] | dynamic client registration (RFC 7591) |
//! | [`authorize`], [`consent`] | the authorization request; the consent page and its join |
//! | [`token`] | codes and refresh tokens for tokens; access tokens at the MCP endpoint |
//! | [`grants`] | clients, codes and tokens (hashed) and the host's store ([`grants::OAuthHost`]) |
//! | [`pkce`], [`uris`], [`form`], [`errors`] | S256; redirect URIs and resources; form encoding; error shapes |

pub mod authorize;
pub mod consent;
pub mod errors;
pub mod form;
pub mod grants;
pub mod metadata;
pub mod pkce;
pub mod register;
pub mod token;
pub mod uris;

#[cfg(test)]
mod tests;

use crate::bindings::message::{Method, Request, Response};
use crate::{Network, NetworkId};
use grants::OAuthHost;
use metadata::Endpoint;

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

/// Reads the authorization server path a request is for, if it is one.
pub fn target(req: &Request) -> Option<Target> {
    let path = req.path().trim_end_matches('/');
    if let Some(rest) = path.strip_prefix(metadata::METADATA_PREFIX) {
        return rest
            .strip_prefix("/networks/")?
            .parse()
            .ok()
            .map(Target::Metadata);
    }
    let (id, rest) = path.strip_prefix("/networks/")?.split_once('/')?;
    let endpoint = Endpoint::parse(rest.strip_prefix("oauth/")?)?;
    Some(Target::Endpoint(id.parse().ok()?, endpoint))
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

/// Answers a request for the loaded `network` (after [`target`]).
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
