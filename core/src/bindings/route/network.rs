//! Which binding of one network a path is for: the tail of
//! `/networks/{id}…` read once, in the order the bindings claim it.

use super::api::{self, ApiRoute};
use crate::NetworkId;
use crate::bindings::a2a;
use crate::bindings::http::files::{self, FileRoute};
use crate::bindings::http::webpush::PushRoute;
use crate::bindings::ioa;
use crate::bindings::message::{Method, Request, percent_decode};
use crate::bindings::oauth::metadata::Endpoint;
use crate::bindings::oauth::routes::Target as OAuthTarget;

/// What a request to one network asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkRoute {
    /// The network's HTTP API, WebSocket and SSE (`v1/…`, [`crate::bindings::http`]).
    Api(ApiRoute),
    /// MCP Streamable HTTP: `mcp`, or `ioa/mcp` under IOA's base URL ([`crate::bindings::mcp`]).
    Mcp,
    /// `/.well-known/oauth-protected-resource/networks/{id}/mcp`: the MCP endpoint's metadata.
    McpMetadata,
    /// `oauth/{endpoint}` or `/.well-known/oauth-authorization-server/networks/{id}`
    /// ([`crate::bindings::oauth`]).
    OAuth(OAuthTarget),
    /// `a2a…`: an A2A endpoint or card ([`crate::bindings::a2a`]).
    A2a(a2a::Target),
    /// `a2a/remotes`: a master adds an external A2A agent ([`crate::bindings::a2a::remote`]).
    A2aRemotes,
    /// `ioa…`: IOA's endpoints ([`crate::bindings::ioa`]).
    Ioa(ioa::Target),
    /// `anp/rpc`: ANP's JSON-RPC endpoint ([`crate::bindings::anp`]).
    Anp,
    /// `v1/push/key` and `v1/push/subscriptions`: Web Push ([`crate::bindings::http::webpush`]).
    Push(PushRoute),
    /// `v1/files…`: files of real size ([`crate::bindings::http::files`]).
    Files(FileRoute),
    /// A path under a metadata prefix that names no document: `not_found`.
    Unknown,
}

/// Reads `tail` (after `/networks/{id}`: empty or starting with `/`) of a request to `id`.
pub(super) fn parse(req: &Request, id: &NetworkId, tail: &str) -> NetworkRoute {
    let trimmed = tail.trim_end_matches('/');
    if trimmed == "/a2a/remotes" {
        return NetworkRoute::A2aRemotes;
    }
    if let Some(target) = trimmed
        .strip_prefix("/a2a")
        .and_then(|rest| a2a_target(id, rest))
    {
        return NetworkRoute::A2a(target);
    }
    if let Some(segments) = ioa_segments(tail) {
        return NetworkRoute::Ioa(ioa::Target {
            network: id.clone(),
            segments,
        });
    }
    match trimmed {
        "/anp/rpc" => return NetworkRoute::Anp,
        "/mcp" | "/ioa/mcp" => return NetworkRoute::Mcp,
        _ => {}
    }
    if let Some(route) = trimmed
        .strip_prefix("/v1/push/")
        .and_then(|rest| push_route(&req.method, rest))
    {
        return NetworkRoute::Push(route);
    }
    if let Some(rest) = trimmed
        .strip_prefix("/v1/files")
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    {
        return NetworkRoute::Files(files::route(&req.method, rest));
    }
    if let Some(endpoint) = trimmed.strip_prefix("/oauth/").and_then(Endpoint::parse) {
        return NetworkRoute::OAuth(OAuthTarget::Endpoint(id.clone(), endpoint));
    }
    let rest = tail.strip_prefix('/').unwrap_or("").trim_end_matches('/');
    NetworkRoute::Api(api::parse(&req.method, rest))
}

/// The Web Push route of `rest`, the path after `v1/push/`.
fn push_route(method: &Method, rest: &str) -> Option<PushRoute> {
    Some(match (method, rest) {
        (Method::Get, "key") => PushRoute::Key,
        (Method::Post, "subscriptions") => PushRoute::Subscribe,
        (Method::Other(m), "subscriptions") if m == "DELETE" => PushRoute::Unsubscribe,
        (_, "key" | "subscriptions") => PushRoute::WrongMethod,
        _ => return None,
    })
}

/// The A2A target of `rest`, the path after `/a2a` (trailing slashes trimmed).
fn a2a_target(id: &NetworkId, rest: &str) -> Option<a2a::Target> {
    let (rest, card) = match rest
        .strip_suffix("/.well-known/agent-card.json")
        .or_else(|| rest.strip_suffix("/.well-known/agent.json"))
    {
        Some(rest) => (rest, true),
        None => (rest, false),
    };
    let agent = match rest {
        "" => None,
        "/remotes" => return None,
        other => Some(other.strip_prefix('/')?.parse().ok()?),
    };
    Some(a2a::Target {
        network: id.clone(),
        agent,
        card,
    })
}

/// The percent-decoded segments after `ioa`, if `tail` is under it
/// (`ioa/mcp` is the MCP endpoint, not IOA's).
fn ioa_segments(tail: &str) -> Option<Vec<String>> {
    let rest = tail.strip_prefix("/ioa")?;
    if !(rest.is_empty() || rest.starts_with('/')) {
        return None;
    }
    let segments: Vec<String> = rest
        .split('/')
        .filter(|s| !s.is_empty())
        .map(percent_decode)
        .collect();
    (segments != ["mcp"]).then_some(segments)
}
