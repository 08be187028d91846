//! The registry engine (ONM §4; ACPs ATR, docs/protocols.md), sans-I/O: agents
//! register a public key proved by a challenge, get an AIC with a unique
//! serial and the name `openagents:{name}` (unique), rotate their key
//! (signed by the old one), revoke themselves, and get short-lived EdDSA
//! JWTs after a key proof. It serves their DID documents and its JWKS.
//!
//! The host keeps one instance, persists every [`AgentRecord`] a call
//! returns and the signing seed, and feeds them back with [`Registry::load`].
//! Challenges live in memory only (one minute; a lost one is asked again).

use super::did::{Did, document};
use super::error::IdentityError;
use super::jwt::{self, Audience, Claims, Jwks};
use super::keys::PublicKey;
pub use super::records::{Action, acs_digest, proof_message, sign_proof};
pub use super::records::{AgentRecord, KeyRecord, RegistryConfig};
use super::time::year_of;
use crate::bounded::trim_oldest;
use crate::crypto::{from_hex, to_hex};
use crate::ids::time::Timestamp;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// How long a registry challenge stays valid.
pub const CHALLENGE_TTL_MS: u64 = 60_000;
/// Most open challenges; beyond it the oldest go.
pub const MAX_CHALLENGES: usize = 10_000;
/// Default lifetime of an issued JWT.
pub const TOKEN_TTL_SECS: u64 = 300;

/// The answer to a registry challenge that proves a key: the nonce it
/// issued and the signature (hex) over [`proof_message`].
#[derive(Debug, Clone, Copy)]
pub struct Proof<'a> {
    /// The nonce of [`Registry::challenge`].
    pub nonce: &'a str,
    /// The signature, 128 hex characters.
    pub signature: &'a str,
}

#[derive(Debug, Clone)]
struct Challenge {
    name: String,
    expires_at: Timestamp,
}

/// The registry's state.
#[derive(Debug, Clone)]
pub struct Registry {
    config: RegistryConfig,
    secret: [u8; 32],
    kid: String,
    agents: BTreeMap<String, AgentRecord>,
    next_serial: u64,
    challenges: BTreeMap<String, Challenge>,
}

impl Registry {
    /// A registry signing with the Ed25519 seed `secret`.
    pub fn new(config: RegistryConfig, secret: [u8; 32]) -> Self {
        let kid = jwt::thumbprint(&crate::verification::public_key_of(&secret));
        Self {
            config,
            secret,
            kid,
            agents: BTreeMap::new(),
            next_serial: 1,
            challenges: BTreeMap::new(),
        }
    }

    /// Its settings.
    pub fn config(&self) -> &RegistryConfig {
        &self.config
    }

    /// The origin requests came to: the JWT issuer and the did:wba host (`host[:port]`).
    pub fn set_origin(&mut self, issuer: String, host: String) {
        self.config.issuer = issuer;
        self.config.host = host;
    }

    /// Puts back a stored record.
    pub fn load(&mut self, record: AgentRecord) {
        self.next_serial = self.next_serial.max(record.serial.saturating_add(1));
        self.agents.insert(record.name.clone(), record);
    }

    /// A registered agent by name.
    pub fn agent(&self, name: &str) -> Option<&AgentRecord> {
        self.agents.get(name)
    }

    /// A registered agent by name, or why there is none (`not_registered`).
    pub fn registered(&self, name: &str) -> Result<&AgentRecord, IdentityError> {
        self.agent(name).ok_or_else(|| not_registered(name))
    }

    /// How many agents are registered.
    pub fn len(&self) -> usize {
        self.agents.len()
    }

    /// True when none are.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// A nonce (the host's random text) for a key proof about `name`; returns its expiry.
    pub fn challenge(
        &mut self,
        name: &str,
        nonce: String,
        now: Timestamp,
    ) -> Result<Timestamp, IdentityError> {
        valid_name(name)?;
        self.challenges.retain(|_, c| c.expires_at > now);
        // Room for this one.
        trim_oldest(&mut self.challenges, MAX_CHALLENGES - 1, |c| c.expires_at);
        let expires_at = now.plus_millis(CHALLENGE_TTL_MS);
        self.challenges.insert(
            nonce,
            Challenge {
                name: name.to_owned(),
                expires_at,
            },
        );
        Ok(expires_at)
    }

