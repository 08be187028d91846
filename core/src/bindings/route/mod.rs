//! The route table: every request a host takes is read here, once, into a
//! [`Route`] — the deployment's own routes, the registry's, the workspace's
//! files, and for a network which binding's it is ([`NetworkRoute`]). No
//! other module reads `/networks/…` paths (`core/tests/layout.rs` checks).
//!
//! | path | route |
//! |---|---|
//! | `/registry/v1/…`, `/agents/{name}/did.json`, `/.well-known/jwks.json`, `…/.well-known/agent-descriptions` | [`Route::Registry`] |
//! | `POST` / `GET /v1/networks` | [`Route::CreateNetwork`], [`Route::ListNetworks`] |
//! | `/networks/{id}/…` | [`Route::Network`] with its [`NetworkRoute`] |
//! | `/.well-known/oauth-protected-resource/networks/{id}/mcp` | the MCP endpoint's metadata |
//! | `/.well-known/oauth-authorization-server/networks/{id}` | the authorization server's metadata |
//! | `POST /__create` | [`Route::Create`]: the Worker asks a network's object to create it |
//! | any other first segment than [`WORKER_PREFIXES`] | [`Route::Asset`] |
//!
//! * [`api`] — the network's HTTP API (`v1/…`)
//! * [`network`] — which binding of a network a path is for
//! * [`paths`] — path shapes read without a request (discovery, CORS)

pub mod api;
pub mod network;
pub mod paths;
#[cfg(test)]
mod tests;

pub use api::{ApiRoute, GATEWAY_ANSWERS_LOST_MS, GATEWAY_REFUSAL_MS, TestHook};
pub use network::NetworkRoute;

use crate::bindings::mcp::access::METADATA_PREFIX as RESOURCE_METADATA;
use crate::bindings::message::{Method, Request, Response};
use crate::bindings::oauth::metadata::METADATA_PREFIX as SERVER_METADATA;
use crate::bindings::oauth::routes::Target as OAuthTarget;
use crate::bindings::registry::is_registry_path;
use crate::{ErrorCode, NetworkId};

/// The path the Worker creates a network at, inside the network's own object.
pub const CREATE_PATH: &str = "/__create";

/// The first path segments the Worker answers itself; every other path is a
/// static file.
pub const WORKER_PREFIXES: [&str; 5] = ["networks", "v1", "registry", "agents", ".well-known"];

/// Where a request goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The identity registry and the discovery feed (the registry's object).
    Registry,
    /// `POST /v1/networks`.
    CreateNetwork,
    /// `GET /v1/networks`.
    ListNetworks,
    /// One network's, for its object.
    Network(NetworkId, NetworkRoute),
    /// `POST /__create`, inside a network's object (to the Worker, a static file).
    Create,
    /// A static file of the workspace (`www/`), or its page for an app route.
    Asset,
}

impl Route {
    /// True when the body is a file's part: binary, up to
    /// [`crate::files::PART_BYTES`]; every other body is UTF-8 text of at
    /// most [`crate::bindings::message::MAX_BODY_BYTES`].
    pub fn takes_file_part(&self) -> bool {
        matches!(
            self,
            Route::Network(
                _,
                NetworkRoute::Files(crate::bindings::http::files::FileRoute::Part(..))
            )
        )
    }

    /// The network the request is for, if it is one's.
    pub fn network(&self) -> Option<&NetworkId> {
        match self {
            Self::Network(id, _) => Some(id),
            _ => None,
        }
    }
}

/// Reads where `req` goes; `Err` is the answer for a path that goes nowhere
/// (`not_found`, `method_not_allowed`, `invalid_network_id`).
pub fn parse(req: &Request) -> Result<Route, Response> {
    let path = req.path();
    if is_registry_path(path) {
        return Ok(Route::Registry);
    }
    if path == "/v1/networks" {
        return match req.method {
            Method::Post => Ok(Route::CreateNetwork),
            Method::Get => Ok(Route::ListNetworks),
            Method::Other(_) => Err(Response::error(
                ErrorCode::MethodNotAllowed,
                "use GET or POST",
            )),
        };
    }
    if path == CREATE_PATH && req.method == Method::Post {
        return Ok(Route::Create);
    }
    // The metadata of a network's MCP endpoint and authorization server belong to it.
    for prefix in [RESOURCE_METADATA, SERVER_METADATA] {
        if let Some(rest) = path.strip_prefix(prefix)
            && let Some((id, tail)) = paths::split(rest)
        {
            let id = network_id(id)?;
            let trimmed = tail.trim_end_matches('/');
            let route = match (prefix == RESOURCE_METADATA, trimmed) {
                (true, "/mcp" | "/ioa/mcp") => NetworkRoute::McpMetadata,
                (false, "") => NetworkRoute::OAuth(OAuthTarget::Metadata(id.clone())),
                _ => NetworkRoute::Unknown,
            };
            return Ok(Route::Network(id, route));
        }
    }
    if let Some((id, tail)) = paths::split(path) {
        let id = network_id(id)?;
        let route = network::parse(req, &id, tail);
        return Ok(Route::Network(id, route));
    }
    match path.trim_start_matches('/').split('/').next() {
        Some(first) if !WORKER_PREFIXES.contains(&first) => Ok(Route::Asset),
        _ => Err(Response::error(
            ErrorCode::NotFound,
            format!("no route for {path}"),
        )),
    }
}

fn network_id(id: &str) -> Result<NetworkId, Response> {
    id.parse()
        .map_err(|err: crate::ids::network_id::NetworkIdError| {
            Response::error(ErrorCode::InvalidNetworkId, err.to_string())
        })
}

/// What [`parse`] reads of a request to a network (tests of the bindings).
#[cfg(test)]
pub(crate) fn network_route(req: &Request) -> Option<NetworkRoute> {
    match parse(req) {
        Ok(Route::Network(_, route)) => Some(route),
        _ => None,
    }
}
