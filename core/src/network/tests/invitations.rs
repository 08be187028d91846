//! Reusable invitations: `max_uses` newcomers may join with one code before
//! it expires; a member coming back uses nothing; the last use voids it;
//! bad limits are refused.

use super::*;
use crate::model::config::{Access, AccessPolicy};

fn invite_network() -> Network {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Invited");
    config.access = Access {
        policy: AccessPolicy::Invite,
        ..Access::open()
    };
    config.mods = vec![ModConfig::Auth, ModConfig::AccessControl];
    config.validate().unwrap();
    let mut network = Network::new(config, [], 0, [5; 32]);
    network
        .state
        .members
        .insert(addr("agent:host"), master_row("agent:host"));
    network
}

fn invite(network: &mut Network, payload: Value) -> Vec<Effect> {
    Peer::new("agent:host").send(network, "workspace.invitation.created", "core", payload)
}

/// The ack of a reusable invitation for `max_uses` newcomers within `ttl_ms`.
fn reusable(network: &mut Network, max_uses: u64, ttl_ms: u64) -> Event {
    acked(&invite(
        network,
        json!({"max_uses": max_uses, "ttl_ms": ttl_ms}),
    ))
}

fn joined(effects: &[Effect], name: &str) -> bool {
    effects.contains(&Effect::Bind(addr(name)))
}

#[test]
fn a_reusable_invitation_admits_its_limit_of_newcomers_then_is_void() {
    let mut network = invite_network();
    let ack = reusable(&mut network, 2, 10_000);
    assert_eq!(ack.payload["max_uses"], 2);
    let code = ack.payload["code"].as_str().unwrap().to_owned();
    let with_code =
        |secret: &str| json!({"credentials": {"invite": code, "member_secret": secret}});
    let ann_secret = "anns-secret-0123456789";
    let (bob_secret, cat_secret) = ("bobs-secret-0123456789", "cats-secret-0123456789");
    let first = try_join_at(&mut network, "human:ann", with_code(ann_secret), 1);
    assert!(joined(&first, "human:ann"), "{first:?}");
    assert_eq!(
        network.invitation_for(&code, Timestamp::from(1)).unwrap()["uses_left"],
        1
    );
    // Ann coming back with the same code uses nothing.
    let back = try_join_at(&mut network, "human:ann", with_code(ann_secret), 2);
    assert!(joined(&back, "human:ann"), "{back:?}");
    assert_eq!(
        network.invitation_for(&code, Timestamp::from(2)).unwrap()["uses_left"],
        1
    );
    let second = try_join_at(&mut network, "human:bob", with_code(bob_secret), 3);
    assert!(joined(&second, "human:bob"), "{second:?}");
    assert!(second.contains(&Effect::Remove {
        kind: RowKind::Invitation,
        key: code.clone()
    }));
    let third = try_join_at(&mut network, "human:cat", with_code(cat_secret), 4);
    assert_eq!(
        error_code(&third),
        ErrorCode::AccessDenied,
        "the limit is spent"
    );
}

#[test]
fn a_reusable_invitation_expires() {
    let mut network = invite_network();
    let ack = reusable(&mut network, 50, 1_000);
    let code = ack.payload["code"].as_str().unwrap().to_owned();
    let late = try_join_at(
        &mut network,
        "human:dan",
        json!({"credentials": {"invite": code}}),
        5_000,
    );
    assert_eq!(error_code(&late), ErrorCode::AccessDenied);
}

#[test]
fn bad_use_limits_are_refused() {
    let mut network = invite_network();
    for payload in [
        json!({"max_uses": 0}),
        json!({"max_uses": 10_001}),
        json!({"max_uses": "5"}),
        json!({"max_uses": 2, "invitee": "human:ann"}),
    ] {
        assert_eq!(
            error_code(&invite(&mut network, payload.clone())),
            ErrorCode::InvalidRequest,
            "{payload}"
        );
    }
    // Without a limit, an invitation is used once, as before.
    let ack = acked(&invite(&mut network, json!({})));
    assert_eq!(ack.payload["max_uses"], 1);
}
