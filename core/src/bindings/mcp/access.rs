//! Who may reach the MCP endpoint: `Origin` validation, the bearer session
//! that makes a request a member's, and the OAuth protected-resource
//! metadata that a `401` points to.
//!
//! * A request with an `Origin` header is refused (403) unless it is the
//!   endpoint's own origin, or a loopback origin while the endpoint itself
//!   is reached on loopback (local tools such as an inspector on another
//!   port). Requests without one (every non-browser client) pass.
//! * `Authorization: Bearer {token}` is the member: an access token of the
//!   network's authorization server (`crate::bindings::oauth`) issued for
//!   this endpoint, or a session token from `POST /networks/{id}/v1/join`.
//!   Without one, or with a token this network never issued (one of another
//!   network, an ended or expired one), the answer is `401` with
//!   `WWW-Authenticate: Bearer resource_metadata="…"`, the URL of
//!   [`metadata`] (RFC 9728), which names the network's authorization server.

use crate::bindings::access::session::{QueryTokens, authenticate};
use crate::bindings::jsonrpc::{Code, RpcCode, RpcError, error};
use crate::bindings::message::{Request, Response};
use crate::bindings::oauth::grants::OAuthHost;
use crate::bindings::oauth::metadata::{issuer, resource};
use crate::bindings::oauth::token::{Bearer, bearer};
use crate::bindings::step::{Step, go_on};
use crate::model::membership::Member;
use crate::model::origins::{AllowedOrigins, WebOrigin};
use crate::{Address, Network, NetworkId};
use serde_json::{Value, json};

/// Where a network's protected-resource metadata lives, before `networks/{id}/mcp`.
pub const METADATA_PREFIX: &str = "/.well-known/oauth-protected-resource";

/// The endpoint's URL (the resource of the network's authorization server).
pub fn endpoint(origin: &str, id: &NetworkId) -> String {
    resource(origin, id)
}

/// The URL of the endpoint's protected-resource metadata.
pub fn metadata_url(origin: &str, id: &NetworkId) -> String {
    format!("{origin}{METADATA_PREFIX}/networks/{id}/mcp")
}

/// The protected-resource metadata document (RFC 9728) of a network's endpoint.
pub fn metadata(origin: &str, id: &NetworkId, name: &str) -> Response {
    Response::json(json!({
        "resource": endpoint(origin, id),
        "authorization_servers": [issuer(origin, id)],
        "resource_name": format!("{name} (agentnet network {id})"),
        "bearer_methods_supported": ["header"],
        "resource_documentation": format!("{origin}/networks/{id}/v1/profile"),
    }))
}

/// True for an origin whose host is this machine (any scheme and port), as
/// the WHATWG URL parser reads it: `localhost`, `*.localhost`, `127/8`,
/// `[::1]` — and not `http://127.0.0.1.evil.example`, whose host is a name.
pub(crate) fn is_loopback(origin: &str) -> bool {
    crate::outbound::is_loopback_url(origin)
}

/// Whether the request's `Origin` may reach the endpoint: none, the
/// endpoint's own, a loopback page of a loopback endpoint, or one of the
/// network's `allowed_origins` (DNS rebinding protection, as MCP asks).
pub fn origin_allowed(req: &Request, allowed: &AllowedOrigins) -> bool {
    match req.header("Origin").map(str::trim) {
        None => true,
        Some(origin) => {
            origin.eq_ignore_ascii_case(req.origin())
                || (is_loopback(origin) && is_loopback(req.origin()))
                || WebOrigin::parse(origin).is_ok_and(|o| allowed.allows(&o))
        }
    }
}

/// A JSON-RPC error response without id, with `status`.
pub fn refusal(status: u16, code: impl RpcCode, message: &str, data: Value) -> Response {
    Response::json(error(None, &RpcError::new(code, message).with_data(data))).with_status(status)
}

/// The answer to a request from a refused origin.
pub fn forbidden_origin() -> Response {
    refusal(
        403,
        Code::NetworkRefused,
        "Forbidden: the Origin may not reach this endpoint",
        json!({"code": "forbidden"}),
    )
}

/// The member `req` authenticates ([`member`]), present in `network` before it
/// acts: a member whose presence lapsed is brought back by a heartbeat.
pub fn present_member<H: OAuthHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
) -> Result<Step<Address>, H::Error> {
    let member = go_on!(member(host, req, network.id()), Step::Answer);
    if !network.member(&member).is_some_and(Member::is_online) {
        let effects = network.heartbeat(&member, host.now());
        host.apply(network, effects)?;
    }
    Ok(Step::Go(member))
}

