use super::*;
use proptest::prelude::*;

use std::net::Ipv4Addr;

fn reason(policy: &FetchPolicy, url: &str) -> Option<&'static str> {
    policy.check_url(url).err().map(|e| e.reason())
}

#[test]
fn only_http_and_https_without_credentials_are_fetched() {
    let policy = FetchPolicy::default();
    assert_eq!(reason(&policy, "https://agents.example.com/ad.json"), None);
    assert_eq!(reason(&policy, "HTTP://Example.COM:8080/x"), None);
    for url in [
        "ftp://example.com/ad.json",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "gopher://x",
    ] {
        assert_eq!(reason(&policy, url), Some("url_scheme_refused"), "{url}");
    }
    for url in [
        "https://user:pw@example.com/ad.json",
        "http://user@example.com/",
        "http://a@127.0.0.1/",
    ] {
        assert_eq!(
            reason(&policy, url),
            Some("url_credentials_refused"),
            "{url}"
        );
    }
}

#[test]
fn private_loopback_and_link_local_hosts_are_refused_in_every_spelling() {
    let policy = FetchPolicy::default();
    for url in [
        "http://localhost:8000/ad.json",
        "http://LOCALHOST./ad.json",
        "http://api.localhost/",
        "http://127.0.0.1/",
        "http://127.1/",
        "http://2130706433/",
        "http://0x7f000001/",
        "http://0177.0.0.1/",
        "http://0.0.0.0/",
        "http://10.1.2.3/",
        "http://172.16.0.1/",
        "http://192.168.1.10:9000/",
        "http://169.254.169.254/latest/meta-data",
        "http://100.64.0.1/",
        "http://[::1]:8080/",
        "http://[::]/",
        "http://[fe80::1]/",
        "http://[fd00::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://metadata.google.internal/",
        // The spellings, as the runtime's URL parser reads them.
        "http://127.0.0.%31:9/ad.json",
        "http://\u{ff11}\u{ff12}\u{ff17}.\u{ff10}.\u{ff10}.\u{ff11}:9/",
        "http://127\u{3002}0\u{3002}0\u{3002}1/",
        "http://127.0.0\t.1/",
    ] {
        assert_eq!(reason(&policy, url), Some("url_private_address"), "{url}");
    }
    for url in [
        "http://8.8.8.8/",
        "http://[2606:4700::1]/",
        "http://172.32.0.1/",
        "http://100.128.0.1/",
        "http://1.2.3.4.example/",
    ] {
        assert_eq!(reason(&policy, url), None, "{url}");
    }
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

    #[test]
    fn every_loopback_or_private_v4_address_is_refused(a in 0u8..=255, b in 0u8..=255, c in 0u8..=255, d in 0u8..=255) {
        let ip = Ipv4Addr::new(a, b, c, d);
        let url = format!("http://{ip}/");
        let internal = ip.is_loopback() || ip.is_private() || ip.is_link_local() || a == 0;
        if internal {
            prop_assert_eq!(reason(&FetchPolicy::default(), &url), Some("url_private_address"));
        }
        // The same address as one decimal number reads the same.
        let decimal = format!("http://{}/", u32::from(ip));
        prop_assert_eq!(reason(&FetchPolicy::default(), &url), reason(&FetchPolicy::default(), &decimal));
    }
}
