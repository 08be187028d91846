//! The route table: every path a host takes, read once.

use super::*;
use crate::bindings::oauth::metadata::Endpoint;

const BASE: &str = "https://edge.test";

fn at(method: Method, path: &str) -> Request {
    Request::new(method, format!("{BASE}{path}"))
}

fn get(path: &str) -> Request {
    at(Method::Get, path)
}

fn demo() -> NetworkId {
    "demo".parse().unwrap()
}

/// The route of a request to network `demo`.
fn of(req: &Request) -> NetworkRoute {
    match parse(req) {
        Ok(Route::Network(id, route)) if id == demo() => route,
        other => panic!("not demo's: {} -> {other:?}", req.url),
    }
}

#[test]
fn the_deployment_routes() {
    assert_eq!(
        parse(&at(Method::Post, "/v1/networks")),
        Ok(Route::CreateNetwork)
    );
    assert_eq!(parse(&get("/v1/networks")), Ok(Route::ListNetworks));
    let put = at(Method::Other("PUT".into()), "/v1/networks");
    assert_eq!(
        parse(&put).unwrap_err().status_and_code(),
        (405, "method_not_allowed")
    );
    assert_eq!(parse(&at(Method::Post, CREATE_PATH)), Ok(Route::Create));
    for registry in [
        "/registry/v1/agents/bob",
        "/agents/bob/did.json",
        "/.well-known/jwks.json",
        "/.well-known/agent-descriptions",
        "/networks/demo/.well-known/agent-descriptions",
    ] {
        assert_eq!(parse(&get(registry)), Ok(Route::Registry), "{registry}");
    }
    // Outside the Worker's own prefixes, a path is a static file.
    for asset in ["/", "/x", "/n/demo", "/pkg/agentnet-web.js", "/__create"] {
        assert_eq!(parse(&get(asset)), Ok(Route::Asset), "{asset}");
    }
    for unknown in [
        "/v1/x",
        "/agents",
        "/registry/v9",
        "/networks",
        "/.well-known/x",
    ] {
        let refused = parse(&get(unknown)).unwrap_err();
        assert_eq!(refused.status_and_code(), (404, "not_found"), "{unknown}");
    }
    for bad in [
        "/networks/Bad!/v1/ws",
        "/networks/",
        "/.well-known/oauth-authorization-server/networks/Bad!",
    ] {
        assert_eq!(
            parse(&get(bad)).unwrap_err().status_and_code(),
            (400, "invalid_network_id"),
            "{bad}"
        );
    }
}

#[test]
fn the_http_api_table() {
    for (method, tail, expected) in [
        (Method::Get, "/v1/profile", ApiRoute::Profile),
        (Method::Get, "", ApiRoute::Profile),
        (Method::Get, "/", ApiRoute::Profile),
        (Method::Get, "/v1/profile/", ApiRoute::Profile),
        (Method::Get, "/v1/discover", ApiRoute::Discover),
        (Method::Post, "/v1/join", ApiRoute::Join),
        (Method::Post, "/v1/leave", ApiRoute::Leave),
        (Method::Post, "/v1/ticket", ApiRoute::Ticket),
        (Method::Post, "/v1/events", ApiRoute::Send),
        (Method::Get, "/v1/events", ApiRoute::Poll),
        (Method::Post, "/v1/heartbeat", ApiRoute::Heartbeat),
        (Method::Get, "/v1/sse", ApiRoute::Sse),
        (Method::Get, "/v1/ws", ApiRoute::WebSocket),
        (Method::Post, "/v1/ws", ApiRoute::WebSocket),
        (Method::Get, "/v1/analytics", ApiRoute::Analytics),
        (
            Method::Post,
            "/v1/invitations/show",
            ApiRoute::ShowInvitation,
        ),
        (
            Method::Post,
            "/v1/admin/kick/",
            ApiRoute::Admin("kick".into()),
        ),
        (
            Method::Post,
            "/v1/__test/panic",
            ApiRoute::Test(TestHook::Panic),
        ),
        (
            Method::Post,
            "/v1/__test/fail-next-batch",
            ApiRoute::Test(TestHook::FailNextBatch),
        ),
        (
            Method::Get,
            "/v1/__test/counters",
            ApiRoute::Test(TestHook::Counters),
        ),
        (
            Method::Post,
            "/v1/__test/refuse-gateway-requests",
            ApiRoute::Test(TestHook::RefuseGatewayRequests),
        ),
        (
            Method::Post,
            "/v1/__test/lose-gateway-answers",
            ApiRoute::Test(TestHook::LoseGatewayAnswers),
        ),
        (
            Method::Get,
            "/v1/join",
            ApiRoute::WrongMethod("v1/join".into()),
        ),
        (
            Method::Other("DELETE".into()),
            "/v1/events",
            ApiRoute::WrongMethod("v1/events".into()),
        ),
        (Method::Post, "/v1/sse", ApiRoute::Unknown),
        (Method::Get, "/v2/x", ApiRoute::Unknown),
        (Method::Get, "/v1/admin", ApiRoute::Unknown),
        (Method::Get, "/v1/__test/panic", ApiRoute::Unknown),
    ] {
        let req = at(method, &format!("/networks/demo{tail}"));
        assert_eq!(of(&req), NetworkRoute::Api(expected), "{tail}");
    }
}