/// The member the request's bearer token names, or the `401` to answer.
pub fn member<H: OAuthHost>(
    host: &mut H,
    req: &Request,
    id: &NetworkId,
) -> Result<Step<Address>, H::Error> {
    let presented = req
        .header("Authorization")
        .and_then(|h| h.strip_prefix("Bearer "));
    let outcome = match presented {
        // `?session=` is for EventSource; MCP clients send the header.
        None => Err(
            "send Authorization: Bearer <an OAuth access token, or a session token from POST /v1/join>",
        ),
        Some(token) => match bearer(host, token.trim(), &endpoint(req.origin(), id))? {
            Bearer::Member(member) => Ok(member),
            Bearer::Refused(why) => Err(why),
            Bearer::Unknown => match authenticate(host, req, QueryTokens::Refused)? {
                Step::Go(member) => Ok(member),
                Step::Answer(_) => {
                    Err("unknown or ended token for this network; authorize or join again")
                }
            },
        },
    };
    Ok(Step::from(outcome.map_err(|message| {
        let mut challenge = format!(
            "Bearer resource_metadata=\"{}\"",
            metadata_url(req.origin(), id)
        );
        if presented.is_some() {
            challenge.push_str(", error=\"invalid_token\"");
        }
        let mut response = refusal(
            401,
            Code::NetworkRefused,
            message,
            json!({"code": "not_joined"}),
        );
        response
            .headers
            .push(("WWW-Authenticate".into(), challenge));
        response
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::message::Method;

    fn from(url: &str, origin: Option<&str>) -> bool {
        let req = Request::new(Method::Post, url);
        origin_allowed(
            &match origin {
                Some(o) => req.with_header("Origin", o),
                None => req,
            },
            &AllowedOrigins::default(),
        )
    }

    #[test]
    fn a_networks_allowed_origins_may_reach_its_endpoint() {
        let req = Request::new(Method::Post, "https://edge.example/networks/n/mcp")
            .with_header("Origin", "https://app.example");
        let allowed = AllowedOrigins::parse(&["https://app.example"]).unwrap();
        assert!(origin_allowed(&req, &allowed));
        assert!(!origin_allowed(&req, &AllowedOrigins::default()));
        assert!(origin_allowed(&req, &AllowedOrigins::any()));
    }

    #[test]
    fn origins_are_checked() {
        assert!(from("https://edge.example/networks/n/mcp", None));
        assert!(from(
            "https://edge.example/networks/n/mcp",
            Some("https://edge.example")
        ));
        assert!(!from(
            "https://edge.example/networks/n/mcp",
            Some("https://evil.example")
        ));
        assert!(!from(
            "https://edge.example/networks/n/mcp",
            Some("http://localhost:6274")
        ));
        assert!(!from("https://edge.example/networks/n/mcp", Some("null")));
        assert!(from(
            "http://127.0.0.1:8787/networks/n/mcp",
            Some("http://localhost:6274")
        ));
        assert!(from(
            "http://[::1]:8787/networks/n/mcp",
            Some("http://127.0.0.1:3000")
        ));
        assert!(!from(
            "http://127.0.0.1:8787/networks/n/mcp",
            Some("http://localhost.evil.example")
        ));
        // Hosts as parsed, not prefixes: these are names under evil.example.
        for spoof in [
            "http://127.0.0.1.evil.example",
            "http://127.0.0.1.evil.example:8787",
            "http://127.1.evil.example",
        ] {
            assert!(
                !from("http://127.0.0.1:8787/networks/n/mcp", Some(spoof)),
                "{spoof}"
            );
        }
    }

    #[test]
    fn the_metadata_names_the_endpoint() {
        let id: NetworkId = "demo".parse().unwrap();
        let doc = metadata("http://h:1", &id, "Demo");
        assert_eq!(
            doc.json_body().unwrap()["resource"],
            "http://h:1/networks/demo/mcp"
        );
        assert_eq!(
            doc.json_body().unwrap()["authorization_servers"],
            json!(["http://h:1/networks/demo"])
        );
        assert_eq!(
            metadata_url("http://h:1", &id),
            "http://h:1/.well-known/oauth-protected-resource/networks/demo/mcp"
        );
    }
}
