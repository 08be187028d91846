//! DRC push: webhook subscriptions (`POST /registry/v1/webhooks {url,
//! secret, types, events}` → `{webhook_id, status: "active"}`), the
//! signature on each delivery, and the retry schedule.
//!
//! The URL must pass the deployment's [`OutboundPolicy`] when the
//! subscription is made (`url_private_address` and the other reasons of
//! [`crate::outbound`]), and the host checks it again before each delivery;
//! the URL kept is the parser's serialization of it.
//!
//! A delivery is `POST {url}` with one change envelope as its JSON body and
//! `X-DRC-Signature: t={unix secs},v1={hex HMAC-SHA256(secret, "{t}.{body}")}`
//! ([`sign`]; subscribers check it with [`verify`]), `X-DRC-Webhook-Id`
//! and `X-DRC-Seq`. A delivery answered by anything but 2xx is tried again
//! after [`backoff_ms`] (1 s, 2 s, 4 s … up to 5 min), [`MAX_ATTEMPTS`]
//! times in all; a subscriber that missed some catches up with `changes`.

use super::error::DiscoveryError;
use super::feed::{ACS_TYPE, Change, Op};
use crate::crypto::{constant_time_eq, hmac_sha256_hex};
use crate::outbound::OutboundPolicy;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Attempts per delivery, the first included.
pub const MAX_ATTEMPTS: u32 = 8;
/// The wait before the second attempt; each further one doubles it.
pub const FIRST_RETRY_MS: u64 = 1_000;
/// The longest wait between attempts.
pub const MAX_RETRY_MS: u64 = 300_000;
/// Shortest secret accepted.
pub const MIN_SECRET: usize = 16;
/// The signature header.
pub const SIGNATURE_HEADER: &str = "X-DRC-Signature";

/// One subscription.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Webhook {
    /// Its id.
    pub webhook_id: String,
    /// Where deliveries go.
    pub url: String,
    /// The HMAC key of its signatures.
    pub secret: String,
    /// Object types it wants (`acs`).
    pub types: Vec<String>,
    /// Ops it wants (`upsert`, `delete`).
    pub events: Vec<String>,
}

fn list(body: &Value, name: &str, allowed: &[&str]) -> Result<Vec<String>, DiscoveryError> {
    let Some(value) = body.get(name).filter(|v| !v.is_null()) else {
        return Ok(allowed.iter().map(|s| (*s).to_owned()).collect());
    };
    let items: Option<Vec<String>> = value
        .as_array()
        .map(|a| a.iter().map(|v| v.as_str().map(str::to_owned)).collect())
        .unwrap_or(None);
    let items = items
        .ok_or_else(|| DiscoveryError::BadWebhook(format!("{name} is an array of strings")))?;
    match items.iter().find(|i| !allowed.contains(&i.as_str())) {
        Some(bad) => Err(DiscoveryError::BadWebhook(format!(
            "{name}: {bad:?} is not one of {allowed:?}"
        ))),
        None => Ok(items),
    }
}

impl Webhook {
    /// A subscription from its request body, with id `webhook_id`, its URL
    /// checked by `policy`.
    pub fn from_request(
        body: &Value,
        webhook_id: String,
        policy: &OutboundPolicy,
    ) -> Result<Self, DiscoveryError> {
        let text = |k: &str| body.get(k).and_then(Value::as_str).unwrap_or("");
        let url = text("url");
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(DiscoveryError::BadWebhook("url is an http(s) URL".into()));
        }
        let url = policy.check(url)?;
        let secret = text("secret");
        if secret.len() < MIN_SECRET {
            return Err(DiscoveryError::BadWebhook(format!(
                "secret has at least {MIN_SECRET} characters"
            )));
        }
        Ok(Self {
            webhook_id,
            url: url.as_str().to_owned(),
            secret: secret.to_owned(),
            types: list(body, "types", &[ACS_TYPE])?,
            events: list(body, "events", &["upsert", "delete"])?,
        })
    }

    /// Whether `change` is one it asked for.
    pub fn wants(&self, change: &Change) -> bool {
        let op = match change.op {
            Op::Upsert => "upsert",
            Op::Delete => "delete",
        };
        self.types.contains(&change.kind) && self.events.iter().any(|e| e == op)
    }
}

