//! The authorization server driven natively, as an MCP SDK client and a
//! person at the consent page would drive it, in front of a network in
//! memory; then the MCP endpoint with the token it issued.

mod membership;
mod rules;

use super::pkce::challenge_of;
use super::routes::{Target, handle};
use crate::bindings::mcp::streams::Streams;
use crate::bindings::mcp::{outcome::Outcome, transport};
use crate::bindings::message::{Body, Method, Request, Response};
use crate::bindings::oauth::form;
use crate::bindings::route::NetworkRoute;
use crate::bindings::tests::world::World;
use serde_json::{Value, json};

const ORIGIN: &str = "https://edge.test";
const MCP: &str = "https://edge.test/networks/demo/mcp";
const REDIRECT: &str = "http://127.0.0.1:4711/callback";
const VERIFIER: &str = "a-verifier-of-at-least-forty-three-characters.~_0123456789";

fn world() -> World {
    World::new()
}

/// The authorization server's target of `req`, as the route table reads it.
fn target(req: &Request) -> Option<Target> {
    match crate::bindings::route::network_route(req) {
        Some(NetworkRoute::OAuth(target)) => Some(target),
        _ => None,
    }
}

fn call(world: &mut World, req: &Request) -> Response {
    world.host.now += 1;
    let Some(target) = target(req) else {
        panic!("not an OAuth path: {}", req.url)
    };
    let Ok(response) = handle(&mut world.host, &mut world.network, req, &target);
    response
}

fn location(response: &Response) -> &str {
    assert_eq!(response.status, 303, "{response:?}");
    response.header("Location").expect("a Location")
}

/// The parameters a redirect carries back.
fn returned(location: &str) -> form::Params {
    form::parse(form::query_of(location)).unwrap()
}

fn html(response: &Response) -> &str {
    match &response.body {
        Body::Text(text) => text,
        Body::Json(json) => panic!("not HTML: {json}"),
    }
}

/// Registers a client with [`REDIRECT`]; its id.
fn register(world: &mut World) -> String {
    let body = json!({"redirect_uris": [REDIRECT], "client_name": "SDK test",
        "token_endpoint_auth_method": "none"});
    let req = Request::new(
        Method::Post,
        format!("{ORIGIN}/networks/demo/oauth/register"),
    )
    .with_header("Content-Type", "application/json")
    .with_body(body.to_string());
    let response = call(world, &req);
    assert_eq!(response.status, 201, "{response:?}");
    response.json_body().unwrap()["client_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// An authorization request's parameters (S256 of [`VERIFIER`], the MCP resource).
fn request_params(client: &str) -> Vec<(&'static str, String)> {
    vec![
        ("response_type", "code".into()),
        ("client_id", client.into()),
        ("redirect_uri", REDIRECT.into()),
        ("state", "st&te=1".into()),
        ("code_challenge", challenge_of(VERIFIER)),
        ("code_challenge_method", "S256".into()),
        ("resource", MCP.into()),
    ]
}

fn encoded(params: &[(&str, String)]) -> String {
    form::encode(params.iter().map(|(k, v)| (*k, v.as_str())))
}

fn authorize_get(world: &mut World, params: &[(&str, String)]) -> Response {
    let url = format!("{ORIGIN}/networks/demo/oauth/authorize?{}", encoded(params));
    call(world, &Request::new(Method::Get, url))
}

/// The consent form posted with `fields` added to the request's parameters.
fn consent(world: &mut World, params: &[(&str, String)], fields: &[(&str, &str)]) -> Response {
    let mut all = params.to_vec();
    all.extend(fields.iter().map(|(k, v)| (*k, (*v).to_owned())));
    let req = Request::new(
        Method::Post,
        format!("{ORIGIN}/networks/demo/oauth/authorize"),
    )
    .with_header("Content-Type", "application/x-www-form-urlencoded")
    .with_body(encoded(&all));
    call(world, &req)
}

fn token_request(world: &mut World, fields: &[(&str, &str)]) -> Response {
    let req = Request::new(Method::Post, format!("{ORIGIN}/networks/demo/oauth/token"))
        .with_header("Content-Type", "application/x-www-form-urlencoded")
        .with_body(form::encode(fields.iter().copied()));
    call(world, &req)
}

/// A code for `name`, through registration and consent; `(client, code)`.
fn code_for(world: &mut World, name: &str) -> (String, String) {
    let client = register(world);
    let params = request_params(&client);
    let answer = consent(world, &params, &[("name", name), ("decision", "allow")]);
    let code = returned(location(&answer)).get("code").unwrap().to_owned();
    (client, code)
}

fn redeem(world: &mut World, client: &str, code: &str) -> Response {
    redeem_for(world, client, code, MCP)
}

/// Redeems `code` of `client` for a token to `resource`.
fn redeem_for(world: &mut World, client: &str, code: &str, resource: &str) -> Response {
    token_request(
        world,
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", REDIRECT),
            ("code_verifier", VERIFIER),
            ("client_id", client),
            ("resource", resource),
        ],
    )
}

/// Whether the host keeps a grant of `kind`.
fn holds_grant(world: &World, kind: crate::bindings::oauth::grants::GrantKind) -> bool {
    world.host.grants.values().any(|g| g.kind == kind)
}

/// Whether `agent:claude` is a member of the world's network.
fn claude_is_member(world: &World) -> bool {
    let claude = "agent:claude".parse().unwrap();
    world.network.member(&claude).is_some()
}

fn error_of(response: &Response) -> (u16, &str) {
    let error = response.json_body().and_then(|b| b["error"].as_str());
    (response.status, error.unwrap_or("(no error)"))
}

/// An MCP `initialize` with `token` at network `world`'s endpoint: its response.
fn initialize(world: &mut World, token: &str) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let req = Request::new(Method::Post, MCP)
        .with_header("Accept", "application/json, text/event-stream")
        .with_header("Content-Type", "application/json")
        .with_header("Authorization", &format!("Bearer {token}"))
        .with_body(body.to_string());
    world.host.now += 1;
    let outcome = transport::handle(
        &mut world.host,
        &mut world.network,
        &mut Streams::default(),
        &req,
    );
    match outcome {
        Ok(Outcome::Respond(response)) => response,
        Ok(other) => panic!("expected a response, got {other:?}"),
        Err(never) => match never {},
    }
}

