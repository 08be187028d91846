//! Each rule of the authorization server, one refusal at a time.

use super::*;
use crate::bindings::oauth::grants::GrantKind;
use crate::model::config::Access;
use crate::{Network, NetworkConfig};

#[test]
fn pkce_is_s256_and_the_verifier_must_match() {
    let mut world = world();
    let client = register(&mut world);
    for (name, value, expected) in [
        ("code_challenge_method", Some("plain"), "invalid_request"),
        ("code_challenge_method", None, "invalid_request"),
        ("code_challenge", None, "invalid_request"),
        ("response_type", Some("token"), "unsupported_response_type"),
        (
            "resource",
            Some("https://edge.test/networks/other/mcp"),
            "invalid_target",
        ),
    ] {
        let mut params = request_params(&client);
        params.retain(|(k, _)| *k != name);
        if let Some(value) = value {
            params.push((name, value.to_owned()));
        }
        let back = returned(
            location(&authorize_get(&mut world, &params))
                .to_owned()
                .as_str(),
        );
        assert_eq!(back.get("error"), Some(expected), "{name}={value:?}");
        assert_eq!(back.get("state"), Some("st&te=1"));
        assert!(back.get("code").is_none());
    }

    let (client, code) = code_for(&mut world, "claude");
    let wrong = "another-verifier-of-at-least-forty-three-characters-xyz";
    let fields = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", REDIRECT),
        ("client_id", client.as_str()),
    ];
    let mut with_wrong = fields.to_vec();
    with_wrong.push(("code_verifier", wrong));
    assert_eq!(
        error_of(&token_request(&mut world, &with_wrong)),
        (400, "invalid_grant")
    );
    assert_eq!(
        error_of(&token_request(&mut world, &fields)),
        (400, "invalid_request")
    );
    // A failed attempt does not use the code up for its rightful client.
    assert_eq!(redeem(&mut world, &client, &code).status, 200);
}

#[test]
fn a_code_is_good_once_and_its_reuse_revokes_what_it_gave() {
    let mut world = world();
    let (client, code) = code_for(&mut world, "claude");
    let first = redeem(&mut world, &client, &code);
    let access = first.json_body().unwrap()["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(initialize(&mut world, &access).status, 200);
    assert_eq!(
        error_of(&redeem(&mut world, &client, &code)),
        (400, "invalid_grant")
    );
    let refused = initialize(&mut world, &access);
    assert_eq!(refused.status, 401);
    assert!(challenge_header(&refused).contains("error=\"invalid_token\""));
}

#[test]
fn an_expired_code_is_refused() {
    let mut world = world();
    let (client, code) = code_for(&mut world, "claude");
    world.host.now += world.host.policy.oauth_code_ttl_ms;
    let answer = redeem(&mut world, &client, &code);
    assert_eq!(error_of(&answer), (400, "invalid_grant"));
    assert!(
        answer.json_body().unwrap()["error_description"]
            .as_str()
            .unwrap()
            .contains("expired")
    );
}

#[test]
fn the_redirect_uri_is_a_registered_one_exactly() {
    let mut world = world();
    let client = register(&mut world);
    for uri in [
        "http://127.0.0.1:4711/callback/",
        "http://127.0.0.1:4712/callback",
        "https://evil.example/cb",
    ] {
        let mut params = request_params(&client);
        params.retain(|(k, _)| *k != "redirect_uri");
        params.push(("redirect_uri", uri.to_owned()));
        // Never redirected to: the person is told instead.
        let page = authorize_get(&mut world, &params);
        assert_eq!(page.status, 400, "{uri}");
        assert!(html(&page).contains("redirect_uri"), "{uri}");
        let posted = consent(
            &mut world,
            &params,
            &[("name", "claude"), ("decision", "allow")],
        );
        assert_eq!(posted.status, 400);
    }
    let mut unknown = request_params("mcp-unknown");
    unknown.retain(|(k, _)| *k != "state");
    assert_eq!(authorize_get(&mut world, &unknown).status, 400);

    // At the token endpoint the code's redirect_uri must come back as it was.
    let (client, code) = code_for(&mut world, "claude");
    let answer = token_request(
        &mut world,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", "http://127.0.0.1:4711/other"),
            ("code_verifier", VERIFIER),
            ("client_id", &client),
        ],
    );
    assert_eq!(error_of(&answer), (400, "invalid_grant"));
}

