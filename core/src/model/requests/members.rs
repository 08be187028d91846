//! The payloads of membership requests: `network.agent.join` (with its
//! credentials), `network.agent.challenge`, `network.agent.invite` and
//! `network.bridge.update`.

use super::field::{AsSent, Object, nested};
use serde::Deserialize;
use serde_json::Value;

/// What a joiner presents (`payload.credentials`); each is text, and a
/// value of another type counts as not presented.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Credentials {
    /// The network's admin token (makes the joiner a master).
    pub admin_token: AsSent<String>,
    /// The secret the address was claimed with (or is claimed with now).
    pub member_secret: AsSent<String>,
    /// An invitation code.
    pub invite: AsSent<String>,
    /// The network's join token (access policy `token`).
    pub token: AsSent<String>,
    /// A JWT of a trusted issuer.
    pub jwt: AsSent<String>,
    /// A DID the joiner proves it controls.
    pub did: AsSent<String>,
    /// The nonce of a key proof (`network.agent.challenge`'s).
    pub nonce: AsSent<String>,
    /// The signature of a key proof.
    pub signature: AsSent<String>,
    /// The DID document's key that signed a DID proof (default `key-1`).
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
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct WithCredentials {
    /// What the sender presents.
    pub credentials: AsSent<Object<Credentials>>,
    /// A DID named outside the credentials (a challenge's).
    pub did: AsSent<String>,
}

/// `network.agent.join`'s payload.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Join {
    /// `"observer"` to join as an observer.
    pub role: AsSent<String>,
    /// What the joiner presents.
    pub credentials: AsSent<Object<Credentials>>,
    /// Its profile (`crate::model::profile::Profile`, read and merged by
    /// the handler, which needs to know which of its fields were sent).
    pub profile: AsSent<Value>,
    /// Whether the member takes tasks.
    pub tasks: AsSent<bool>,
}

/// `network.agent.invite`'s payload.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Invite {
    /// The one address the invitation admits.
    pub invitee: AsSent<String>,
    /// Its lifetime.
    pub ttl_ms: AsSent<u64>,
    /// How many joins it admits.
    pub max_uses: AsSent<u64>,
}

/// `network.bridge.update`'s payload.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct BridgeUpdate {
    /// The other network's id.
    pub network: AsSent<String>,
    /// The local agent that relays to it (none: no bridge).
    pub bridge: AsSent<String>,
}
