//! Tests of level 1 challenges ([`super::Challenges`]).

use super::*;
use crate::crypto::to_hex;
use ed25519_dalek::{Signer, SigningKey};

/// `openagents:bob` with a registered key in network `net1`, and the network's challenges.
struct Bob {
    key: SigningKey,
    keys: StaticKeys,
    address: Address,
    net: NetworkId,
    challenges: Challenges,
}

impl Bob {
    fn new() -> Self {
        let key = SigningKey::from_bytes(&[7; 32]);
        let address: Address = "openagents:bob".parse().unwrap();
        let mut keys = StaticKeys::default();
        keys.insert(address.clone(), key.verifying_key().to_bytes());
        let net = "net1".parse().unwrap();
        let challenges = Challenges::default();
        Self {
            key,
            keys,
            address,
            net,
            challenges,
        }
    }

    /// A challenge for `address` (keyed), asked by `holder` at `at`.
    fn issue_to(
        &mut self,
        address: &Address,
        holder: Holder,
        nonce: &str,
        at: u64,
    ) -> Result<Timestamp, Rejection> {
        let time = Timestamp::from(at);
        self.challenges
            .issue(address, holder, nonce.into(), true, time)
    }

    /// A challenge for Bob, asked by `holder` at `at`.
    fn issue(&mut self, holder: Holder, nonce: &str, at: u64) -> Result<Timestamp, Rejection> {
        let bob = self.address.clone();
        self.issue_to(&bob, holder, nonce, at)
    }

    /// Bob's key's signature of the challenge `nonce` in network `net`.
    fn sign_in(&self, net: &NetworkId, nonce: &str) -> String {
        let message = challenge_message(net, &self.address, nonce);
        to_hex(&self.key.sign(&message).to_bytes())
    }

    fn sign(&self, nonce: &str) -> String {
        self.sign_in(&self.net, nonce)
    }

    /// The answer `signature` to `nonce` for `address`, from `holder` at `at`.
    fn verify_as(
        &mut self,
        address: &Address,
        holder: &Holder,
        nonce: &str,
        signature: &str,
        at: u64,
    ) -> Result<(), Rejection> {
        let time = Timestamp::from(at);
        let (keys, net) = (&self.keys, &self.net);
        self.challenges
            .verify(keys, net, address, holder, nonce, signature, time)
    }

    /// Bob's answer `signature` to `nonce`, from `holder` at `at`.
    fn verify(
        &mut self,
        holder: &Holder,
        nonce: &str,
        signature: &str,
        at: u64,
    ) -> Result<(), Rejection> {
        let bob = self.address.clone();
        self.verify_as(&bob, holder, nonce, signature, at)
    }
}

fn socket(id: u64) -> Holder {
    Holder::Connection(id)
}

#[test]
fn a_good_signature_verifies_once() {
    let mut bob = Bob::new();
    bob.issue(socket(1), "n1", 100).unwrap();
    let sig = bob.sign("n1");
    assert_eq!(bob.verify(&socket(1), "n1", &sig, 200), Ok(()));
    let replay = bob.verify(&socket(1), "n1", &sig, 201).unwrap_err();
    assert_eq!(replay.code, ErrorCode::VerificationFailed);
    assert_eq!(bob.challenges.outstanding(), 0);
}

#[test]
fn expired_foreign_and_forged_fail() {
    let mut bob = Bob::new();
    let h = socket(1);
    bob.issue(h.clone(), "old", 0).unwrap();
    let sig = bob.sign("old");
    assert!(bob.verify(&h, "old", &sig, CHALLENGE_TTL_MS + 1).is_err());

    // Eve's challenge answered with Bob's key.
    let eve: Address = "openagents:eve".parse().unwrap();
    bob.issue_to(&eve, h.clone(), "eves", 0).unwrap();
    let signed = bob.sign("eves");
    assert!(bob.verify(&h, "eves", &signed, 1).is_err());

    // Signed for another network.
    bob.issue(h.clone(), "other-net", 0).unwrap();
    let signed = bob.sign_in(&"net2".parse().unwrap(), "other-net");
    assert!(bob.verify(&h, "other-net", &signed, 1).is_err());

    bob.issue(h.clone(), "bad", 0).unwrap();
    assert!(bob.verify(&h, "bad", "zz", 1).is_err());
}

#[test]
fn only_registered_agents_get_challenges() {
    let mut bob = Bob::new();
    let local: Address = "agent:local".parse().unwrap();
    let err = bob.issue_to(&local, socket(1), "n", 0).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidAddress);
}

#[test]
fn a_nonce_is_good_only_for_the_connection_that_asked() {
    let mut bob = Bob::new();
    bob.issue(socket(1), "mine", 0).unwrap();
    let sig = bob.sign("mine");
    let stolen = bob.verify(&socket(2), "mine", &sig, 1).unwrap_err();
    assert!(stolen.message.contains("another connection"), "{stolen}");
    // Over HTTP the address holds it.
    let http = Holder::Address(bob.address.clone());
    bob.issue(http.clone(), "http", 0).unwrap();
    let sig = bob.sign("http");
    assert_eq!(bob.verify(&http, "http", &sig, 1), Ok(()));
}

#[test]
fn a_flood_of_challenges_never_evicts_someone_elses_nonce() {
    let mut bob = Bob::new();
    bob.issue(socket(1), "bobs", 0).unwrap();
    // An attacker's socket asks for the same address again and again: it
    // keeps only its own last few nonces.
    for n in 0..1_000 {
        bob.issue(socket(666), &format!("flood-{n}"), 1).unwrap();
    }
    assert_eq!(bob.challenges.outstanding(), 1 + MAX_NONCES_PER_HOLDER);
    // Many attacking sockets fill the network's table: new challenges are
    // refused, old ones stay.
    let refused = (0..MAX_OUTSTANDING_CHALLENGES as u64)
        .find_map(|n| bob.issue(socket(1_000 + n), &format!("s{n}"), 2).err());
    assert_eq!(refused.map(|e| e.code), Some(ErrorCode::RateLimited));
    let sig = bob.sign("bobs");
    assert_eq!(bob.verify(&socket(1), "bobs", &sig, 3), Ok(()));
    // Full again; once they expire there is room.
    bob.issue(socket(2), "refill", 3).unwrap();
    assert_eq!(bob.challenges.outstanding(), MAX_OUTSTANDING_CHALLENGES);
    bob.issue(socket(3), "later", CHALLENGE_TTL_MS + 10)
        .unwrap();
    assert_eq!(bob.challenges.outstanding(), 1);
}

#[test]
fn nonces_for_addresses_without_a_key_are_not_kept() {
    let mut bob = Bob::new();
    let nobody: Address = "openagents:nobody".parse().unwrap();
    for n in 0..100 {
        let time = Timestamp::from(0);
        bob.challenges
            .issue(&nobody, socket(n), format!("n{n}"), false, time)
            .unwrap();
    }
    assert_eq!(bob.challenges.outstanding(), 0);
    let err = bob
        .verify_as(&nobody, &socket(1), "n1", &"0".repeat(128), 1)
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::VerificationFailed);
}
