//! Levels 2 and 3 at join: JWTs from trusted issuers, DID proofs, the
//! lookups the host must make first, and `did-verify` / `min_verification`.

use super::*;
use crate::identity::did::document;
use crate::identity::jwt::{Audience, Claims, issue};
use crate::identity::keys::PublicKey;
use crate::identity::registry::{Registry, RegistryConfig};
use crate::ids::event_type::core_types;
use crate::model::config::{Access, AccessPolicy, ModConfig, NetworkConfig};
use crate::network::effects::Effect;
use crate::network::tests::{Peer, addr, error_code, reply_of_type};
use ed25519_dalek::{Signer, SigningKey};
use serde_json::json;

const ISSUER: &str = "https://agents.test";
const NOW: u64 = 1_764_000_000_000;

fn network(policy: AccessPolicy, min: u8) -> Network {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Identity");
    config.access = Access {
        policy,
        min_verification: Verification::try_from(min).unwrap(),
        trusted_issuers: vec![ISSUER.into()],
        ..Access::open()
    };
    config.mods = vec![ModConfig::Auth, ModConfig::AccessControl];
    config.validate().unwrap();
    Network::new(config, [], 0, [5; 32])
}

/// The host hands `net` the registry's keys, as once it has fetched them.
fn provide_registry_keys(net: &mut Network) {
    net.provide_jwks(
        ISSUER,
        Ok(registry().jwks().to_json()),
        Timestamp::from(NOW),
    );
}

fn registry() -> Registry {
    let config = RegistryConfig {
        issuer: ISSUER.into(),
        host: "agents.test".into(),
        aic: Default::default(),
        token_ttl_secs: 300,
    };
    Registry::new(config, [9; 32])
}

fn token(sub: &str, aud: &str, did: Option<&str>) -> String {
    let claims = Claims {
        iss: ISSUER.into(),
        sub: sub.into(),
        aud: Audience::One(aud.into()),
        exp: NOW / 1000 + 300,
        iat: NOW / 1000,
        nbf: None,
        aic: None,
        did: did.map(str::to_owned),
    };
    issue(
        &[9; 32],
        &crate::identity::jwt::thumbprint(&crate::verification::public_key_of(&[9; 32])),
        &claims,
    )
}

/// Each test event gets its own time, so peers made afresh never repeat an id.
fn fresh_event(name: &str, kind: &str, payload: Value) -> Event {
    static CLOCK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(10);
    let at = CLOCK.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Peer::new(name).client.event(
        kind.parse().unwrap(),
        addr("core"),
        payload,
        Timestamp::from(at),
    )
}

fn join_event(name: &str, credentials: Value) -> Event {
    fresh_event(
        name,
        "network.agent.join",
        json!({"credentials": credentials}),
    )
}

fn joined(effects: &[Effect], name: &str) -> bool {
    effects.contains(&Effect::Bind(addr(name)))
}

#[test]
fn a_trusted_jwt_joins_at_level_2_once_the_host_provided_the_jwks() {
    let mut net = network(AccessPolicy::Open, 2);
    let event = join_event(
        "openagents:alice",
        json!({"jwt": token("openagents:alice", "demo", None)}),
    );
    assert_eq!(
        net.identity_lookups(&event, Timestamp::from(NOW)),
        vec![Lookup::Jwks {
            issuer: ISSUER.into()
        }]
    );
    let refused = net.handle_event(None, event.clone(), Timestamp::from(NOW));
    assert_eq!(
        error_code(&refused),
        ErrorCode::VerificationFailed,
        "no keys yet"
    );
    provide_registry_keys(&mut net);
    assert!(
        net.identity_lookups(&event, Timestamp::from(NOW))
            .is_empty()
    );
    let event = join_event(
        "openagents:alice",
        json!({"jwt": token("openagents:alice", "demo", None)}),
    );
    assert!(joined(
        &net.handle_event(None, event, Timestamp::from(NOW)),
        "openagents:alice"
    ));
    assert_eq!(
        net.member(&addr("openagents:alice")).unwrap().verification,
        Verification::TOKEN
    );
    // After the cache time the keys are fetched again.
    let later = join_event(
        "openagents:alice",
        json!({"jwt": token("openagents:alice", "demo", None)}),
    );
    assert_eq!(
        net.identity_lookups(&later, Timestamp::from(NOW + IDENTITY_TTL_MS))
            .len(),
        1
    );
}