/// The `X-DRC-Signature` value for `body` sent at `t` (unix seconds).
pub fn sign(secret: &str, t: u64, body: &str) -> String {
    let mac = hmac_sha256_hex(secret.as_bytes(), format!("{t}.{body}").as_bytes());
    format!("t={t},v1={mac}")
}

/// True when `header` is a valid signature of `body` with `secret`.
pub fn verify(secret: &str, header: &str, body: &str) -> bool {
    let mut t = None;
    let mut v1 = None;
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => t = value.parse::<u64>().ok(),
            Some(("v1", value)) => v1 = Some(value),
            _ => {}
        }
    }
    let (Some(t), Some(v1)) = (t, v1) else {
        return false;
    };
    let expected = hmac_sha256_hex(secret.as_bytes(), format!("{t}.{body}").as_bytes());
    constant_time_eq(expected.as_bytes(), v1.as_bytes())
}

/// The wait after failed attempt number `attempt` (1-based); `None` when it was the last.
pub fn backoff_ms(attempt: u32) -> Option<u64> {
    (attempt < MAX_ATTEMPTS).then(|| {
        FIRST_RETRY_MS
            .saturating_mul(1u64 << attempt.saturating_sub(1).min(20))
            .min(MAX_RETRY_MS)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_signature_verifies_with_its_secret_only() {
        let body = r#"{"seq":"1"}"#;
        let header = sign("0123456789abcdef", 1_700_000_000, body);
        assert!(header.starts_with("t=1700000000,v1="));
        assert!(verify("0123456789abcdef", &header, body));
        assert!(!verify("0123456789abcdeX", &header, body));
        assert!(!verify("0123456789abcdef", &header, r#"{"seq":"2"}"#));
        assert!(!verify("0123456789abcdef", "v1=00", body));
    }

    #[test]
    fn retries_back_off_and_stop() {
        assert_eq!(backoff_ms(1), Some(1_000));
        assert_eq!(backoff_ms(2), Some(2_000));
        assert_eq!(backoff_ms(4), Some(8_000));
        assert_eq!(backoff_ms(MAX_ATTEMPTS), None);
    }

    #[test]
    fn subscriptions_are_checked() {
        let local = OutboundPolicy::allowing(["127.0.0.1"]);
        let ok = Webhook::from_request(
            &json!({"url": "http://127.0.0.1:9/hook", "secret": "0123456789abcdef"}),
            "w1".into(),
            &local,
        );
        assert_eq!(ok.map(|w| w.events.len()), Ok(2));
        let spelled = Webhook::from_request(
            &json!({"url": "http://0x7f.1:9/hook", "secret": "0123456789abcdef"}),
            "w1".into(),
            &local,
        );
        assert_eq!(spelled.map(|w| w.url), Ok("http://127.0.0.1:9/hook".into()));
        for bad in [
            json!({"url": "ftp://x", "secret": "0123456789abcdef"}),
            json!({"url": "http://x", "secret": "short"}),
            json!({"url": "http://x", "secret": "0123456789abcdef", "types": ["nope"]}),
            json!({"url": "http://x", "secret": "0123456789abcdef", "events": "upsert"}),
        ] {
            let err = Webhook::from_request(&bad, "w".into(), &local).err();
            assert_eq!(err.map(|e| e.reason()), Some("invalid_webhook"), "{bad}");
        }
    }

    #[test]
    fn a_subscription_to_a_host_that_is_not_public_is_refused() {
        for url in [
            "http://127.0.0.1:9/hook",
            "http://localhost:9/hook",
            "http://2130706433:9/hook",
            "http://127.0.0.%31:9/hook",
            "http://[::ffff:127.0.0.1]:9/hook",
            "http://169.254.169.254/hook",
        ] {
            let body = json!({"url": url, "secret": "0123456789abcdef"});
            let err = Webhook::from_request(&body, "w".into(), &OutboundPolicy::strict()).err();
            assert_eq!(
                err.map(|e| e.reason()),
                Some("url_private_address"),
                "{url}"
            );
        }
    }
}
