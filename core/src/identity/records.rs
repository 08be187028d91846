//! What the registry stores and what agents sign: each agent's record (its
//! AIC, keys, ACS document, revocation) and the key-proof message of each
//! action ([`proof_message`]).

use super::aic::AicIssuer;
use super::did::Did;
use crate::crypto::{from_hex, to_hex};
use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// What a key proof authorises; part of the signed message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Register a new agent with the presented key.
    Register,
    /// Replace the key (signed by the current key).
    Rotate,
    /// Revoke the agent (signed by the current key).
    Revoke,
    /// Get a JWT.
    Token,
    /// Publish a new ACS document (the detail is [`acs_digest`] of it).
    PublishAcs,
}

impl Action {
    /// The action's name in the signed message.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Register => "register",
            Self::Rotate => "rotate",
            Self::Revoke => "revoke",
            Self::Token => "token",
            Self::PublishAcs => "acs",
        }
    }
}

/// The bytes a key signs for `action` on `name` with the registry's `nonce`;
/// `detail` is the new public key (register, rotate), the audience (token) or empty.
pub fn proof_message(action: Action, name: &str, nonce: &str, detail: &str) -> Vec<u8> {
    format!(
        "agentnet-registry-v1\n{}\n{name}\n{nonce}\n{detail}",
        action.as_str()
    )
    .into_bytes()
}

/// The proof detail of an ACS publication: hex SHA-256 of the document's JCS form.
pub fn acs_digest(acs: &Value) -> String {
    crate::crypto::sha256_hex(super::jcs::canonicalize(acs).as_bytes())
}

/// The agent's side of a proof: the hex signature of [`proof_message`] by the Ed25519 `secret`.
pub fn sign_proof(
    secret: &[u8; 32],
    action: Action,
    name: &str,
    nonce: &str,
    detail: &str,
) -> String {
    use ed25519_dalek::Signer;
    let key = ed25519_dalek::SigningKey::from_bytes(secret);
    to_hex(
        &key.sign(&proof_message(action, name, nonce, detail))
            .to_bytes(),
    )
}

/// One key an agent has held.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyRecord {
    /// Ed25519 public key, lowercase hex.
    pub public_key: String,
    /// When it was added.
    pub added_at: Timestamp,
    /// When rotation retired it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retired_at: Option<Timestamp>,
}

/// A registered agent, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentRecord {
    /// The name (`openagents:{name}`).
    pub name: String,
    /// Its AIC.
    pub aic: String,
    /// The serial its AIC carries (unique).
    pub serial: u64,
    /// Every key it has held, oldest first; the last unretired one is current.
    pub keys: Vec<KeyRecord>,
    /// Its ACS document, when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acs: Option<Value>,
    /// Registration time.
    pub registered_at: Timestamp,
    /// Revocation time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<Timestamp>,
}

impl AgentRecord {
    /// The current key (none once revoked).
    pub fn current_key(&self) -> Option<[u8; 32]> {
        if self.revoked_at.is_some() {
            return None;
        }
        self.keys
            .iter()
            .rev()
            .find(|k| k.retired_at.is_none())
            .and_then(|k| from_hex::<32>(&k.public_key))
    }

    /// The public view: everything but nothing secret (there is nothing secret).
    pub fn to_json(&self, config: &RegistryConfig) -> Value {
        json!({"name": self.name, "address": format!("openagents:{}", self.name), "aic": self.aic,
            "did": format!("did:openagents:{}", self.name),
            "did_wba": Did::wba_for_agent(&config.host, &self.name).to_string(),
            "keys": self.keys, "acs": self.acs, "registered_at": self.registered_at,
            "revoked_at": self.revoked_at})
    }
}

/// A registry's fixed settings.
#[derive(Debug, Clone)]
pub struct RegistryConfig {
    /// The issuer of its JWTs: the deployment's origin (`https://host`).
    pub issuer: String,
    /// `host[:port]` its did:wba documents live under.
    pub host: String,
    /// Provider and entity parts of the AICs it issues.
    pub aic: AicIssuer,
    /// Lifetime of issued JWTs.
    pub token_ttl_secs: u64,
}
