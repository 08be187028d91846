//! VAPID (RFC 8292): the application server's P-256 key and the ES256 JWT
//! it signs for each push request (`Authorization: vapid t=…, k=…`).
//!
//! The key is a deployment's secret (`AGENTNET_VAPID_PRIVATE_KEY`) or one a
//! network's object made from a random seed and keeps in its storage; its
//! [`Debug`](std::fmt::Debug) shows the public half only, and nothing here
//! writes the secret anywhere but [`VapidKey::secret_b64url`], for storage.

use super::error::WebPushError;
use super::keys::{b64url, from_b64url, public_point};
use crate::ids::time::Timestamp;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use serde_json::json;
use sha2::{Digest, Sha256};

/// How long a signed token lives: RFC 8292 §2 allows at most 24 hours.
pub const TOKEN_LIFETIME_S: u64 = 12 * 60 * 60;

/// An application server's key pair.
#[derive(Clone)]
pub struct VapidKey {
    signing: SigningKey,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VapidKey(public {})", self.public_b64url())
    }
}

impl VapidKey {
    /// The key whose secret scalar is `secret` (32 bytes, base64url): the
    /// form `web-push generate-vapid-keys` and most libraries print.
    pub fn from_secret_b64url(secret: &str) -> Result<Self, WebPushError> {
        let bytes: [u8; 32] = from_b64url(secret, "the VAPID private key")?;
        SigningKey::from_slice(&bytes)
            .map(|signing| Self { signing })
            .map_err(|_| WebPushError::BadKey("the VAPID private key"))
    }

    /// A new key from 32 random bytes (hashed until they are a valid scalar,
    /// which the first almost always is).
    pub fn from_seed(seed: &[u8; 32]) -> Self {
        let mut bytes = *seed;
        loop {
            if let Ok(signing) = SigningKey::from_slice(&bytes) {
                return Self { signing };
            }
            bytes = Sha256::digest(bytes).into();
        }
    }

    /// The secret scalar, base64url: for the host's storage only.
    pub fn secret_b64url(&self) -> String {
        b64url(&self.signing.to_bytes())
    }

    /// The public key as browsers take it (`applicationServerKey`): the
    /// uncompressed point, base64url.
    pub fn public_b64url(&self) -> String {
        b64url(&public_point(&self.signing.verifying_key().into()))
    }

    /// The signed token for a push request to `audience` (the push
    /// endpoint's origin) at `now`, naming `subject` (a `mailto:` or
    /// `https:` contact) when there is one.
    pub fn token(&self, audience: &str, now: Timestamp, subject: Option<&str>) -> String {
        let header = b64url(br#"{"typ":"JWT","alg":"ES256"}"#);
        let mut claims = json!({"aud": audience, "exp": now.as_secs() + TOKEN_LIFETIME_S});
        if let Some(subject) = subject {
            claims["sub"] = json!(subject);
        }
        let claims = b64url(claims.to_string().as_bytes());
        let input = format!("{header}.{claims}");
        let signature: Signature = self.signing.sign(input.as_bytes());
        format!("{input}.{}", b64url(&signature.to_bytes()))
    }

    /// The `Authorization` header's value for a push request (RFC 8292 §3).
    pub fn authorization(&self, audience: &str, now: Timestamp, subject: Option<&str>) -> String {
        format!(
            "vapid t={}, k={}",
            self.token(audience, now, subject),
            self.public_b64url()
        )
    }
}
