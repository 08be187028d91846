//! CORS: which web pages may use the HTTP endpoints from a browser, decided
//! once for every route (the HTTP API, SSE, the profile, MCP, A2A, OAuth,
//! the registry); hosts only write the answer or the headers.
//!
//! * No `Origin`, the request's own origin, a WebSocket upgrade or a
//!   navigation (`Sec-Fetch-Mode: navigate`: a form posted by a page, such
//!   as the OAuth consent page, whose `no-referrer` policy sends
//!   `Origin: null`), none of which browsers subject to CORS: nothing to decide.
//! * Public documents — `GET` of a network's profile, of any `/.well-known/`
//!   file (agent cards, OAuth and protected-resource metadata, the JWKS),
//!   of DID documents and of the directory — are open to every origin (`*`).
//! * Everything else follows the network's `allowed_origins`
//!   ([`AllowedOrigins`]); a host passes [`AllowedOrigins::any`] for the
//!   deployment's own routes (creating networks, the registry). A loopback
//!   page (`localhost`, `127.x`, read as parsed hosts) may always use a loopback edge, as the MCP
//!   endpoint has always allowed: local development needs no configuration.
//! * A preflight (`OPTIONS`) from an allowed origin is answered `204` with
//!   what may be sent; a request or preflight from any other origin is
//!   refused, `403 forbidden`, before a route sees it.

use crate::ErrorCode;
use crate::bindings::mcp::access::is_loopback;
use crate::bindings::message::{Method, Request, Response};
use crate::model::origins::{AllowedOrigins, WebOrigin};

/// The methods the endpoints take.
const ALLOW_METHODS: &str = "GET, POST, DELETE, OPTIONS";
/// Request headers a preflight allows when it names none we can repeat.
const DEFAULT_ALLOW_HEADERS: &str =
    "authorization, content-type, last-event-id, mcp-session-id, mcp-protocol-version, a2a-version";
/// Response headers a page may read besides the safelisted ones.
const EXPOSE_HEADERS: &str = "mcp-session-id, mcp-protocol-version, www-authenticate, authentication-info, retry-after, location";
/// How long a browser may keep a preflight's answer, in seconds.
const MAX_AGE: &str = "600";
/// Most request headers a preflight's answer repeats.
const MAX_REQUEST_HEADERS: usize = 24;

/// What a host does with a request.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Answer with this (a preflight, or a refused origin); no route runs.
    Answer(Response),
    /// Route the request and add these headers to its answer.
    Proceed(Vec<(String, String)>),
}

/// Decides `req` for a network (or deployment route) whose pages may come from `allowed`.
pub fn decide(req: &Request, allowed: &AllowedOrigins) -> Decision {
    let preflight = matches!(&req.method, Method::Other(m) if m == "OPTIONS");
    let Some(sent) = req.header("Origin").map(str::trim) else {
        return if preflight {
            Decision::Answer(
                Response::text("")
                    .with_status(204)
                    .with_header("allow", ALLOW_METHODS),
            )
        } else {
            Decision::Proceed(Vec::new())
        };
    };
    let not_cors = req
        .header("Upgrade")
        .is_some_and(|u| u.eq_ignore_ascii_case("websocket"))
        || req
            .header("Sec-Fetch-Mode")
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("navigate"));
    let origin = WebOrigin::parse(sent).ok();
    let own = origin
        .as_ref()
        .is_some_and(|o| WebOrigin::parse(req.origin()).is_ok_and(|own| &own == o));
    if not_cors || (own && !preflight) {
        return Decision::Proceed(Vec::new());
    }
    let allow_origin = match &origin {
        _ if is_public(req) || allowed.allows_any() => Some("*".to_owned()),
        Some(origin) if own || allowed.allows(origin) || local(origin, req) => {
            Some(origin.as_str().to_owned())
        }
        _ => None,
    };
    let Some(allow_origin) = allow_origin else {
        return Decision::Answer(
            Response::error(
                ErrorCode::Forbidden,
                format!(
                    "pages of {sent} may not use this network from a browser (its allowed_origins)"
                ),
            )
            .with_header("vary", "Origin"),
        );
    };
    let mut headers = vec![(
        "access-control-allow-origin".to_owned(),
        allow_origin.clone(),
    )];
    if allow_origin != "*" {
        headers.push(("vary".to_owned(), "Origin".to_owned()));
    }
    if !preflight {
        headers.push((
            "access-control-expose-headers".to_owned(),
            EXPOSE_HEADERS.to_owned(),
        ));
        return Decision::Proceed(headers);
    }
    let mut answer = Response::text("").with_status(204);
    for (name, value) in headers {
        answer = answer.with_header(&name, &value);
    }
    Decision::Answer(
        answer
            .with_header("access-control-allow-methods", ALLOW_METHODS)
            .with_header("access-control-allow-headers", &allow_headers(req))
            .with_header("access-control-max-age", MAX_AGE),
    )
}