    /// Consumes the proof's nonce (for `name`) and checks its signature by
    /// `key` over the proof message.
    fn prove(
        &mut self,
        action: Action,
        name: &str,
        key: &[u8; 32],
        detail: &str,
        proof: Proof<'_>,
        now: Timestamp,
    ) -> Result<(), IdentityError> {
        let challenge = self
            .challenges
            .remove(proof.nonce)
            .ok_or(IdentityError::BadChallenge)?;
        if challenge.expires_at <= now || challenge.name != name {
            return Err(IdentityError::BadChallenge);
        }
        let signature = from_hex::<64>(proof.signature)
            .ok_or_else(|| IdentityError::malformed("signature", "128 hex characters"))?;
        let message = proof_message(action, name, proof.nonce, detail);
        PublicKey::ed25519(key)?.verify(&message, &signature)
    }

    /// The record of `name`, to change.
    fn record_mut(&mut self, name: &str) -> Result<&mut AgentRecord, IdentityError> {
        self.agents
            .get_mut(name)
            .ok_or_else(|| not_registered(name))
    }

    fn live(&self, name: &str) -> Result<(&AgentRecord, [u8; 32]), IdentityError> {
        let record = self.registered(name)?;
        let key = record
            .current_key()
            .ok_or_else(|| IdentityError::Revoked(format!("openagents:{name}")))?;
        Ok((record, key))
    }

    /// Registers `name` with `public_key` (hex), proved by signing the
    /// registry's nonce; issues its AIC. Returns the record to store.
    pub fn register(
        &mut self,
        name: &str,
        public_key: &str,
        proof: Proof<'_>,
        acs: Option<Value>,
        now: Timestamp,
    ) -> Result<AgentRecord, IdentityError> {
        valid_name(name)?;
        let key = key_of(public_key)?;
        self.prove(Action::Register, name, &key, public_key, proof, now)?;
        if self.agents.contains_key(name) {
            return Err(IdentityError::NameTaken(format!("openagents:{name}")));
        }
        let serial = self.next_serial;
        let aic = self.config.aic.issue(year_of(now.as_secs()), serial, 1)?;
        let record = AgentRecord {
            name: name.to_owned(),
            aic: aic.to_string(),
            serial,
            keys: vec![KeyRecord {
                public_key: to_hex(&key),
                added_at: now,
                retired_at: None,
            }],
            acs,
            registered_at: now,
            revoked_at: None,
        };
        self.load(record.clone());
        Ok(record)
    }

    /// Replaces `name`'s key by `new_key` (hex), signed by the current key.
    pub fn rotate(
        &mut self,
        name: &str,
        new_key: &str,
        proof: Proof<'_>,
        now: Timestamp,
    ) -> Result<AgentRecord, IdentityError> {
        let (_, current) = self.live(name)?;
        let fresh = key_of(new_key)?;
        PublicKey::ed25519(&fresh)?;
        self.prove(Action::Rotate, name, &current, new_key, proof, now)?;
        let record = self.record_mut(name)?;
        for key in record.keys.iter_mut().filter(|k| k.retired_at.is_none()) {
            key.retired_at = Some(now);
        }
        record.keys.push(KeyRecord {
            public_key: to_hex(&fresh),
            added_at: now,
            retired_at: None,
        });
        Ok(record.clone())
    }

    /// Revokes `name`, signed by its current key: its keys, DIDs and tokens stop verifying.
    pub fn revoke(
        &mut self,
        name: &str,
        proof: Proof<'_>,
        now: Timestamp,
    ) -> Result<AgentRecord, IdentityError> {
        let (_, current) = self.live(name)?;
        self.prove(Action::Revoke, name, &current, "", proof, now)?;
        let record = self.record_mut(name)?;
        record.revoked_at = Some(now);
        Ok(record.clone())
    }

