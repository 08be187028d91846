//! Registry engine tests: registration with a proof, unique names and
//! serials, rotation, revocation, tokens and documents.

use super::*;
use crate::identity::aic::AicIssuer;
use ed25519_dalek::{Signer, SigningKey};

fn registry() -> Registry {
    let config = RegistryConfig {
        issuer: "https://agents.test".into(),
        host: "agents.test".into(),
        aic: AicIssuer::new("0001", "00AGN").unwrap(),
        token_ttl_secs: TOKEN_TTL_SECS,
    };
    Registry::new(config, [42; 32])
}

fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

fn hex_of(k: &SigningKey) -> String {
    to_hex(k.verifying_key().as_bytes())
}

fn sign(k: &SigningKey, action: Action, name: &str, nonce: &str, detail: &str) -> String {
    to_hex(
        &k.sign(&proof_message(action, name, nonce, detail))
            .to_bytes(),
    )
}

fn proof<'a>(nonce: &'a str, signature: &'a str) -> Proof<'a> {
    Proof { nonce, signature }
}

const NOW: u64 = 1_764_000_000_000;

fn register(
    r: &mut Registry,
    name: &str,
    k: &SigningKey,
    nonce: &str,
) -> Result<AgentRecord, IdentityError> {
    r.challenge(name, nonce.into(), Timestamp::from(NOW))
        .unwrap();
    let sig = sign(k, Action::Register, name, nonce, &hex_of(k));
    r.register(
        name,
        &hex_of(k),
        proof(nonce, &sig),
        None,
        Timestamp::from(NOW),
    )
}

#[test]
fn registration_issues_unique_aics_and_names() {
    let mut r = registry();
    let alice = register(&mut r, "alice", &key(1), "n1").unwrap();
    let bob = register(&mut r, "bob", &key(2), "n2").unwrap();
    let a: crate::identity::Aic = alice.aic.parse().unwrap();
    let b: crate::identity::Aic = bob.aic.parse().unwrap();
    assert_ne!(a, b);
    assert_eq!(
        (a.provider(), a.entity(), a.year()),
        ("0001", "00AGN", 2025)
    );
    assert_eq!(
        register(&mut r, "alice", &key(3), "n3")
            .unwrap_err()
            .reason(),
        "name_taken"
    );
    // A reloaded registry continues the serials.
    let mut again = registry();
    again.load(alice.clone());
    again.load(bob.clone());
    let carol = register(&mut again, "carol", &key(4), "n4").unwrap();
    assert_eq!(carol.serial, bob.serial + 1);
    assert_eq!(
        alice.to_json(r.config())["did_wba"],
        "did:wba:agents.test:agents:alice"
    );
}

#[test]
fn a_registration_needs_a_fresh_proof_with_the_presented_key() {
    let mut r = registry();
    r.challenge("alice", "n1".into(), Timestamp::from(NOW))
        .unwrap();
    let presented = hex_of(&key(1));
    // Signed by `signer` for nonce n1, with key 1 presented: why it is refused.
    let mut refusal = |signer: u8| {
        let signature = sign(&key(signer), Action::Register, "alice", "n1", &presented);
        let refused = r.register(
            "alice",
            &presented,
            proof("n1", &signature),
            None,
            Timestamp::from(NOW),
        );
        refused.unwrap_err().reason()
    };
    assert_eq!(refusal(9), "bad_signature");
    // The nonce was spent by the failed attempt.
    assert_eq!(refusal(1), "invalid_challenge");
    r.challenge("alice", "n2".into(), Timestamp::from(NOW))
        .unwrap();
    let late = sign(&key(1), Action::Register, "alice", "n2", &hex_of(&key(1)));
    let expired = r.register(
        "alice",
        &hex_of(&key(1)),
        proof("n2", &late),
        None,
        Timestamp::from(NOW + CHALLENGE_TTL_MS),
    );
    assert_eq!(expired.unwrap_err().reason(), "invalid_challenge");
    assert!(
        r.challenge("Not A Name", "x".into(), Timestamp::from(NOW))
            .is_err()
    );
}

