//! The push request the edge sends for one notice to one subscription
//! (RFC 8030 §5): the encrypted notice (RFC 8291), the VAPID
//! `Authorization` (RFC 8292), `Content-Encoding: aes128gcm`, a `TTL`;
//! and what its answer means for the subscription.

use super::ece::encrypt;
use super::error::WebPushError;
use super::recipients::Notice;
use super::subscription::Subscription;
use super::vapid::VapidKey;
use crate::ids::time::Timestamp;

/// How long a push service keeps an undelivered notice: a day.
pub const TTL_S: u64 = 24 * 60 * 60;

/// A request ready to send.
#[derive(Clone, PartialEq, Eq)]
pub struct PushRequest {
    /// The subscription's endpoint (checked by the outbound policy again as it is sent).
    pub url: String,
    /// `(name, value)` headers.
    pub headers: Vec<(String, String)>,
    /// The encrypted body.
    pub body: Vec<u8>,
}

impl std::fmt::Debug for PushRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PushRequest({}, {} bytes)", self.url, self.body.len())
    }
}

/// The randomness one request needs: the sender's ephemeral key and the salt.
#[derive(Clone, Copy)]
pub struct Fresh {
    /// 32 random bytes for the ephemeral P-256 key.
    pub ephemeral: [u8; 32],
    /// 16 random bytes of salt.
    pub salt: [u8; 16],
}

impl Fresh {
    /// Splits 48 random bytes from the host: the ephemeral key, then the salt.
    pub fn from_bytes(bytes: &[u8; 48]) -> Self {
        let mut ephemeral = [0u8; 32];
        let mut salt = [0u8; 16];
        ephemeral.copy_from_slice(&bytes[..32]);
        salt.copy_from_slice(&bytes[32..]);
        Self { ephemeral, salt }
    }
}

/// The request that pushes `notice` to `subscription`, signed by `key` at `now`.
pub fn build(
    notice: &Notice,
    subscription: &Subscription,
    key: &VapidKey,
    subject: Option<&str>,
    now: Timestamp,
    fresh: &Fresh,
) -> Result<PushRequest, WebPushError> {
    let plaintext = notice.to_json().to_string();
    let body = encrypt(
        plaintext.as_bytes(),
        subscription.receiver(),
        &fresh.ephemeral,
        &fresh.salt,
    )?;
    let audience = subscription.audience();
    Ok(PushRequest {
        url: subscription.endpoint().to_owned(),
        headers: vec![
            (
                "Authorization".into(),
                key.authorization(&audience, now, subject),
            ),
            ("Content-Encoding".into(), "aes128gcm".into()),
            ("Content-Type".into(), "application/octet-stream".into()),
            ("TTL".into(), TTL_S.to_string()),
            ("Urgency".into(), "high".into()),
        ],
        body,
    })
}

/// What a push service's answer means for the subscription.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Taken (2xx).
    Sent,
    /// The subscription is gone (404, 410): forget it.
    Gone,
    /// Anything else: kept; this notice is lost.
    Failed,
}

/// Reads a push service's status.
pub fn delivery_of(status: u16) -> Delivery {
    match status {
        200..=299 => Delivery::Sent,
        404 | 410 => Delivery::Gone,
        _ => Delivery::Failed,
    }
}
