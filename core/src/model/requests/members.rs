//! The payloads of membership requests: `network.agent.join` (with its
//! credentials), `network.agent.challenge`, `network.agent.invite` and
//! `network.bridge.update`.

use super::field::{AsSent, Object, nested};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a joiner presents (`payload.credentials`); each is text, and a
/// value of another type counts as not presented.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Credentials {
    /// The network's admin token (makes the joiner a master).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub admin_token: AsSent<String>,
    /// The secret the address was claimed with (or is claimed with now).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub member_secret: AsSent<String>,
    /// An invitation code.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub invite: AsSent<String>,
    /// The network's join token (access policy `token`).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub token: AsSent<String>,
    /// A JWT of a trusted issuer.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub jwt: AsSent<String>,
    /// A DID the joiner proves it controls.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub did: AsSent<String>,
    /// The nonce of a key proof (`network.agent.challenge`'s).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub nonce: AsSent<String>,
    /// The signature of a key proof.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub signature: AsSent<String>,
    /// The DID document's key that signed a DID proof (default `key-1`).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub verification_method: AsSent<String>,
}

impl Credentials {
    /// The credentials of a payload that has `credentials` (none of them
    /// when it has none, or they are no object).
    pub fn of(payload: &Value) -> Self {
        nested(super::field::read::<WithCredentials>(payload).credentials)
    }
}

/// A payload's `credentials` alone (a join's, or a challenge's).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WithCredentials {
    /// What the sender presents.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub credentials: AsSent<Object<Credentials>>,
    /// A DID named outside the credentials (a challenge's).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub did: AsSent<String>,
}

/// `network.agent.join`'s payload.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Join {
    /// `"observer"` to join as an observer.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub role: AsSent<String>,
    /// What the joiner presents.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub credentials: AsSent<Object<Credentials>>,
    /// Its profile (`crate::model::profile::Profile`, read and merged by
    /// the handler, which needs to know which of its fields were sent).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub profile: AsSent<Value>,
    /// Whether the member takes tasks.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub tasks: AsSent<bool>,
}

/// `network.agent.invite`'s payload.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Invite {
    /// The one address the invitation admits.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub invitee: AsSent<String>,
    /// Its lifetime.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub ttl_ms: AsSent<u64>,
    /// How many joins it admits.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub max_uses: AsSent<u64>,
}

/// `network.bridge.update`'s payload.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BridgeUpdate {
    /// The other network's id.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub network: AsSent<String>,
    /// The local agent that relays to it (none: no bridge).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub bridge: AsSent<String>,
}