fn challenge_header(response: &Response) -> &str {
    response.header("WWW-Authenticate").unwrap_or("")
}

#[test]
fn discovery_registration_consent_and_token_make_the_mcp_caller_that_member() {
    let mut world = world();
    let metadata = call(
        &mut world,
        &Request::new(
            Method::Get,
            format!("{ORIGIN}/.well-known/oauth-authorization-server/networks/demo"),
        ),
    );
    let doc = metadata.json_body().unwrap();
    assert_eq!(doc["issuer"], "https://edge.test/networks/demo");
    assert_eq!(
        doc["authorization_endpoint"],
        "https://edge.test/networks/demo/oauth/authorize"
    );
    assert_eq!(
        doc["registration_endpoint"],
        "https://edge.test/networks/demo/oauth/register"
    );

    let client = register(&mut world);
    let params = request_params(&client);
    let page = authorize_get(&mut world, &params);
    assert_eq!(page.status, 200);
    let text = html(&page);
    assert!(
        text.contains("<label for=\"name\">") && text.contains("SDK test"),
        "{text}"
    );
    // The request rides along in hidden fields, escaped.
    assert!(
        text.contains("name=\"state\" value=\"st&amp;te=1\""),
        "{text}"
    );
    assert!(!claude_is_member(&world));

    let answer = consent(
        &mut world,
        &params,
        &[("name", "claude"), ("decision", "allow")],
    );
    let back = location(&answer);
    assert!(
        back.starts_with("http://127.0.0.1:4711/callback?code="),
        "{back}"
    );
    let back = returned(back);
    assert_eq!(back.get("state"), Some("st&te=1"));
    assert_eq!(back.get("iss"), Some("https://edge.test/networks/demo"));
    // The consent was the join: the member exists, by the network's own pipeline.
    assert!(claude_is_member(&world));
    let code = back.get("code").unwrap().to_owned();
    // Stored hashed: the code itself is nowhere in the store.
    assert!(!world.host.grants.contains_key(&code));
    assert!(
        world
            .host
            .grants
            .values()
            .all(|g| !format!("{g:?}").contains(&code))
    );

    let tokens = redeem(&mut world, &client, &code);
    assert_eq!(tokens.status, 200, "{tokens:?}");
    let body: Value = tokens.json_body().unwrap().clone();
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3600);
    assert!(
        tokens
            .headers
            .contains(&("Cache-Control".into(), "no-store".into()))
    );
    let access = body["access_token"].as_str().unwrap();
    let response = initialize(&mut world, access);
    assert_eq!(response.status, 200, "{response:?}");
    let instructions = response.json_body().unwrap()["result"]["instructions"]
        .as_str()
        .unwrap_or("");
    assert!(instructions.contains("agent:claude"), "{instructions}");
}