#[test]
fn the_resource_is_this_networks_mcp_endpoint() {
    let mut world = world();
    let (client, code) = code_for(&mut world, "claude");
    let answer = redeem_for(
        &mut world,
        &client,
        &code,
        "https://edge.test/networks/other/mcp",
    );
    assert_eq!(error_of(&answer), (400, "invalid_target"));
    // Scheme and host case and a trailing slash do not make another resource.
    let answer = redeem_for(
        &mut world,
        &client,
        &code,
        "HTTPS://EDGE.test/networks/demo/mcp/",
    );
    assert_eq!(answer.status, 200, "{answer:?}");
}

#[test]
fn access_tokens_expire_and_refresh_tokens_rotate() {
    let mut world = world();
    let (client, code) = code_for(&mut world, "claude");
    let tokens = redeem(&mut world, &client, &code)
        .json_body()
        .unwrap()
        .clone();
    let (access, refresh) = (
        tokens["access_token"].as_str().unwrap(),
        tokens["refresh_token"].as_str().unwrap(),
    );
    world.host.now += world.host.policy.oauth_access_ttl_ms;
    let expired = initialize(&mut world, access);
    assert_eq!(expired.status, 401);
    assert!(challenge_header(&expired).contains("error=\"invalid_token\""));

    let refresh_with = |world: &mut World, token: &str| {
        token_request(
            world,
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", token),
                ("client_id", &client),
                ("resource", MCP),
            ],
        )
    };
    let renewed = refresh_with(&mut world, refresh);
    assert_eq!(renewed.status, 200, "{renewed:?}");
    let renewed = renewed.json_body().unwrap().clone();
    let (access2, refresh2) = (
        renewed["access_token"].as_str().unwrap(),
        renewed["refresh_token"].as_str().unwrap(),
    );
    assert_ne!(refresh2, refresh);
    assert_eq!(initialize(&mut world, access2).status, 200);
    // The rotated refresh token used again: the whole family ends.
    assert_eq!(
        error_of(&refresh_with(&mut world, refresh)),
        (400, "invalid_grant")
    );
    assert_eq!(initialize(&mut world, access2).status, 401);
    assert_eq!(
        error_of(&refresh_with(&mut world, refresh2)),
        (400, "invalid_grant")
    );
    // An access token is no refresh token, nor the other way round.
    let (client, code) = code_for(&mut world, "gpt");
    let tokens = redeem(&mut world, &client, &code)
        .json_body()
        .unwrap()
        .clone();
    let answer = token_request(
        &mut world,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", tokens["access_token"].as_str().unwrap()),
            ("client_id", &client),
        ],
    );
    assert_eq!(error_of(&answer), (400, "invalid_grant"));
    assert_eq!(
        initialize(&mut world, tokens["refresh_token"].as_str().unwrap()).status,
        401
    );
    world.host.now += world.host.policy.oauth_refresh_ttl_ms;
    let late = refresh_with(&mut world, tokens["refresh_token"].as_str().unwrap());
    assert_eq!(error_of(&late), (400, "invalid_grant"));
}

