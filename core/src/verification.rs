//! Verification level 1: Ed25519 challenge-response (seed 000 §5).
//!
//! 1. Before joining, the agent sends `network.agent.challenge` with its
//!    claimed (registered) address as `source`.
//! 2. The network answers `network.agent.challenge.response` with a nonce:
//!    single use, expiring after [`CHALLENGE_TTL_MS`], bound to this network
//!    and that address.
//! 3. The agent signs [`challenge_message`] with its private key and joins
//!    with `credentials: {nonce, signature}` (signature as hex).
//! 4. The network looks up the address's public key in a [`KeyRegistry`] and
//!    verifies. A replayed, expired or foreign nonce, an unknown key or a bad
//!    signature fails with `verification_failed`.

use crate::crypto::from_hex;
use crate::error::{ErrorCode, Rejection};
use crate::ids::address::{Address, Entity};
use crate::ids::network_id::NetworkId;
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use std::collections::BTreeMap;

/// How long a nonce stays valid.
pub const CHALLENGE_TTL_MS: u64 = 60_000;
/// Most outstanding challenges kept; the oldest are dropped beyond this.
pub const MAX_OUTSTANDING_CHALLENGES: usize = 10_000;

/// Where the network finds registered agents' public keys.
pub trait KeyRegistry {
    /// The Ed25519 public key registered for `address`, if any.
    fn public_key(&self, address: &Address) -> Option<[u8; 32]>;
}

/// A registry held in memory, filled by the host.
#[derive(Debug, Clone, Default)]
pub struct StaticKeys(BTreeMap<Address, [u8; 32]>);

impl StaticKeys {
    /// Registers `key` for `address`.
    pub fn insert(&mut self, address: Address, key: [u8; 32]) {
        self.0.insert(address, key);
    }

    /// The keys a network's configuration registers (`keys`; invalid hex is skipped,
    /// [`crate::model::config::NetworkConfig::validate`] rejects it up front).
    pub fn from_config(config: &crate::model::config::NetworkConfig) -> Self {
        Self(
            config
                .keys
                .iter()
                .filter_map(|(address, hex)| Some((address.clone(), from_hex::<32>(hex)?)))
                .collect(),
        )
    }
}

impl KeyRegistry for StaticKeys {
    fn public_key(&self, address: &Address) -> Option<[u8; 32]> {
        self.0.get(address).copied()
    }
}

/// The exact bytes an agent signs to prove its key.
pub fn challenge_message(network: &NetworkId, address: &Address, nonce: &str) -> Vec<u8> {
    format!("agentnet-join-v1\n{network}\n{address}\n{nonce}").into_bytes()
}

/// The Ed25519 public key of a 32-byte secret key (seed).
pub fn public_key_of(secret: &[u8; 32]) -> [u8; 32] {
    SigningKey::from_bytes(secret).verifying_key().to_bytes()
}

/// The agent's side of step 3: signs [`challenge_message`] with `secret`
/// and returns the signature as the 128 hex characters `credentials.signature` carries.
pub fn sign_challenge(
    secret: &[u8; 32],
    network: &NetworkId,
    address: &Address,
    nonce: &str,
) -> String {
    let signature =
        SigningKey::from_bytes(secret).sign(&challenge_message(network, address, nonce));
    crate::crypto::to_hex(&signature.to_bytes())
}

#[derive(Debug, Clone)]
struct Challenge {
    address: Address,
    expires_at: u64,
    issued_at: u64,
}

/// Outstanding challenges of one network.
#[derive(Debug, Clone, Default)]
pub struct Challenges {
    open: BTreeMap<String, Challenge>,
}

fn failed(message: impl Into<String>) -> Rejection {
    Rejection::new(ErrorCode::VerificationFailed, message)
}

