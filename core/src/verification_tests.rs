//! Tests of level 1 challenges ([`super::Challenges`]).

use super::*;
use crate::crypto::to_hex;
use ed25519_dalek::{Signer, SigningKey};

fn setup() -> (SigningKey, StaticKeys, Address, NetworkId) {
    let key = SigningKey::from_bytes(&[7; 32]);
    let address: Address = "openagents:bob".parse().unwrap();
    let mut keys = StaticKeys::default();
    keys.insert(address.clone(), key.verifying_key().to_bytes());
    (key, keys, address, "net1".parse().unwrap())
}

fn sign(key: &SigningKey, net: &NetworkId, address: &Address, nonce: &str) -> String {
    to_hex(&key.sign(&challenge_message(net, address, nonce)).to_bytes())
}

fn socket(id: u64) -> Holder {
    Holder::Connection(id)
}

#[test]
fn a_good_signature_verifies_once() {
    let (key, keys, bob, net) = setup();
    let mut c = Challenges::default();
    c.issue(&bob, socket(1), "n1".into(), true, Timestamp::from(100))
        .unwrap();
    let sig = sign(&key, &net, &bob, "n1");
    assert_eq!(
        c.verify(
            &keys,
            &net,
            &bob,
            &socket(1),
            "n1",
            &sig,
            Timestamp::from(200)
        ),
        Ok(())
    );
    let replay = c
        .verify(
            &keys,
            &net,
            &bob,
            &socket(1),
            "n1",
            &sig,
            Timestamp::from(201),
        )
        .unwrap_err();
    assert_eq!(replay.code, ErrorCode::VerificationFailed);
    assert_eq!(c.outstanding(), 0);
}

#[test]
fn expired_foreign_and_forged_fail() {
    let (key, keys, bob, net) = setup();
    let mut c = Challenges::default();
    let h = socket(1);
    c.issue(&bob, h.clone(), "old".into(), true, Timestamp::from(0))
        .unwrap();
    let sig = sign(&key, &net, &bob, "old");
    assert!(
        c.verify(
            &keys,
            &net,
            &bob,
            &h,
            "old",
            &sig,
            Timestamp::from(CHALLENGE_TTL_MS + 1)
        )
        .is_err()
    );

    let eve: Address = "openagents:eve".parse().unwrap();
    c.issue(&eve, h.clone(), "eves".into(), true, Timestamp::from(0))
        .unwrap();
    let signed = sign(&key, &net, &bob, "eves");
    assert!(
        c.verify(&keys, &net, &bob, &h, "eves", &signed, Timestamp::from(1))
            .is_err()
    );

    c.issue(
        &bob,
        h.clone(),
        "other-net".into(),
        true,
        Timestamp::from(0),
    )
    .unwrap();
    let other: NetworkId = "net2".parse().unwrap();
    let signed = sign(&key, &other, &bob, "other-net");
    assert!(
        c.verify(
            &keys,
            &net,
            &bob,
            &h,
            "other-net",
            &signed,
            Timestamp::from(1)
        )
        .is_err()
    );

    c.issue(&bob, h.clone(), "bad".into(), true, Timestamp::from(0))
        .unwrap();
    assert!(
        c.verify(&keys, &net, &bob, &h, "bad", "zz", Timestamp::from(1))
            .is_err()
    );
}

#[test]
fn only_registered_agents_get_challenges() {
    let mut c = Challenges::default();
    let err = c
        .issue(
            &"agent:local".parse().unwrap(),
            socket(1),
            "n".into(),
            true,
            Timestamp::from(0),
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidAddress);
}

#[test]
fn a_nonce_is_good_only_for_the_connection_that_asked() {
    let (key, keys, bob, net) = setup();
    let mut c = Challenges::default();
    c.issue(&bob, socket(1), "mine".into(), true, Timestamp::from(0))
        .unwrap();
    let sig = sign(&key, &net, &bob, "mine");
    let stolen = c
        .verify(
            &keys,
            &net,
            &bob,
            &socket(2),
            "mine",
            &sig,
            Timestamp::from(1),
        )
        .unwrap_err();
    assert!(stolen.message.contains("another connection"), "{stolen}");
    // Over HTTP the address holds it.
    let http = Holder::Address(bob.clone());
    c.issue(&bob, http.clone(), "http".into(), true, Timestamp::from(0))
        .unwrap();
    let sig = sign(&key, &net, &bob, "http");
    assert_eq!(
        c.verify(&keys, &net, &bob, &http, "http", &sig, Timestamp::from(1)),
        Ok(())
    );
}

#[test]
fn a_flood_of_challenges_never_evicts_someone_elses_nonce() {
    let (key, keys, bob, net) = setup();
    let mut c = Challenges::default();
    c.issue(&bob, socket(1), "bobs".into(), true, Timestamp::from(0))
        .unwrap();
    // An attacker's socket asks for the same address again and again: it
    // keeps only its own last few nonces.
    for n in 0..1_000 {
        c.issue(
            &bob,
            socket(666),
            format!("flood-{n}"),
            true,
            Timestamp::from(1),
        )
        .unwrap();
    }
    assert_eq!(c.outstanding(), 1 + MAX_NONCES_PER_HOLDER);
    // Many attacking sockets fill the network's table: new challenges are
    // refused, old ones stay.
    let mut refused = None;
    for n in 0..MAX_OUTSTANDING_CHALLENGES as u64 {
        if let Err(err) = c.issue(
            &bob,
            socket(1_000 + n),
            format!("s{n}"),
            true,
            Timestamp::from(2),
        ) {
            refused = Some(err);
            break;
        }
    }
    assert_eq!(refused.map(|e| e.code), Some(ErrorCode::RateLimited));
    let sig = sign(&key, &net, &bob, "bobs");
    assert_eq!(
        c.verify(
            &keys,
            &net,
            &bob,
            &socket(1),
            "bobs",
            &sig,
            Timestamp::from(3)
        ),
        Ok(())
    );
    // Full again; once they expire there is room.
    c.issue(&bob, socket(2), "refill".into(), true, Timestamp::from(3))
        .unwrap();
    assert_eq!(c.outstanding(), MAX_OUTSTANDING_CHALLENGES);
    c.issue(
        &bob,
        socket(3),
        "later".into(),
        true,
        Timestamp::from(CHALLENGE_TTL_MS + 10),
    )
    .unwrap();
    assert_eq!(c.outstanding(), 1);
}

#[test]
fn nonces_for_addresses_without_a_key_are_not_kept() {
    let (_, keys, _, net) = setup();
    let mut c = Challenges::default();
    let nobody: Address = "openagents:nobody".parse().unwrap();
    for n in 0..100 {
        c.issue(
            &nobody,
            socket(n),
            format!("n{n}"),
            false,
            Timestamp::from(0),
        )
        .unwrap();
    }
    assert_eq!(c.outstanding(), 0);
    let err = c
        .verify(
            &keys,
            &net,
            &nobody,
            &socket(1),
            "n1",
            &"0".repeat(128),
            Timestamp::from(1),
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::VerificationFailed);
}
