//! Passive registration's guard (`POST /registry/v1/descriptions`): before
//! the registry object fetches anything, one caller's submissions are
//! counted ([`Submissions`], `rate_limited` 429 with `retry-after`) and the
//! URL must pass the [`FetchPolicy`] (`url_scheme_refused`,
//! `url_credentials_refused`, `url_private_address`); the DID document's URL
//! too. A fetch that fails is `description_too_large`, `redirect_refused`,
//! or `fetch_failed` whatever kept the answer away (refused, reset, timed
//! out: one text, so the answers map no one's ports), or
//! `invalid_description` for an answer that is no JSON document ([`unfetched`]).

use crate::bindings::directory::creator_of;
use crate::bindings::message::{Request, Response};
use crate::bindings::refusals::discovery_refusal;
use crate::discovery::DiscoveryError;
use crate::discovery::fetch_policy::{FetchPolicy, Submissions};
use crate::ids::time::Timestamp;
use crate::outbound::OutboundError;

/// Counts `req`'s caller's submission and checks `url`; the refusal to send otherwise.
pub fn admit(
    policy: &FetchPolicy,
    submissions: &mut Submissions,
    req: &Request,
    url: &str,
    now: Timestamp,
) -> Result<(), Response> {
    submissions
        .admit(&creator_of(req), now, policy.per_minute)
        .and_then(|()| policy.check_url(url).map(|_| ()))
        .map_err(|e| discovery_refusal(&e))
}

/// How a bounded fetch of `url` failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unfetched {
    /// Over [`FetchPolicy::max_bytes`].
    TooLarge,
    /// Refused by the policy, a redirect, or no answer (within [`FetchPolicy::timeout_ms`] or at all).
    Outbound(OutboundError),
    /// An answer that is no document (not 200, not JSON).
    Failed,
}

/// The refusal for a description at `url` that could not be fetched.
pub fn unfetched(policy: &FetchPolicy, url: &str, why: &Unfetched) -> Response {
    discovery_refusal(&match why {
        Unfetched::TooLarge => DiscoveryError::TooLarge(policy.max_bytes),
        Unfetched::Outbound(error) => DiscoveryError::Outbound(error.clone()),
        Unfetched::Failed => {
            DiscoveryError::BadDescription(format!("{url} did not answer a JSON document"))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::message::Method;

    fn post(from: &str) -> Request {
        Request::new(Method::Post, "https://h/registry/v1/descriptions")
            .with_header("cf-connecting-ip", from)
    }

    fn reason(response: &Response) -> serde_json::Value {
        match &response.body {
            crate::bindings::message::Body::Json(v) => v["reason"].clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn each_refusal_has_its_status_reason_and_the_limit_a_retry_after() {
        let policy = FetchPolicy {
            per_minute: 2,
            ..FetchPolicy::default()
        };
        let mut seen = Submissions::default();
        let mut submit = |from: &str, url: &str, at: u64| {
            admit(&policy, &mut seen, &post(from), url, Timestamp::from(at))
        };
        let refused = submit("1.1.1.1", "ftp://x/ad.json", 0).unwrap_err();
        assert_eq!(
            (refused.status, reason(&refused)),
            (400, "url_scheme_refused".into())
        );
        let refused = submit("1.1.1.1", "http://10.0.0.1/ad.json", 1).unwrap_err();
        assert_eq!(
            (refused.status, reason(&refused)),
            (400, "url_private_address".into())
        );
        // Two submissions a minute: the third is refused before its URL is looked at.
        let limited = submit("1.1.1.1", "https://ok.example/ad.json", 2).unwrap_err();
        assert_eq!(
            (limited.status, reason(&limited)),
            (429, "rate_limited".into())
        );
        assert!(
            limited
                .headers
                .contains(&("retry-after".into(), "60".into()))
        );
        assert!(submit("2.2.2.2", "https://ok.example/ad.json", 3).is_ok());
        for (why, status, code) in [
            (Unfetched::TooLarge, 502, "description_too_large"),
            (
                Unfetched::Outbound(OutboundError::Unreachable),
                502,
                "fetch_failed",
            ),
            (
                Unfetched::Outbound(OutboundError::Redirect),
                502,
                "redirect_refused",
            ),
            (Unfetched::Failed, 400, "invalid_description"),
        ] {
            let response = unfetched(&policy, "https://ok.example/ad.json", &why);
            assert_eq!((response.status, reason(&response)), (status, code.into()));
        }
    }
}