#[test]
fn jwts_for_others_from_strangers_or_for_other_networks_are_refused() {
    let mut net = network(AccessPolicy::Open, 2);
    provide_registry_keys(&mut net);
    for (name, jwt) in [
        ("openagents:bob", token("openagents:alice", "demo", None)),
        ("openagents:alice", token("openagents:alice", "other", None)),
        ("openagents:alice", "e30.e30.".to_owned()),
    ] {
        let effects = net.handle_event(
            None,
            join_event(name, json!({"jwt": jwt})),
            Timestamp::from(NOW),
        );
        assert_eq!(
            error_code(&effects),
            ErrorCode::VerificationFailed,
            "{name}"
        );
    }
    // Level 0 is below this network's minimum.
    let effects = net.handle_event(
        None,
        join_event("agent:anon", json!({})),
        Timestamp::from(NOW),
    );
    assert_eq!(error_code(&effects), ErrorCode::AccessDenied);
}

#[test]
fn a_token_naming_a_revoked_did_is_refused() {
    let mut net = network(AccessPolicy::Open, 2);
    provide_registry_keys(&mut net);
    let jwt = token("openagents:alice", "demo", Some("did:openagents:alice"));
    let event = join_event("openagents:alice", json!({"jwt": jwt}));
    let did: Did = "did:openagents:alice".parse().unwrap();
    assert_eq!(
        net.identity_lookups(&event, Timestamp::from(NOW)),
        vec![Lookup::Document { did: did.clone() }]
    );
    net.provide_document(
        &did,
        Err(IdentityError::Revoked("openagents:alice".into())),
        Timestamp::from(NOW),
    );
    let effects = net.handle_event(None, event, Timestamp::from(NOW));
    assert_eq!(error_code(&effects), ErrorCode::VerificationFailed);
}

fn wba_doc(did: &Did, key: PublicKey) -> Value {
    document(did, &[("key-1".into(), key)], vec![])
}

/// The document of `did` with `key`'s ed25519 public key as its `key-1`.
fn ed25519_doc(did: &Did, key: &SigningKey) -> Value {
    wba_doc(
        did,
        PublicKey::ed25519(key.verifying_key().as_bytes()).unwrap(),
    )
}