#[test]
fn rotation_needs_the_old_key_and_replaces_it_in_the_document() {
    let mut r = registry();
    register(&mut r, "alice", &key(1), "n1").unwrap();
    let did: Did = "did:openagents:alice".parse().unwrap();
    let doc = r.did_document(&did).unwrap();
    assert_eq!(
        crate::identity::did::document_key(&doc, &did, "key-1"),
        PublicKey::ed25519(key(1).verifying_key().as_bytes())
    );
    r.challenge("alice", "r1".into(), Timestamp::from(NOW))
        .unwrap();
    let by_new = sign(&key(2), Action::Rotate, "alice", "r1", &hex_of(&key(2)));
    assert!(
        r.rotate(
            "alice",
            &hex_of(&key(2)),
            proof("r1", &by_new),
            Timestamp::from(NOW)
        )
        .is_err()
    );
    r.challenge("alice", "r2".into(), Timestamp::from(NOW))
        .unwrap();
    let by_old = sign(&key(1), Action::Rotate, "alice", "r2", &hex_of(&key(2)));
    let record = r
        .rotate(
            "alice",
            &hex_of(&key(2)),
            proof("r2", &by_old),
            Timestamp::from(NOW + 1),
        )
        .unwrap();
    assert_eq!(record.keys.len(), 2);
    assert_eq!(
        record.current_key(),
        Some(*key(2).verifying_key().as_bytes())
    );
    let doc = r.did_document(&did).unwrap();
    assert_eq!(
        crate::identity::did::document_key(&doc, &did, "key-1"),
        PublicKey::ed25519(key(2).verifying_key().as_bytes())
    );
    // The wba form of the same agent has the same key; foreign hosts are not served.
    let wba = Did::wba_for_agent("agents.test", "alice");
    assert_eq!(r.did_document(&wba).unwrap()["id"], wba.to_string());
    assert_eq!(
        r.did_document(&Did::wba_for_agent("other.test", "alice"))
            .unwrap_err()
            .reason(),
        "unresolvable"
    );
}

#[test]
fn tokens_verify_with_the_jwks_and_stop_after_revocation() {
    let mut r = registry();
    let alice = register(&mut r, "alice", &key(1), "n1").unwrap();
    r.challenge("alice", "t1".into(), Timestamp::from(NOW))
        .unwrap();
    let sig = sign(&key(1), Action::Token, "alice", "t1", "net1");
    let token = r
        .token("alice", "net1", proof("t1", &sig), Timestamp::from(NOW))
        .unwrap();
    let jwks = Jwks::from_json(&r.jwks().to_json()).unwrap();
    let issuers = ["https://agents.test".to_owned()];
    let claims = jwt::verify(
        &token,
        &jwks,
        jwt::Expectations {
            issuers: &issuers,
            audience: "net1",
            now_secs: NOW / 1000 + 10,
        },
    )
    .unwrap();
    assert_eq!(claims.sub, "openagents:alice");
    assert_eq!(claims.aic.as_deref(), Some(alice.aic.as_str()));
    r.challenge("alice", "v1".into(), Timestamp::from(NOW))
        .unwrap();
    let sig = sign(&key(1), Action::Revoke, "alice", "v1", "");
    assert!(
        r.revoke("alice", proof("v1", &sig), Timestamp::from(NOW))
            .unwrap()
            .revoked_at
            .is_some()
    );
    assert_eq!(
        r.did_document(&"did:openagents:alice".parse().unwrap())
            .unwrap_err()
            .reason(),
        "revoked"
    );
    r.challenge("alice", "t2".into(), Timestamp::from(NOW))
        .unwrap();
    let sig = sign(&key(1), Action::Token, "alice", "t2", "net1");
    assert_eq!(
        r.token("alice", "net1", proof("t2", &sig), Timestamp::from(NOW))
            .unwrap_err()
            .reason(),
        "revoked"
    );
    assert_eq!(
        r.did_document(&"did:openagents:zed".parse().unwrap())
            .unwrap_err()
            .reason(),
        "not_registered"
    );
}
