//! A member's OAuth tokens and MCP sessions end with its membership: after a
//! master removes or bans it, or it leaves, its old access token initializes
//! no MCP session and its refresh token is refused — also when someone else
//! has joined under the same address since.

use super::*;
use crate::bindings::oauth::grants::GrantKind;
use crate::{Address, Network, NetworkConfig};

const BOSS: &str = "agent:boss";
const CLAUDE: &str = "agent:claude";

/// A world whose network has `agent:boss` as its master; the boss's session token.
fn world_with_master() -> (World, String) {
    let mut world = world();
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.masters = vec![BOSS.parse().unwrap()];
    world.network = Network::new(config, [], 0, [7; 32]);
    let token = world.join(BOSS);
    (world, token)
}

fn http(world: &mut World, path: &str, token: &str, body: Value) -> Response {
    let req = Request::new(Method::Post, format!("{ORIGIN}/networks/demo/{path}"))
        .with_header("Authorization", &format!("Bearer {token}"))
        .with_body(body.to_string());
    world.call(&req)
}

/// `agent:claude` consents for an MCP client; its `(client, access, refresh)`.
fn tokens_of_claude(world: &mut World) -> (String, String, String) {
    let (client, code) = code_for(world, "claude");
    let tokens = redeem(world, &client, &code).json_body().unwrap().clone();
    let access = tokens["access_token"].as_str().unwrap().to_owned();
    let refresh = tokens["refresh_token"].as_str().unwrap().to_owned();
    assert_eq!(initialize(world, &access).status, 200);
    (client, access, refresh)
}

fn refresh(world: &mut World, client: &str, token: &str) -> Response {
    token_request(
        world,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", token),
            ("client_id", client),
            ("resource", MCP),
        ],
    )
}

/// Nothing is left that lets a client act as `member`.
fn holds_nothing(world: &World, member: &str) {
    let host = &world.host;
    assert!(!host.grants.values().any(|g| g.address == member), "grants");
    assert!(
        !host.sessions.values().any(|s| s.address == member),
        "sessions"
    );
    let member: Address = member.parse().unwrap();
    assert!(
        !host.mcp_sessions.values().any(|s| s.member == member),
        "MCP sessions"
    );
}

#[test]
fn removed_or_banned_the_old_tokens_are_refused_even_for_a_newcomer_of_that_name() {
    for (route, newcomer_joins) in [("members/remove", true), ("members/ban", false)] {
        let (mut world, boss) = world_with_master();
        let (client, access, refresh_token) = tokens_of_claude(&mut world);
        assert!(holds_grant(&world, GrantKind::Refresh));
        let removed = http(
            &mut world,
            &format!("v1/admin/{route}"),
            &boss,
            json!({"address": CLAUDE}),
        );
        assert_eq!(removed.status, 200, "{route}: {removed:?}");
        holds_nothing(&world, CLAUDE);
        if newcomer_joins {
            // Someone else takes the name: the old tokens do not act as it.
            world.join(CLAUDE);
        }
        assert_eq!(initialize(&mut world, &access).status, 401, "{route}");
        assert_eq!(
            error_of(&refresh(&mut world, &client, &refresh_token)),
            (400, "invalid_grant"),
            "{route}"
        );
    }
}

#[test]
fn leaving_over_http_ends_the_members_tokens_too() {
    let (mut world, _) = world_with_master();
    let (client, access, refresh_token) = tokens_of_claude(&mut world);
    // A session of the same member (as an HTTP join with its secret would give).
    let Ok((session, _)) =
        crate::bindings::access::session::start(&mut world.host, &CLAUDE.parse().unwrap());
    let left = http(&mut world, "v1/leave", &session, json!({}));
    assert_eq!(left.status, 200, "{left:?}");
    holds_nothing(&world, CLAUDE);
    assert_eq!(initialize(&mut world, &access).status, 401);
    assert_eq!(
        error_of(&refresh(&mut world, &client, &refresh_token)),
        (400, "invalid_grant")
    );
}
