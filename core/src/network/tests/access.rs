//! The auth matrix: each way in that must fail, with its exact code.

use super::*;
use crate::crypto::to_hex;
use crate::model::config::{Access, AccessPolicy};
use crate::verification::{StaticKeys, challenge_message};
use ed25519_dalek::{Signer, SigningKey};

fn secured(access: Access) -> Network {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Secured");
    config.access = access;
    config.mods = vec![ModConfig::Auth, ModConfig::AccessControl];
    config.validate().unwrap();
    Network::new(config, [], 0, [5; 32])
}

fn with_policy(policy: AccessPolicy) -> Network {
    secured(Access {
        policy,
        ..Access::open()
    })
}

/// Asserts that joining as `name` with `payload` is denied.
fn assert_denied(network: &mut Network, name: &str, payload: Value) {
    let effects = try_join(network, name, payload.clone());
    assert_eq!(error_code(&effects), ErrorCode::AccessDenied, "{payload}");
}

#[test]
fn spoofed_source_is_rejected() {
    let (mut network, mut alice) = bare_with("agent:alice");
    join(&mut network, "agent:bob");
    let forged = Peer::new("agent:bob").client.clone().event(
        "chat.msg".parse().unwrap(),
        addr("agent:alice"),
        json!({}),
        Timestamp::from(1),
    );
    assert_eq!(
        error_code(&network.handle_event(Some(&alice.address.clone()), forged, Timestamp::from(1))),
        ErrorCode::SourceMismatch
    );
    let unjoined = alice.event("chat.msg", "agent:bob", json!({}));
    assert_eq!(
        error_code(&network.handle_event(None, unjoined, Timestamp::from(1))),
        ErrorCode::NotJoined
    );
}

#[test]
fn observer_cannot_emit_but_receives() {
    let mut network = bare();
    let mut watcher = join_with(&mut network, "agent:watcher", json!({"role": "observer"}));
    assert_eq!(
        network.member(&watcher.address).unwrap().role,
        Role::Observer
    );
    assert_eq!(
        error_code(&watcher.broadcast(&mut network, "chat.msg", json!({}))),
        ErrorCode::Forbidden
    );
    let pong = watcher.ask(&mut network, "network.ping", json!({}));
    reply_of_type(&pong, core_types::PONG);
    let mut alice = join(&mut network, "agent:alice");
    assert_eq!(
        delivered_to(&alice.broadcast(&mut network, "chat.msg", json!({}))),
        ["agent:watcher"]
    );
}

#[test]
fn agents_cannot_emit_network_answers() {
    let (mut network, mut alice) = bare_with("agent:alice");
    for kind in [
        "network.pong",
        "network.event.error",
        "network.agent.discover.response",
        "network.events.response",
    ] {
        assert_eq!(
            error_code(&alice.send(&mut network, kind, "agent:alice", json!({}))),
            ErrorCode::ReservedType,
            "{kind}"
        );
    }
    assert_eq!(
        error_code(&alice.ask(&mut network, "network.made.up", json!({}))),
        ErrorCode::InvalidRequest
    );
}

#[test]
fn non_member_cannot_post_to_a_channel_under_access_control() {
    let mut network = network_with(vec![ModConfig::AccessControl]);
    let [mut alice, mut eve] = join_all(&mut network, ["agent:alice", "agent:eve"]);
    alice.ask(&mut network, CHANNEL_CREATE, json!({"channel": "private"}));
    assert_eq!(
        error_code(&eve.send(&mut network, "chat.msg", "channel/private", json!({}))),
        ErrorCode::Forbidden
    );
    eve.ask(
        &mut network,
        CHANNEL_JOIN,
        json!({"channel": "channel/private"}),
    );
    assert!(
        !delivered_to(&eve.send(&mut network, "chat.msg", "channel/private", json!({}))).is_empty()
    );
}

#[test]
fn non_member_cannot_read_a_channel_history() {
    let mut network = network_with(vec![ModConfig::AccessControl, ModConfig::Persistence]);
    let [mut alice, mut eve] = join_all(&mut network, ["agent:alice", "agent:eve"]);
    alice.ask(&mut network, CHANNEL_CREATE, json!({"channel": "private"}));
    let effects = eve.ask(
        &mut network,
        EVENTS_QUERY,
        json!({"target": "channel/private"}),
    );
    assert_eq!(error_code(&effects), ErrorCode::Forbidden);
}