#[test]
fn each_binding_claims_its_paths() {
    let a2a = |tail: &str| match of(&get(&format!("/networks/demo{tail}"))) {
        NetworkRoute::A2a(target) => Some((target.agent.map(|a| a.to_string()), target.card)),
        _ => None,
    };
    assert_eq!(
        a2a("/a2a/agent:echo/.well-known/agent-card.json"),
        Some((Some("agent:echo".into()), true))
    );
    assert_eq!(a2a("/a2a/.well-known/agent.json"), Some((None, true)));
    assert_eq!(a2a("/a2a/"), Some((None, false)));
    assert_eq!(a2a("/a2a/not a name"), None);
    assert_eq!(a2a("/a2afoo"), None);
    assert_eq!(
        of(&get("/networks/demo/a2a/remotes/")),
        NetworkRoute::A2aRemotes
    );

    let ioa = |tail: &str| match of(&get(&format!("/networks/demo{tail}"))) {
        NetworkRoute::Ioa(target) => Some(target.segments),
        _ => None,
    };
    assert_eq!(
        ioa("/ioa/spaces/general/messages/01J/sse").unwrap(),
        ["spaces", "general", "messages", "01J", "sse"]
    );
    assert_eq!(
        ioa("/ioa/nodes/agent%3Aalice").unwrap(),
        ["nodes", "agent:alice"]
    );
    assert_eq!(ioa("/ioa").unwrap(), Vec::<String>::new());
    assert_eq!(ioa("/ioasis"), None);
    assert_eq!(ioa("/ioa/mcp"), None);

    for mcp in [
        "/networks/demo/mcp",
        "/networks/demo/mcp/",
        "/networks/demo/ioa/mcp",
    ] {
        assert_eq!(of(&get(mcp)), NetworkRoute::Mcp, "{mcp}");
    }
    assert_eq!(
        of(&at(Method::Post, "/networks/demo/anp/rpc/")),
        NetworkRoute::Anp
    );
    for metadata in [
        "/.well-known/oauth-protected-resource/networks/demo/mcp",
        "/.well-known/oauth-protected-resource/networks/demo/ioa/mcp",
    ] {
        assert_eq!(of(&get(metadata)), NetworkRoute::McpMetadata, "{metadata}");
    }
    assert_eq!(
        of(&get(
            "/.well-known/oauth-protected-resource/networks/demo/x"
        )),
        NetworkRoute::Unknown
    );

    let oauth = |path: &str| match of(&get(path)) {
        NetworkRoute::OAuth(target) => Some(target),
        _ => None,
    };
    assert_eq!(
        oauth("/.well-known/oauth-authorization-server/networks/demo/"),
        Some(OAuthTarget::Metadata(demo()))
    );
    assert_eq!(
        oauth("/networks/demo/oauth/authorize"),
        Some(OAuthTarget::Endpoint(demo(), Endpoint::Authorize))
    );
    assert_eq!(
        oauth("/networks/demo/oauth/token/"),
        Some(OAuthTarget::Endpoint(demo(), Endpoint::Token))
    );
    assert_eq!(oauth("/networks/demo/oauth/other"), None);
    assert_eq!(
        oauth("/.well-known/oauth-authorization-server/networks/demo/x"),
        None
    );
}

#[test]
fn path_shapes_read_without_a_request() {
    let id = "0123456789abcdef0123456789abcdef";
    let path = format!("/networks/{id}/.well-known/agent-descriptions");
    assert_eq!(paths::well_known_network(&path), Some(id));
    assert_eq!(
        paths::well_known_network("/networks/a/b/.well-known/agent-descriptions"),
        None
    );
    assert_eq!(
        paths::well_known_network("/.well-known/agent-descriptions"),
        None
    );
    assert_eq!(
        paths::well_known_network(&format!("/networks/{id}/v1/profile")),
        None
    );
    assert_eq!(
        paths::network_in_url("https://h/networks/abc/mcp").as_deref(),
        Some("abc")
    );
    assert_eq!(
        paths::network_in_url("https://h/networks/abc?x").as_deref(),
        Some("abc")
    );
    assert_eq!(paths::network_in_url("https://h/agents/x"), None);
    assert_eq!(paths::network_in_url("https://h/networks/"), None);
    assert_eq!(
        paths::endpoint_in_url(
            "http://h/networks/abc/a2a/agent:helper/.well-known/agent-card.json"
        ),
        Some(("abc".into(), Some("agent:helper".into())))
    );
    assert_eq!(
        paths::endpoint_in_url("http://h/networks/abc/a2a/.well-known/agent-card.json"),
        Some(("abc".into(), None)),
        "the network's own card names no member"
    );
    assert_eq!(
        paths::endpoint_in_url("http://h/networks/abc/mcp"),
        Some(("abc".into(), None))
    );
    assert_eq!(paths::network_path("abc", "/v1/ws"), "/networks/abc/v1/ws");
    assert_eq!(
        paths::network_in_url(&paths::network_path("abc", "")).as_deref(),
        Some("abc")
    );
    for public in ["/networks/n", "/networks/n/", "/networks/n/v1/profile"] {
        assert!(paths::is_profile(public), "{public}");
    }
    for private in [
        "/networks/n/v1/events",
        "/networks/n/v1/profile/",
        "/v1/profile",
    ] {
        assert!(!paths::is_profile(private), "{private}");
    }
}