/// True for documents anyone may read: a network's profile, `/.well-known/` files, DID documents, the directory.
pub fn is_public(req: &Request) -> bool {
    let reads = matches!(req.method, Method::Get)
        || matches!(&req.method, Method::Other(m) if m == "HEAD" || m == "OPTIONS");
    if !reads {
        return false;
    }
    // A preflight asks about the method to come.
    if matches!(&req.method, Method::Other(m) if m == "OPTIONS")
        && req
            .header("Access-Control-Request-Method")
            .is_some_and(|m| !m.trim().eq_ignore_ascii_case("GET"))
    {
        return false;
    }
    let path = req.path();
    if path.contains("/.well-known/") || path == "/v1/networks" {
        return true;
    }
    if path.starts_with("/agents/") && path.ends_with("/did.json") {
        return true;
    }
    crate::bindings::route::paths::is_profile(path)
}

/// A loopback page asking a loopback edge (local development).
fn local(origin: &WebOrigin, req: &Request) -> bool {
    is_loopback(origin.as_str()) && is_loopback(req.origin())
}

/// The preflight's requested headers when they are plain header names, else the default list.
fn allow_headers(req: &Request) -> String {
    let requested = req.header("Access-Control-Request-Headers").unwrap_or("");
    let names: Vec<&str> = requested
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    let plain = names.len() <= MAX_REQUEST_HEADERS
        && names.iter().all(|n| {
            n.len() <= 64
                && n.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        });
    if names.is_empty() || !plain {
        DEFAULT_ALLOW_HEADERS.to_owned()
    } else {
        names.join(", ").to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::message::header_of;

    const EDGE: &str = "https://edge.example";

    fn request(method: &str, path: &str, origin: Option<&str>) -> Request {
        let req = Request::new(Method::parse(method), format!("{EDGE}{path}"));
        match origin {
            Some(origin) => req.with_header("Origin", origin),
            None => req,
        }
    }

    fn allowed() -> AllowedOrigins {
        AllowedOrigins::parse(&["https://app.example"]).unwrap()
    }

    #[test]
    fn requests_without_an_origin_from_the_same_origin_or_upgrades_need_nothing() {
        for req in [
            request("POST", "/networks/n/v1/events", None),
            request("POST", "/networks/n/v1/events", Some(EDGE)),
            request("GET", "/networks/n/v1/ws", Some("https://evil.example"))
                .with_header("Upgrade", "websocket"),
        ] {
            assert_eq!(
                decide(&req, &AllowedOrigins::default()),
                Decision::Proceed(Vec::new())
            );
        }
        let Decision::Answer(bare) = decide(
            &request("OPTIONS", "/networks/n/v1/events", None),
            &allowed(),
        ) else {
            panic!("an OPTIONS without Origin is answered");
        };
        assert_eq!(bare.status, 204);
    }

    #[test]
    fn an_allowed_origin_gets_its_own_name_back_and_may_read_the_mcp_session_header() {
        let req = request("POST", "/networks/n/v1/events", Some("https://APP.example"));
        let Decision::Proceed(headers) = decide(&req, &allowed()) else {
            panic!("an allowed origin proceeds");
        };
        assert_eq!(
            header_of(&headers, "access-control-allow-origin"),
            Some("https://app.example")
        );
        assert_eq!(header_of(&headers, "vary"), Some("Origin"));
        assert!(
            header_of(&headers, "access-control-expose-headers")
                .is_some_and(|h| h.contains("mcp-session-id") && h.contains("authentication-info"))
        );
        // `*` in allowed_origins: every page, answered with `*`.
        let Decision::Proceed(any) = decide(
            &request(
                "GET",
                "/networks/n/v1/events/stream",
                Some("https://x.example"),
            ),
            &AllowedOrigins::any(),
        ) else {
            panic!("any origin proceeds");
        };
        assert_eq!(header_of(&any, "access-control-allow-origin"), Some("*"));
    }

    #[test]
    fn other_origins_are_refused_before_any_route_and_told_why() {
        for (method, path) in [
            ("POST", "/networks/n/v1/events"),
            ("GET", "/networks/n/v1/events/stream"),
            ("OPTIONS", "/networks/n/mcp"),
        ] {
            let req = request(method, path, Some("https://evil.example"))
                .with_header("Access-Control-Request-Method", "POST");
            let Decision::Answer(refused) = decide(&req, &allowed()) else {
                panic!("{method} {path} from another origin is refused");
            };
            assert_eq!(refused.status_and_code(), (403, "forbidden"));
            assert_eq!(refused.header("access-control-allow-origin"), None);
        }
        // A loopback page may use a loopback edge; not a deployed one.
        let to_loopback = |origin: &str| {
            Request::new(Method::Post, "http://127.0.0.1:8787/networks/n/v1/events")
                .with_header("Origin", origin)
        };
        let local = to_loopback("http://localhost:5173");
        assert!(
            matches!(decide(&local, &AllowedOrigins::default()), Decision::Proceed(h) if !h.is_empty())
        );
        let deployed = request(
            "POST",
            "/networks/n/v1/events",
            Some("http://localhost:5173"),
        );
        assert!(matches!(decide(&deployed, &allowed()), Decision::Answer(r) if r.status == 403));
        // Origins are compared as parsed hosts: a name that starts with `127.`
        // or `localhost` is someone's domain, not this machine.
        for spoof in [
            "http://127.0.0.1.evil.example",
            "http://127.evil.example:8787",
            "http://localhost.evil.example",
            "http://127.0.0.1@evil.example",
        ] {
            let req = to_loopback(spoof);
            assert!(
                matches!(decide(&req, &AllowedOrigins::default()), Decision::Answer(r) if r.status == 403),
                "{spoof}"
            );
        }
        for local in [
            "http://[::1]:3000",
            "http://app.localhost:3000",
            "http://127.0.0.2",
        ] {
            let req = to_loopback(local);
            assert!(
                matches!(
                    decide(&req, &AllowedOrigins::default()),
                    Decision::Proceed(_)
                ),
                "{local}"
            );
        }
        // An origin that does not parse (a sandboxed page sends `null`) is another origin.
        let null = request("GET", "/networks/n/v1/events/stream", Some("null"));
        assert!(matches!(decide(&null, &allowed()), Decision::Answer(r) if r.status == 403));
    }

    #[test]
    fn public_documents_are_open_to_every_origin() {
        for path in [
            "/networks/n",
            "/networks/n/",
            "/networks/n/v1/profile",
            "/networks/n/a2a/.well-known/agent-card.json",
            "/.well-known/oauth-protected-resource/networks/n/mcp",
            "/.well-known/jwks.json",
            "/agents/alice/did.json",
            "/v1/networks",
        ] {
            let Decision::Proceed(headers) = decide(
                &request("GET", path, Some("https://evil.example")),
                &AllowedOrigins::default(),
            ) else {
                panic!("{path} is public");
            };
            assert_eq!(
                header_of(&headers, "access-control-allow-origin"),
                Some("*"),
                "{path}"
            );
        }
        // Not the same paths with another method, nor the rest of the API.
        assert!(!is_public(&request("POST", "/networks/n/v1/profile", None)));
        assert!(!is_public(&request("GET", "/networks/n/v1/events", None)));
        assert!(!is_public(&request(
            "GET",
            "/networks/n/v1/profile/x",
            None
        )));
    }

    #[test]
    fn a_preflight_says_what_may_be_sent_and_repeats_plain_header_names_only() {
        let req = request(
            "OPTIONS",
            "/networks/n/v1/events",
            Some("https://app.example"),
        )
        .with_header("Access-Control-Request-Method", "POST")
        .with_header(
            "Access-Control-Request-Headers",
            "Authorization, Content-Type, X-Trace",
        );
        let Decision::Answer(answer) = decide(&req, &allowed()) else {
            panic!("a preflight is answered");
        };
        assert_eq!(answer.status, 204);
        let headers = &answer.headers;
        assert_eq!(
            header_of(headers, "access-control-allow-origin"),
            Some("https://app.example")
        );
        assert_eq!(
            header_of(headers, "access-control-allow-methods"),
            Some(ALLOW_METHODS)
        );
        assert_eq!(
            header_of(headers, "access-control-allow-headers"),
            Some("authorization, content-type, x-trace")
        );
        assert_eq!(header_of(headers, "access-control-max-age"), Some(MAX_AGE));
        let odd = request(
            "OPTIONS",
            "/networks/n/v1/events",
            Some("https://app.example"),
        )
        .with_header("Access-Control-Request-Headers", "bad header\r\n");
        let Decision::Answer(answer) = decide(&odd, &allowed()) else {
            panic!("a preflight is answered");
        };
        assert_eq!(
            header_of(&answer.headers, "access-control-allow-headers"),
            Some(DEFAULT_ALLOW_HEADERS)
        );
        // A preflight for a POST to a public path follows allowed_origins, not `*`.
        let post = request(
            "OPTIONS",
            "/networks/n/v1/profile",
            Some("https://evil.example"),
        )
        .with_header("Access-Control-Request-Method", "POST");
        assert!(matches!(decide(&post, &allowed()), Decision::Answer(r) if r.status == 403));
    }
}
