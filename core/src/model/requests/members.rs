//! The payloads of membership requests: `network.agent.join` (with its
//! credentials), `network.agent.challenge`, `network.agent.invite` and
//! `network.bridge.update`.

use super::field::{Object, nested, request_types};
use serde_json::Value;

request_types! {
    /// What a joiner presents (`payload.credentials`); each is text, and a
    /// value of another type counts as not presented.
    pub struct Credentials {
        /// The network's admin token (makes the joiner a master).
        admin_token: String,
        /// The secret the address was claimed with (or is claimed with now).
        member_secret: String,
        /// An invitation code.
        invite: String,
        /// The network's join token (access policy `token`).
        token: String,
        /// A JWT of a trusted issuer.
        jwt: String,
        /// A DID the joiner proves it controls.
        did: String,
        /// The nonce of a key proof (`network.agent.challenge`'s).
        nonce: String,
        /// The signature of a key proof.
        signature: String,
        /// The DID document's key that signed a DID proof (default `key-1`).
        verification_method: String,
    }
}

impl Credentials {
    /// The credentials of a payload that has `credentials` (none of them
    /// when it has none, or they are no object).
    pub fn of(payload: &Value) -> Self {
        nested(super::field::read::<WithCredentials>(payload).credentials)
    }
}

request_types! {
    /// A payload's `credentials` alone (a join's, or a challenge's).
    pub struct WithCredentials {
        /// What the sender presents.
        credentials: Object<Credentials>,
        /// A DID named outside the credentials (a challenge's).
        did: String,
    }

    /// `network.agent.join`'s payload.
    pub struct Join {
        /// `"observer"` to join as an observer.
        role: String,
        /// What the joiner presents.
        credentials: Object<Credentials>,
        /// Its profile (`crate::model::profile::Profile`, read and merged by
        /// the handler, which needs to know which of its fields were sent).
        profile: Value,
        /// Whether the member takes tasks.
        tasks: bool,
    }

    /// `network.agent.invite`'s payload.
    pub struct Invite {
        /// The one address the invitation admits.
        invitee: String,
        /// Its lifetime.
        ttl_ms: u64,
        /// How many joins it admits.
        max_uses: u64,
    }

    /// `network.bridge.update`'s payload.
    pub struct BridgeUpdate {
        /// The other network's id.
        network: String,
        /// The local agent that relays to it (none: no bridge).
        bridge: String,
    }
}
