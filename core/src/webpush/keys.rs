//! The keys of Web Push: a subscription's receiving key and auth secret
//! ([`Receiver`], from the browser's `PushSubscription`), and the P-256
//! helpers the encryption and VAPID share.

use super::error::WebPushError;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};

/// base64url without padding.
pub fn b64url(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes base64url (padding tolerated) of exactly `N` bytes.
pub fn from_b64url<const N: usize>(
    text: &str,
    what: &'static str,
) -> Result<[u8; N], WebPushError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(text.trim().trim_end_matches('='))
        .map_err(|_| WebPushError::Malformed(what, "not base64url"))?;
    bytes
        .try_into()
        .map_err(|_| WebPushError::Malformed(what, "not of its length"))
}

/// The uncompressed SEC1 point (65 bytes) of `key`.
pub fn public_point(key: &PublicKey) -> [u8; 65] {
    let encoded = key.to_encoded_point(false);
    let mut point = [0u8; 65];
    point.copy_from_slice(encoded.as_bytes());
    point
}

/// The P-256 secret key whose scalar is `bytes`.
pub fn secret_key(bytes: &[u8; 32], what: &'static str) -> Result<SecretKey, WebPushError> {
    SecretKey::from_slice(bytes).map_err(|_| WebPushError::BadKey(what))
}

/// Where a subscription's messages are encrypted to: its `p256dh` key and
/// its `auth` secret, checked.
#[derive(Clone, PartialEq, Eq)]
pub struct Receiver {
    public: PublicKey,
    point: [u8; 65],
    auth: [u8; 16],
}

impl std::fmt::Debug for Receiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The auth secret stays out of logs.
        write!(f, "Receiver({})", b64url(&self.point))
    }
}

impl Receiver {
    /// Reads a subscription's `keys.p256dh` (an uncompressed P-256 point)
    /// and `keys.auth` (16 bytes), both base64url.
    pub fn parse(p256dh: &str, auth: &str) -> Result<Self, WebPushError> {
        let point: [u8; 65] = from_b64url(p256dh, "keys.p256dh")?;
        let public =
            PublicKey::from_sec1_bytes(&point).map_err(|_| WebPushError::BadKey("keys.p256dh"))?;
        if point[0] != 4 {
            return Err(WebPushError::Malformed(
                "keys.p256dh",
                "not an uncompressed point",
            ));
        }
        let auth = from_b64url(auth, "keys.auth")?;
        Ok(Self {
            public,
            point,
            auth,
        })
    }

    /// The receiving key.
    pub fn public(&self) -> &PublicKey {
        &self.public
    }

    /// The receiving key as its uncompressed point.
    pub fn point(&self) -> &[u8; 65] {
        &self.point
    }

    /// The auth secret.
    pub fn auth(&self) -> &[u8; 16] {
        &self.auth
    }
}