#[test]
fn missing_permission_is_forbidden() {
    let mut network = network_with(vec![ModConfig::AccessControl]);
    let [mut owner, mut alice] = join_all(&mut network, ["agent:owner", "agent:alice"]);
    owner.register(
        &mut network,
        json!({
            "address": "resource/tool/secret", "description": "owner only",
            "permissions": {"invoke": "owner", "read": "network"}
        }),
    );
    assert_eq!(
        error_code(&alice.send(
            &mut network,
            "network.resource.invoke",
            "resource/tool/secret",
            json!({})
        )),
        ErrorCode::Forbidden
    );
    assert_eq!(
        error_code(&alice.send(
            &mut network,
            "network.resource.unregister",
            "core",
            json!({"address": "resource/tool/secret"})
        )),
        ErrorCode::Forbidden
    );
    assert_eq!(
        error_code(&alice.send(
            &mut network,
            "network.resource.update",
            "resource/tool/secret",
            json!({"description": "mine"})
        )),
        ErrorCode::Forbidden
    );
}

#[test]
fn token_policy() {
    let mut network = secured(Access::token("s3cret"));
    assert_denied(&mut network, "agent:a", json!({}));
    let guess = json!({"credentials": {"token": "guess"}});
    assert_denied(&mut network, "agent:a", guess);
    assert!(
        try_join(
            &mut network,
            "agent:a",
            json!({"credentials": {"token": "s3cret"}})
        )
        .contains(&Effect::Bind(addr("agent:a")))
    );
}

#[test]
fn invite_policy_uses_each_invitation_once() {
    let mut network = with_policy(AccessPolicy::Invite);
    assert_denied(&mut network, "agent:bob", json!({}));
    // Seed a first member the way a host does for a new invite network: a master row.
    let host = master_row("agent:host");
    network.state.members.insert(host.address.clone(), host);
    let mut inviter = Peer::new("agent:host");
    let effects = inviter.ask(
        &mut network,
        "network.agent.invite",
        json!({"invitee": "agent:bob"}),
    );
    let code = acked(&effects).payload["code"].as_str().unwrap().to_owned();
    let invited = json!({"credentials": {"invite": code}});
    let with_secret =
        json!({"credentials": {"invite": code, "member_secret": "bobs-secret-0123456789"}});
    assert_denied(&mut network, "agent:carol", invited.clone());
    let ok = try_join(&mut network, "agent:bob", with_secret.clone());
    assert!(ok.contains(&Effect::Remove {
        kind: RowKind::Invitation,
        key: code.clone()
    }));
    assert_denied(&mut network, "agent:bob", invited);
    // Bob comes back (a reload, a reconnect): his member secret lets him in without a new invitation.
    let back = try_join(&mut network, "agent:bob", with_secret);
    assert!(back.contains(&Effect::Bind(addr("agent:bob"))), "{back:?}");
    for credentials in [
        json!({"member_secret": "not-bobs-secret-000000"}),
        json!({}),
    ] {
        assert_denied(
            &mut network,
            "agent:bob",
            json!({ "credentials": credentials }),
        );
    }
    // A member without a secret (the seeded host) is not let in by claiming its address.
    let claim = json!({"credentials": {"member_secret": "anything-at-all-0000"}});
    assert_denied(&mut network, "agent:host", claim);
}

#[test]
fn did_verify_refuses_a_join_without_a_did_proof() {
    let mut network = with_policy(AccessPolicy::DidVerify);
    assert_denied(&mut network, "openagents:x", json!({}));
}

#[test]
fn unsafe_configurations_are_refused() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "x");
    config.access = Access::token("t");
    assert!(
        config.validate().is_err(),
        "token without mod/auth would admit anyone"
    );
    config.mods = vec![ModConfig::Auth, ModConfig::Auth];
    assert!(config.validate().is_err());
}

