//! A member's push subscription as the browser's `PushSubscription.toJSON()`
//! gives it — `{endpoint, keys: {p256dh, auth}}` — checked: the endpoint
//! through the outbound policy (a public `https` host unless the deployment
//! allows others), the keys as a P-256 point and a 16-byte secret.

use super::keys::Receiver;
use crate::error::{ErrorCode, Rejection};
use crate::outbound::OutboundPolicy;
use serde_json::{Value, json};

/// The most subscriptions one member keeps (one per browser or device);
/// registering another forgets the oldest.
pub const MAX_PER_MEMBER: usize = 10;

/// A checked subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    endpoint: String,
    p256dh: String,
    auth: String,
    receiver: Receiver,
}

fn invalid(why: impl Into<String>) -> Rejection {
    Rejection::new(ErrorCode::InvalidRequest, why)
}

impl Subscription {
    /// Reads and checks a `PushSubscription` JSON.
    pub fn parse(body: &Value, policy: &OutboundPolicy) -> Result<Self, Rejection> {
        let endpoint = body
            .get("endpoint")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("endpoint must be the push service's URL"))?;
        let checked = policy
            .check(endpoint)
            .map_err(|e| invalid(format!("endpoint refused: {}", e.described())))?;
        let keys = body.get("keys").unwrap_or(&Value::Null);
        let text = |key: &str| keys.get(key).and_then(Value::as_str).unwrap_or("");
        let receiver =
            Receiver::parse(text("p256dh"), text("auth")).map_err(|e| invalid(e.to_string()))?;
        Ok(Self {
            endpoint: checked.as_str().to_owned(),
            p256dh: text("p256dh").trim_end_matches('=').to_owned(),
            auth: text("auth").trim_end_matches('=').to_owned(),
            receiver,
        })
    }

    /// Reads a stored subscription back (as [`Self::to_json`] wrote it);
    /// `None` when it no longer passes `policy`.
    pub fn restore(stored: &str, policy: &OutboundPolicy) -> Option<Self> {
        let value: Value = serde_json::from_str(stored).ok()?;
        Self::parse(&value, policy).ok()
    }

    /// The endpoint, as the outbound policy's parser wrote it.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Where its messages are encrypted to.
    pub fn receiver(&self) -> &Receiver {
        &self.receiver
    }

    /// The VAPID audience: the endpoint's origin (RFC 8292 §2).
    pub fn audience(&self) -> String {
        crate::outbound::parse(&self.endpoint)
            .map(|url| url.origin().ascii_serialization())
            .unwrap_or_default()
    }

    /// The form it is stored in.
    pub fn to_json(&self) -> Value {
        json!({"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}})
    }
}