impl Challenges {
    /// Records a new nonce for `address`; returns its expiry time.
    pub fn issue(&mut self, address: &Address, nonce: String, now: u64) -> Result<u64, Rejection> {
        if !matches!(address.entity(), Entity::Registered { .. }) {
            return Err(Rejection::new(
                ErrorCode::InvalidAddress,
                format!("{address} is not a registered agent: key proof needs openagents:{{name}}"),
            ));
        }
        self.open.retain(|_, c| c.expires_at > now);
        if self.open.len() >= MAX_OUTSTANDING_CHALLENGES {
            let oldest = self
                .open
                .iter()
                .min_by_key(|(_, c)| c.issued_at)
                .map(|(k, _)| k.clone());
            if let Some(key) = oldest {
                self.open.remove(&key);
            }
        }
        let expires_at = now.saturating_add(CHALLENGE_TTL_MS);
        self.open.insert(
            nonce,
            Challenge {
                address: address.clone(),
                expires_at,
                issued_at: now,
            },
        );
        Ok(expires_at)
    }

    /// Checks a signed nonce and consumes it; returns the verified level on success.
    pub fn verify(
        &mut self,
        registry: &dyn KeyRegistry,
        network: &NetworkId,
        address: &Address,
        nonce: &str,
        signature_hex: &str,
        now: u64,
    ) -> Result<(), Rejection> {
        // Consume first: a nonce is good for one attempt, right or wrong.
        let challenge = self
            .open
            .remove(nonce)
            .ok_or_else(|| failed("unknown or already used nonce"))?;
        if challenge.expires_at <= now {
            return Err(failed("the nonce has expired"));
        }
        if &challenge.address != address {
            return Err(failed("the nonce was issued to another address"));
        }
        let key = registry
            .public_key(address)
            .ok_or_else(|| failed(format!("no key is registered for {address}")))?;
        let key = VerifyingKey::from_bytes(&key)
            .map_err(|_| failed("the registered key is not a valid Ed25519 key"))?;
        let signature = from_hex::<64>(signature_hex)
            .ok_or_else(|| failed("signature must be 128 hex characters"))?;
        key.verify_strict(
            &challenge_message(network, address, nonce),
            &Signature::from_bytes(&signature),
        )
        .map_err(|_| failed("the signature does not match the registered key"))
    }
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn a_good_signature_verifies_once() {
        let (key, keys, bob, net) = setup();
        let mut c = Challenges::default();
        c.issue(&bob, "n1".into(), 100).unwrap();
        let sig = sign(&key, &net, &bob, "n1");
        assert_eq!(c.verify(&keys, &net, &bob, "n1", &sig, 200), Ok(()));
        let replay = c.verify(&keys, &net, &bob, "n1", &sig, 201).unwrap_err();
        assert_eq!(replay.code, ErrorCode::VerificationFailed);
    }

    #[test]
    fn expired_foreign_and_forged_fail() {
        let (key, keys, bob, net) = setup();
        let mut c = Challenges::default();
        c.issue(&bob, "old".into(), 0).unwrap();
        let sig = sign(&key, &net, &bob, "old");
        assert!(
            c.verify(&keys, &net, &bob, "old", &sig, CHALLENGE_TTL_MS + 1)
                .is_err()
        );

        let eve: Address = "openagents:eve".parse().unwrap();
        c.issue(&eve, "eves".into(), 0).unwrap();
        assert!(
            c.verify(
                &keys,
                &net,
                &bob,
                "eves",
                &sign(&key, &net, &bob, "eves"),
                1
            )
            .is_err()
        );

        c.issue(&bob, "other-net".into(), 0).unwrap();
        let other: NetworkId = "net2".parse().unwrap();
        assert!(
            c.verify(
                &keys,
                &net,
                &bob,
                "other-net",
                &sign(&key, &other, &bob, "other-net"),
                1
            )
            .is_err()
        );

        c.issue(&bob, "bad".into(), 0).unwrap();
        assert!(c.verify(&keys, &net, &bob, "bad", "zz", 1).is_err());
    }

    #[test]
    fn only_registered_agents_get_challenges() {
        let mut c = Challenges::default();
        let err = c
            .issue(&"agent:local".parse().unwrap(), "n".into(), 0)
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidAddress);
    }
}
