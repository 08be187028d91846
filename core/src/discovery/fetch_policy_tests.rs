use super::*;
use proptest::prelude::*;

fn reason(policy: &FetchPolicy, url: &str) -> Option<&'static str> {
    policy.check_url(url).err().map(|e| e.reason())
}

/// Passive registration judges a URL by the deployment's outbound policy and
/// nothing else: the same verdict, with the same reason, for every kind of
/// URL (each spelling of every refusal is `crate::outbound`'s tests).
#[test]
fn a_url_is_judged_by_the_outbound_policy() {
    let policy = FetchPolicy::default();
    for url in [
        "https://agents.example.com/ad.json",
        "HTTP://Example.COM:8080/x",
        "ftp://example.com/ad.json",
        "example.com/ad.json",
        "https://user:pw@example.com/ad.json",
        "http://localhost:8000/ad.json",
        "http://0x7f000001/",
        "http://169.254.169.254/latest/meta-data",
        "http://[::ffff:127.0.0.1]/",
        "http://127.0.0.%31:9/ad.json",
        "http://8.8.8.8/",
    ] {
        let outbound = OutboundPolicy::strict()
            .check(url)
            .err()
            .map(|e| e.reason());
        assert_eq!(reason(&policy, url), outbound, "{url}");
    }
    assert_eq!(
        reason(&policy, "http://10.1.2.3/"),
        Some("url_private_address")
    );
    assert_eq!(reason(&policy, "https://example.com/ad.json"), None);
}

#[test]
fn hosts_the_deployment_allows_are_fetched_and_no_others() {
    let allowed = OutboundPolicy::from_vars(None, Some(" localhost, 127.0.0.1 "));
    let policy = FetchPolicy::from_vars(allowed, Some("3"));
    assert_eq!(policy.per_minute, 3);
    for (url, refused) in [
        ("http://localhost:4000/ad.json", None),
        ("http://127.0.0.1:4000/ad.json", None),
        ("http://127.0.0.2/", Some("url_private_address")),
        ("http://10.0.0.1/", Some("url_private_address")),
    ] {
        assert_eq!(reason(&policy, url), refused, "{url}");
    }
    let defaults = FetchPolicy::from_vars(OutboundPolicy::strict(), Some("zero"));
    assert_eq!(defaults, FetchPolicy::default());
}

#[test]
fn a_caller_past_the_limit_is_told_when_to_retry_and_others_are_not() {
    let mut submissions = Submissions::default();
    for at in [0, 1_000, 2_000] {
        assert_eq!(submissions.admit("a", Timestamp::from(at), 3), Ok(()));
    }
    let refused = submissions
        .admit("a", Timestamp::from(10_000), 3)
        .unwrap_err();
    assert_eq!(refused.reason(), "rate_limited");
    assert_eq!(refused.status(), 429);
    assert_eq!(refused.retry_after(), Some(50));
    assert_eq!(submissions.admit("b", Timestamp::from(10_000), 3), Ok(()));
    // The oldest leaves the window: one more is allowed.
    assert_eq!(submissions.admit("a", Timestamp::from(60_001), 3), Ok(()));
    assert!(submissions.admit("a", Timestamp::from(60_002), 3).is_err());
}

proptest! {
    #[test]
    fn any_text_is_judged_without_panicking(url in ".{0,80}") {
        let _ = FetchPolicy::default().check_url(&url);
    }
}