    /// Replaces `name`'s ACS document by `acs` (checked by the caller), signed by
    /// its current key over [`acs_digest`] of `signed` (the document as sent).
    pub fn publish_acs(
        &mut self,
        name: &str,
        signed: &Value,
        acs: Value,
        proof: Proof<'_>,
        now: Timestamp,
    ) -> Result<AgentRecord, IdentityError> {
        let (_, current) = self.live(name)?;
        let digest = acs_digest(signed);
        self.prove(Action::PublishAcs, name, &current, &digest, proof, now)?;
        self.set_acs(name, acs)
    }

    /// Sets `name`'s ACS document (checked by the caller) without a proof: at registration.
    pub fn set_acs(&mut self, name: &str, acs: Value) -> Result<AgentRecord, IdentityError> {
        let record = self.record_mut(name)?;
        record.acs = Some(acs);
        Ok(record.clone())
    }

    /// A JWT for `name` and `audience` after a proof with its current key.
    pub fn token(
        &mut self,
        name: &str,
        audience: &str,
        proof: Proof<'_>,
        now: Timestamp,
    ) -> Result<String, IdentityError> {
        let (record, current) = self.live(name)?;
        let aic = record.aic.clone();
        self.prove(Action::Token, name, &current, audience, proof, now)?;
        let now_secs = now.as_secs();
        let claims = Claims {
            iss: self.config.issuer.clone(),
            sub: format!("openagents:{name}"),
            aud: Audience::One(audience.to_owned()),
            exp: now_secs.saturating_add(self.config.token_ttl_secs),
            iat: now_secs,
            nbf: None,
            aic: Some(aic),
            did: Some(format!("did:openagents:{name}")),
        };
        Ok(jwt::issue(&self.secret, &self.kid, &claims))
    }

    /// The keys its JWTs verify with.
    pub fn jwks(&self) -> Jwks {
        let public = crate::verification::public_key_of(&self.secret);
        Jwks::new(
            PublicKey::ed25519(&public)
                .map(|k| vec![(self.kid.clone(), k)])
                .unwrap_or_default(),
        )
    }

    /// The DID document of `did:openagents:{name}` or of this deployment's
    /// `did:wba:{host}:agents:{name}`: the current key as `key-1` and an
    /// `OpenAgentsNetwork` service at the issuer.
    pub fn did_document(&self, did: &Did) -> Result<Value, IdentityError> {
        let name = match did {
            Did::OpenAgents(name) => name.clone(),
            Did::Wba { host, path }
                if host == &self.config.host
                    && path.len() == 2
                    && path.first().map(String::as_str) == Some("agents") =>
            {
                path.get(1).cloned().unwrap_or_default()
            }
            _ => {
                return Err(IdentityError::Unresolvable(format!(
                    "{did} is not served by this registry"
                )));
            }
        };
        let (record, key) = self.live(&name)?;
        let service = json!({"id": did.method_id("agentnet"), "type": "OpenAgentsNetwork",
            "serviceEndpoint": self.config.issuer, "aic": record.aic});
        Ok(document(
            did,
            &[("key-1".to_owned(), PublicKey::ed25519(&key)?)],
            vec![service],
        ))
    }
}

/// `name` is not a registered agent.
fn not_registered(name: &str) -> IdentityError {
    IdentityError::NotRegistered(format!("openagents:{name}"))
}

/// An Ed25519 public key given as 64 hex characters.
fn key_of(hex: &str) -> Result<[u8; 32], IdentityError> {
    from_hex::<32>(hex)
        .ok_or_else(|| IdentityError::malformed("key", "public_key is 64 hex characters"))
}

fn valid_name(name: &str) -> Result<(), IdentityError> {
    crate::ids::address::Address::from_did(&format!("did:openagents:{name}"))
        .map(|_| ())
        .map_err(|_| IdentityError::malformed("name", format!("{name:?} is not an agent name")))
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