fn challenge(net: &mut Network, name: &str, did: &str) -> String {
    let ask = fresh_event(name, "network.agent.challenge", json!({"did": did}));
    let effects = net.handle_event(None, ask, Timestamp::from(NOW));
    reply_of_type(&effects, core_types::AGENT_CHALLENGE_RESPONSE).payload["nonce"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn a_did_wba_proof_joins_a_did_verify_network_at_level_3() {
    let mut net = network(AccessPolicy::DidVerify, 0);
    let did: Did = "did:wba:agents.example%3A9999:agents:carol"
        .parse()
        .unwrap();
    let key = SigningKey::from_bytes(&[3; 32]);
    net.provide_document(&did, Ok(ed25519_doc(&did, &key)), Timestamp::from(NOW));
    let nonce = challenge(&mut net, "agent:carol", &did.to_string());
    let message = crate::verification::challenge_message(net.id(), &addr("agent:carol"), &nonce);
    let signature = crate::identity::encoding::b64url(&key.sign(&message).to_bytes());
    let credentials = json!({"did": did.to_string(), "nonce": nonce, "signature": signature, "verification_method": "key-1"});
    assert!(joined(
        &net.handle_event(
            None,
            join_event("agent:carol", credentials.clone()),
            Timestamp::from(NOW)
        ),
        "agent:carol"
    ));
    let member = net.member(&addr("agent:carol")).unwrap();
    assert_eq!(
        (member.verification, member.did.as_deref()),
        (Verification::DID, Some(did.to_string().as_str()))
    );
    // The nonce was single use; a plain or JWT join is below level 3 here.
    assert_eq!(
        error_code(&net.handle_event(
            None,
            join_event("agent:carol", credentials),
            Timestamp::from(NOW)
        )),
        ErrorCode::VerificationFailed
    );
    provide_registry_keys(&mut net);
    let jwt = token("openagents:alice", "demo", None);
    assert_eq!(
        error_code(&net.handle_event(
            None,
            join_event("openagents:alice", json!({"jwt": jwt})),
            Timestamp::from(NOW)
        )),
        ErrorCode::AccessDenied
    );
}

#[test]
fn a_secp256k1_key_proves_a_did_and_a_foreign_key_does_not() {
    let mut net = network(AccessPolicy::Open, 3);
    let did: Did = "did:wba:example.com:dan".parse().unwrap();
    let secret = k256::ecdsa::SigningKey::from_slice(&[8; 32]).unwrap();
    net.provide_document(
        &did,
        Ok(wba_doc(&did, PublicKey::Secp256k1(*secret.verifying_key()))),
        Timestamp::from(NOW),
    );
    let sign = |nonce: &str, key: &k256::ecdsa::SigningKey| {
        let message = crate::verification::challenge_message(
            &"demo".parse().unwrap(),
            &addr("agent:dan"),
            nonce,
        );
        let sig: k256::ecdsa::Signature = k256::ecdsa::signature::Signer::sign(key, &message);
        crate::identity::encoding::b64url(&sig.to_bytes())
    };
    let nonce = challenge(&mut net, "agent:dan", &did.to_string());
    let other = k256::ecdsa::SigningKey::from_slice(&[9; 32]).unwrap();
    let forged = json!({"did": did.to_string(), "nonce": nonce, "signature": sign(&nonce, &other)});
    assert_eq!(
        error_code(&net.handle_event(None, join_event("agent:dan", forged), Timestamp::from(NOW))),
        ErrorCode::VerificationFailed
    );
    let nonce = challenge(&mut net, "agent:dan", &did.to_string());
    let good = json!({"did": did.to_string(), "nonce": nonce, "signature": sign(&nonce, &secret)});
    assert!(joined(
        &net.handle_event(None, join_event("agent:dan", good), Timestamp::from(NOW)),
        "agent:dan"
    ));
}

#[test]
fn did_openagents_joins_only_as_its_own_name_and_not_after_rotation() {
    let mut net = network(AccessPolicy::DidVerify, 0);
    let did: Did = "did:openagents:erin".parse().unwrap();
    let key = SigningKey::from_bytes(&[4; 32]);
    net.provide_document(&did, Ok(ed25519_doc(&did, &key)), Timestamp::from(NOW));
    let proof = |net: &mut Network, name: &str, key: &SigningKey| {
        let nonce = challenge(net, name, &did.to_string());
        let message = crate::verification::challenge_message(net.id(), &addr(name), &nonce);
        json!({"did": did.to_string(), "nonce": nonce, "signature": crate::identity::encoding::b64url(&key.sign(&message).to_bytes())})
    };
    let impostor = proof(&mut net, "agent:erin", &key);
    assert_eq!(
        error_code(&net.handle_event(
            None,
            join_event("agent:erin", impostor),
            Timestamp::from(NOW)
        )),
        ErrorCode::VerificationFailed
    );
    let own = proof(&mut net, "openagents:erin", &key);
    assert!(joined(
        &net.handle_event(
            None,
            join_event("openagents:erin", own),
            Timestamp::from(NOW)
        ),
        "openagents:erin"
    ));
    // The registry rotated erin's key: once the host refreshes the document, the old key fails.
    let fresh = SigningKey::from_bytes(&[5; 32]);
    net.provide_document(
        &did,
        Ok(ed25519_doc(&did, &fresh)),
        Timestamp::from(NOW + 1),
    );
    let old = proof(&mut net, "openagents:erin", &key);
    assert_eq!(
        error_code(&net.handle_event(
            None,
            join_event("openagents:erin", old),
            Timestamp::from(NOW + 2)
        )),
        ErrorCode::VerificationFailed
    );
}
