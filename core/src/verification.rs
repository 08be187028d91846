//! Verification level 1: Ed25519 challenge-response (ONM §5).
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
//!
//! A nonce belongs to whoever asked for it ([`Holder`]): the connection it
//! was asked on, or over HTTP the address. Only a join from that holder may
//! use it, and a holder's flood of challenges drops only its own nonces.

use crate::crypto::from_hex;
use crate::error::{ErrorCode, Rejection};
use crate::ids::address::{Address, Entity};
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use std::collections::{BTreeMap, VecDeque};

/// How long a nonce stays valid.
pub const CHALLENGE_TTL_MS: u64 = 60_000;
/// Most challenges open at once in a network; beyond it new ones are refused (`rate_limited`).
pub const MAX_OUTSTANDING_CHALLENGES: usize = 10_000;
/// Most nonces one holder (a connection, or an address over HTTP) keeps open.
pub const MAX_NONCES_PER_HOLDER: usize = 4;

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

/// Who a nonce was issued to: only a join from the same holder may use it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Holder {
    /// A connection, by the host's id for it (a WebSocket).
    Connection(u64),
    /// No connection (an HTTP request): the address the nonce was asked for.
    Address(Address),
}

#[derive(Debug, Clone)]
struct Challenge {
    address: Address,
    holder: Holder,
    expires_at: Timestamp,
}

/// Outstanding challenges of one network. Each holder keeps at most
/// [`MAX_NONCES_PER_HOLDER`] (asking for more drops its own oldest), and
/// when [`MAX_OUTSTANDING_CHALLENGES`] are open new ones are refused: a flood
/// of challenges never evicts a nonce someone else holds.
#[derive(Debug, Clone, Default)]
pub struct Challenges {
    open: BTreeMap<String, Challenge>,
    /// Each holder's nonces, oldest first.
    held: BTreeMap<Holder, VecDeque<String>>,
}

fn failed(message: impl Into<String>) -> Rejection {
    Rejection::new(ErrorCode::VerificationFailed, message)
}

impl Challenges {
    /// Records a new nonce for `address`, held by `holder`; returns its expiry
    /// time. `keyed` says a key is registered for the address: without one no
    /// proof can succeed, so the nonce is answered but nothing is kept.
    pub fn issue(
        &mut self,
        address: &Address,
        holder: Holder,
        nonce: String,
        keyed: bool,
        now: Timestamp,
    ) -> Result<Timestamp, Rejection> {
        self.issue_for(address, holder, nonce, keyed, false, now)
    }

    /// [`Challenges::issue`]; `for_did` allows any participant address (a DID
    /// proof binds the DID, not a registered name, to the address).
    pub fn issue_for(
        &mut self,
        address: &Address,
        holder: Holder,
        nonce: String,
        keyed: bool,
        for_did: bool,
        now: Timestamp,
    ) -> Result<Timestamp, Rejection> {
        if !for_did && !matches!(address.entity(), Entity::Registered { .. }) {
            return Err(Rejection::new(
                ErrorCode::InvalidAddress,
                format!("{address} is not a registered agent: key proof needs openagents:{{name}}"),
            ));
        }
        let expires_at = now.plus_millis(CHALLENGE_TTL_MS);
        if !keyed {
            return Ok(expires_at);
        }
        let open = &mut self.open;
        let queue = self.held.entry(holder.clone()).or_default();
        // The holder's own used or expired nonces go first, then its oldest beyond the cap.
        queue.retain(|n| match open.get(n) {
            Some(c) if c.expires_at > now => true,
            Some(_) => {
                open.remove(n);
                false
            }
            None => false,
        });
        while queue.len() >= MAX_NONCES_PER_HOLDER {
            if let Some(oldest) = queue.pop_front() {
                open.remove(&oldest);
            }
        }
        if self.open.len() >= MAX_OUTSTANDING_CHALLENGES {
            self.expire(now);
            if self.open.len() >= MAX_OUTSTANDING_CHALLENGES {
                return Err(Rejection::new(
                    ErrorCode::RateLimited,
                    "too many key-proof challenges are open; try again in a minute",
                ));
            }
        }
        self.held
            .entry(holder.clone())
            .or_default()
            .push_back(nonce.clone());
        self.open.insert(
            nonce,
            Challenge {
                address: address.clone(),
                holder,
                expires_at,
            },
        );
        Ok(expires_at)
    }

    /// Forgets every expired nonce.
    fn expire(&mut self, now: Timestamp) {
        self.open.retain(|_, c| c.expires_at > now);
        let open = &self.open;
        self.held.retain(|_, queue| {
            queue.retain(|n| open.contains_key(n));
            !queue.is_empty()
        });
    }

    /// How many nonces are open.
    pub fn outstanding(&self) -> usize {
        self.open.len()
    }

    /// Checks a signed nonce presented by `holder` and consumes it.
    #[allow(clippy::too_many_arguments)]
    pub fn verify(
        &mut self,
        registry: &dyn KeyRegistry,
        network: &NetworkId,
        address: &Address,
        holder: &Holder,
        nonce: &str,
        signature_hex: &str,
        now: Timestamp,
    ) -> Result<(), Rejection> {
        self.consume(address, holder, nonce, now)?;
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

    /// Consumes `nonce`: it must be open, unexpired, held by `holder` and issued for `address`.
    pub fn consume(
        &mut self,
        address: &Address,
        holder: &Holder,
        nonce: &str,
        now: Timestamp,
    ) -> Result<(), Rejection> {
        // Consume first: a nonce is good for one attempt, right or wrong.
        let challenge = self
            .open
            .remove(nonce)
            .ok_or_else(|| failed("unknown or already used nonce"))?;
        if let Some(queue) = self.held.get_mut(&challenge.holder) {
            queue.retain(|n| n != nonce);
            if queue.is_empty() {
                self.held.remove(&challenge.holder);
            }
        }
        if challenge.expires_at <= now {
            return Err(failed("the nonce has expired"));
        }
        if &challenge.holder != holder {
            return Err(failed(
                "the nonce was issued on another connection: join where you asked for it",
            ));
        }
        if &challenge.address != address {
            return Err(failed("the nonce was issued to another address"));
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "verification_tests.rs"]
mod tests;