fn key_network(min: Verification) -> (Network, SigningKey) {
    let key = SigningKey::from_bytes(&[42; 32]);
    let mut network = secured(Access {
        min_verification: min,
        ..Access::open()
    });
    let mut keys = StaticKeys::default();
    keys.insert(addr("openagents:bob"), key.verifying_key().to_bytes());
    network.set_key_registry(Box::new(keys));
    (network, key)
}

fn challenge(network: &mut Network, name: &str) -> String {
    let mut peer = Peer::new(name);
    let ask = peer.event("network.agent.challenge", "core", json!({}));
    let effects = network.handle_event(None, ask, Timestamp::from(1));
    reply_of_type(&effects, core_types::AGENT_CHALLENGE_RESPONSE).payload["nonce"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn signed(key: &SigningKey, name: &str, nonce: &str) -> Value {
    let sig = key.sign(&challenge_message(
        &"demo".parse().unwrap(),
        &addr(name),
        nonce,
    ));
    json!({"credentials": {"nonce": nonce, "signature": to_hex(&sig.to_bytes())}})
}

#[test]
fn key_proof_reaches_level_1_and_nonces_do_not_replay() {
    let (mut network, key) = key_network(Verification::KEY_PROOF);
    // A registered key makes its proof mandatory.
    assert_eq!(
        error_code(&try_join(&mut network, "openagents:bob", json!({}))),
        ErrorCode::VerificationFailed
    );
    let nonce = challenge(&mut network, "openagents:bob");
    let ok = try_join(
        &mut network,
        "openagents:bob",
        signed(&key, "openagents:bob", &nonce),
    );
    assert!(ok.contains(&Effect::Bind(addr("openagents:bob"))));
    assert_eq!(
        network
            .member(&addr("openagents:bob"))
            .unwrap()
            .verification,
        Verification::KEY_PROOF
    );
    assert_eq!(
        error_code(&try_join(
            &mut network,
            "openagents:bob",
            signed(&key, "openagents:bob", &nonce)
        )),
        ErrorCode::VerificationFailed
    );
}

#[test]
fn expired_foreign_and_forged_proofs_fail() {
    let (mut network, key) = key_network(Verification::KEY_PROOF);
    let nonce = challenge(&mut network, "openagents:bob");
    let effects = try_join_at(
        &mut network,
        "openagents:bob",
        signed(&key, "openagents:bob", &nonce),
        1 + crate::verification::CHALLENGE_TTL_MS + 1,
    );
    assert_eq!(error_code(&effects), ErrorCode::VerificationFailed);

    let for_eve = challenge(&mut network, "openagents:eve");
    assert_eq!(
        error_code(&try_join(
            &mut network,
            "openagents:bob",
            signed(&key, "openagents:bob", &for_eve)
        )),
        ErrorCode::VerificationFailed
    );

    let nonce = challenge(&mut network, "openagents:bob");
    let other = SigningKey::from_bytes(&[1; 32]);
    assert_eq!(
        error_code(&try_join(
            &mut network,
            "openagents:bob",
            signed(&other, "openagents:bob", &nonce)
        )),
        ErrorCode::VerificationFailed
    );
}

#[test]
fn discover_lists_a_private_channel_only_to_those_who_may_join_it() {
    let mut network = bare();
    let [mut alice, mut bob, mut eve] =
        join_all(&mut network, ["agent:alice", "agent:bob", "agent:eve"]);
    create_private(&mut network, &mut alice, "plans", &["agent:bob"]);
    alice.ask(&mut network, CHANNEL_CREATE, json!({"channel": "lobby"}));
    let mut channels_seen_by = |peer: &mut Peer| {
        let effects = peer.ask(&mut network, "network.agent.discover", json!({}));
        let roster = reply_of_type(&effects, "network.agent.discover.response");
        roster.payload["channels"].clone()
    };
    assert_eq!(
        channels_seen_by(&mut alice),
        json!(["channel/lobby", "channel/plans"])
    );
    assert_eq!(
        channels_seen_by(&mut bob),
        json!(["channel/lobby", "channel/plans"]),
        "bob is invited"
    );
    assert_eq!(
        channels_seen_by(&mut eve),
        json!(["channel/lobby"]),
        "eve never learns the private channel's name"
    );
}