#[test]
fn a_token_of_one_network_is_refused_by_another() {
    let mut a = world();
    let (client, code) = code_for(&mut a, "claude");
    let access = redeem(&mut a, &client, &code).json_body().unwrap()["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    // Another network's object: it never issued the token.
    let mut b = world();
    b.network = Network::new(
        NetworkConfig::open("other".parse().unwrap(), "Other"),
        [],
        0,
        [9; 32],
    );
    let req_b = |token: &str| {
        Request::new(Method::Post, "https://edge.test/networks/other/mcp")
            .with_header("Authorization", &format!("Bearer {token}"))
    };
    let refused =
        crate::bindings::mcp::access::member(&mut b.host, &req_b(&access), b.network.id());
    let Ok(crate::bindings::step::Step::Answer(response)) = refused else {
        panic!("accepted")
    };
    assert_eq!(response.status, 401);
    assert!(challenge_header(&response).contains("error=\"invalid_token\""));
    // Even a store that held both: the token's audience is network A's endpoint.
    let shared = crate::bindings::mcp::access::member(
        &mut a.host,
        &req_b(&access),
        &"other".parse().unwrap(),
    );
    assert!(matches!(shared, Ok(crate::bindings::step::Step::Answer(ref r)) if r.status == 401));
}

#[test]
fn a_token_network_admits_only_with_its_token_and_a_refusal_issues_no_code() {
    let mut world = world();
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.access = Access::token("s3cret-network-token");
    config.mods = vec![crate::model::config::ModConfig::Auth];
    world.network = Network::new(config, [], 0, [7; 32]);
    let client = register(&mut world);
    let params = request_params(&client);
    assert!(
        html(&authorize_get(&mut world, &params))
            .contains("<label for=\"token\">Network token</label>")
    );
    for fields in [
        vec![("name", "claude")],
        vec![("name", "claude"), ("token", "wrong")],
    ] {
        let mut fields = fields;
        fields.push(("decision", "allow"));
        let page = consent(&mut world, &params, &fields);
        assert_eq!(page.status, 403, "{fields:?}");
        let text = html(&page);
        assert!(
            text.contains("role=\"alert\"") && text.contains("token"),
            "{text}"
        );
        // The name typed is kept, the token is not echoed.
        assert!(text.contains("value=\"claude\""));
        assert!(!text.contains("value=\"wrong\""));
        assert!(world.host.grants.is_empty());
        assert!(!claude_is_member(&world));
    }
    let answer = consent(
        &mut world,
        &params,
        &[
            ("name", "claude"),
            ("token", "s3cret-network-token"),
            ("decision", "allow"),
        ],
    );
    assert!(returned(location(&answer)).get("code").is_some());
    // A bad name is told on the page too.
    assert_eq!(
        consent(
            &mut world,
            &params,
            &[("name", "no such"), ("decision", "allow")]
        )
        .status,
        400
    );
    assert_eq!(
        consent(&mut world, &params, &[("decision", "allow")]).status,
        400
    );
}

#[test]
fn cancel_sends_access_denied_with_the_state() {
    let mut world = world();
    let client = register(&mut world);
    let params = request_params(&client);
    let back = returned(
        location(&consent(&mut world, &params, &[("decision", "deny")]))
            .to_owned()
            .as_str(),
    );
    assert_eq!(back.get("error"), Some("access_denied"));
    assert_eq!(back.get("state"), Some("st&te=1"));
    assert!(world.host.grants.is_empty());
}

#[test]
fn token_endpoint_errors_have_their_rfc_6749_codes() {
    let mut world = world();
    let (client, code) = code_for(&mut world, "claude");
    assert_eq!(
        error_of(&token_request(
            &mut world,
            &[("grant_type", "password"), ("client_id", &client)]
        )),
        (400, "unsupported_grant_type")
    );
    assert_eq!(
        error_of(&token_request(&mut world, &[("client_id", &client)])),
        (400, "invalid_request")
    );
    assert_eq!(
        error_of(&token_request(
            &mut world,
            &[("grant_type", "authorization_code"), ("code", &code)]
        )),
        (400, "invalid_request")
    );
    assert_eq!(
        error_of(&redeem(&mut world, "mcp-unknown", &code)),
        (401, "invalid_client")
    );
    // Another registered client cannot redeem it.
    let other = register(&mut world);
    assert_eq!(
        error_of(&redeem(&mut world, &other, &code)),
        (400, "invalid_grant")
    );
    let repeated = format!("grant_type=authorization_code&code={code}&code=x&client_id={client}");
    let req = Request::new(Method::Post, format!("{ORIGIN}/networks/demo/oauth/token"))
        .with_header("Content-Type", "application/x-www-form-urlencoded")
        .with_body(repeated);
    assert_eq!(error_of(&call(&mut world, &req)), (400, "invalid_request"));
    let json = Request::new(Method::Post, format!("{ORIGIN}/networks/demo/oauth/token"))
        .with_header("Content-Type", "application/json")
        .with_body("{}");
    assert_eq!(error_of(&call(&mut world, &json)), (400, "invalid_request"));
    let get = Request::new(Method::Get, format!("{ORIGIN}/networks/demo/oauth/token"));
    assert_eq!(call(&mut world, &get).status, 405);
    assert_eq!(redeem(&mut world, &client, &code).status, 200);
}

#[test]
fn leaving_ends_the_members_tokens() {
    let mut world = world();
    let (client, code) = code_for(&mut world, "claude");
    assert_eq!(redeem(&mut world, &client, &code).status, 200);
    assert!(holds_grant(&world, GrantKind::Access));
    let Ok(()) =
        crate::host::credentials::end_all(&mut world.host, &"agent:claude".parse().unwrap());
    assert!(world.host.grants.is_empty());
}

#[test]
fn a_client_named_by_its_document_is_fetched_checked_and_kept() {
    use crate::bindings::oauth::cimd::{Fetch, fetched, to_fetch};
    let strict = crate::outbound::OutboundPolicy::strict();
    let mut world = world();
    let url = "https://client.example/mcp.json";
    let mut params = request_params(url);
    params.retain(|(k, _)| *k != "resource");
    let get = Request::new(
        Method::Get,
        format!(
            "{ORIGIN}/networks/demo/oauth/authorize?{}",
            encoded(&params)
        ),
    );
    let authorize = target(&get).unwrap();
    let Ok(Fetch::Document(asked)) = to_fetch(&mut world.host, &strict, &get, &authorize) else {
        panic!("no fetch")
    };
    assert_eq!(asked, url);
    // Fetching failed: the page says so; nothing is kept.
    let failed = fetched(
        &mut world.host,
        &authorize,
        url,
        Err("it answered 404".into()),
    )
    .unwrap()
    .unwrap();
    assert_eq!(failed.status, 400);
    assert!(
        html(&failed).contains("could not fetch the client metadata document: it answered 404")
    );
    assert!(world.host.oauth_clients.is_empty());
    let document = json!({"client_id": url, "client_name": "Doc app", "redirect_uris": [REDIRECT]})
        .to_string();
    assert_eq!(
        fetched(&mut world.host, &authorize, url, Ok(document)).unwrap(),
        None
    );
    assert!(html(&authorize_get(&mut world, &params)).contains("Doc app"));
    let answer = consent(
        &mut world,
        &params,
        &[("name", "doc"), ("decision", "allow")],
    );
    let code = returned(location(&answer)).get("code").unwrap().to_owned();
    // Kept: the token request needs no second fetch.
    let token = Request::new(Method::Post, format!("{ORIGIN}/networks/demo/oauth/token"))
        .with_body(format!("client_id={}", form::escape(url)));
    assert_eq!(
        to_fetch(&mut world.host, &strict, &token, &target(&token).unwrap()),
        Ok(Fetch::Nothing)
    );
    assert_eq!(redeem(&mut world, url, &code).status, 200);
    // A URL that cannot be a client id is refused before anything is fetched.
    let bad = Request::new(
        Method::Get,
        format!(
            "{ORIGIN}/networks/demo/oauth/authorize?client_id=https%3A%2F%2Fu%3Ap%40h.example%2Fc"
        ),
    );
    assert!(
        matches!(to_fetch(&mut world.host, &strict, &bad, &target(&bad).unwrap()), Ok(Fetch::Refuse(r)) if r.status == 400)
    );
    // A document on a host that is not public is refused before anything is
    // fetched, in every spelling of it (no port-scan oracle).
    for client_id in [
        "https://127.0.0.1:9/c.json",
        "https://localhost:9/c.json",
        "https://2130706433:9/c.json",
        "https://127.0.0.%31:9/c.json",
        "https://[::ffff:7f00:1]:9/c.json",
        "https://169.254.169.254/c.json",
    ] {
        let asked = Request::new(
            Method::Get,
            format!(
                "{ORIGIN}/networks/demo/oauth/authorize?client_id={}",
                form::escape(client_id)
            ),
        );
        let refused = to_fetch(&mut world.host, &strict, &asked, &target(&asked).unwrap());
        let Ok(Fetch::Refuse(page)) = refused else {
            panic!("{client_id}: {refused:?}")
        };
        assert_eq!(page.status, 400, "{client_id}");
        assert!(html(&page).contains("url_private_address"), "{client_id}");
    }
    // The operator may allow a host (tests, private deployments).
    let local = crate::outbound::OutboundPolicy::allowing(["127.0.0.1"]);
    let asked = Request::new(
        Method::Get,
        format!(
            "{ORIGIN}/networks/demo/oauth/authorize?client_id={}",
            form::escape("https://127.0.0.1:9/c.json")
        ),
    );
    assert!(matches!(
        to_fetch(&mut world.host, &local, &asked, &target(&asked).unwrap()),
        Ok(Fetch::Document(_))
    ));
}
