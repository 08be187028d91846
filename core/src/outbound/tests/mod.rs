//! The outbound policy's unit tests: which URLs each policy fetches and
//! which it refuses, with what reason; the spelling property tests are in
//! `spelling`.

use super::*;

mod spelling;

fn reason(policy: &OutboundPolicy, url: &str) -> Option<&'static str> {
    policy.check(url).err().map(|e| e.reason())
}

fn strict(url: &str) -> Option<&'static str> {
    reason(&OutboundPolicy::strict(), url)
}

/// Checks that `policy` gives each of `urls` the refusal `expected`
/// (`None`: fetched).
fn assert_refusals(policy: &OutboundPolicy, urls: &[&str], expected: Option<&str>) {
    for url in urls {
        assert_eq!(reason(policy, url), expected, "{url}");
    }
}

/// [`assert_refusals`] under the strict policy.
fn assert_strict(urls: &[&str], expected: Option<&str>) {
    assert_refusals(&OutboundPolicy::strict(), urls, expected);
}

#[test]
fn only_http_and_https_without_credentials_are_fetched() {
    assert_eq!(strict("https://agents.example.com/ad.json"), None);
    assert_eq!(strict("HTTP://Example.COM:8080/x"), None);
    assert_strict(
        &[
            "ftp://example.com/x",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "data:,x",
        ],
        Some("url_scheme_refused"),
    );
    assert_strict(
        &[
            "example.com/ad.json",
            "http://",
            "http://[::1/",
            "http://exa mple.com/",
            "",
        ],
        Some("url_invalid"),
    );
    assert_strict(
        &[
            "https://u:p@example.com/",
            "http://u@example.com/",
            "http://:p@example.com/",
        ],
        Some("url_credentials_refused"),
    );
    assert_eq!(
        strict(&format!("https://e.example/{}", "a".repeat(MAX_URL_LEN))),
        Some("url_invalid")
    );
}

#[test]
fn host_names_are_ascii_and_an_internationalized_one_is_fetched_in_its_xn_form() {
    // No Unicode data for international names (Cargo.lock's idna_adapter): not a URL here,
    // whatever the case of the ASCII around the other characters.
    assert_strict(
        &[
            "https://bücher.example/",
            "https://BÜCHER.example/",
            "https://büCHER.example/",
            "https://b%C3%BCCHER.example/",
        ],
        Some("url_invalid"),
    );
    let checked = OutboundPolicy::strict().check("https://XN--BCHER-KVA.Example/a");
    assert_eq!(
        checked.as_ref().map(Checked::as_str),
        Ok("https://xn--bcher-kva.example/a")
    );
    // A path or query may hold any text: only the host is ASCII.
    assert_eq!(strict("https://example.com/bücher?q=é"), None);
}

#[test]
fn the_issues_spellings_of_loopback_are_refused() {
    for url in [
        "http://127.0.0.1:9/hook",
        "http://localhost:9/",
        "http://LOCALHOST./",
        "http://api.localhost/",
        "http://2130706433/",
        "http://0x7f000001/",
        "http://0177.0.0.1/",
        "http://127.1/",
        "http://127.0.1/",
        "http://127.0.0.%31:9/ad.json",
        "http://%31%32%37.0.0.1/",
        "http://\u{ff11}\u{ff12}\u{ff17}.\u{ff10}.\u{ff10}.\u{ff11}:9/",
        "http://127\u{3002}0\u{3002}0\u{3002}1/",
        "http://127\u{ff0e}0\u{ff0e}0\u{ff0e}1/",
        "http://127\u{ff61}0\u{ff61}0\u{ff61}1/",
        "http://127.0.0\t.1/",
        "http://12\n7.0.0.1/",
        "http://127.0.0.1./",
        "http://[::1]/",
        "http://[0:0:0:0:0:0:0:1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://[::127.0.0.1]/",
        "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::]/",
        "http://0/",
        "http://0.0.0.0/",
        "http://[::]/",
    ] {
        // Host names are ASCII (the `idna` back end has no Unicode data): a full-width or
        // ideographic spelling is not a host at all.
        let refused = if url.is_ascii() {
            matches!(
                strict(url),
                Some("url_private_address" | "url_credentials_refused")
            )
        } else {
            strict(url) == Some("url_invalid")
        };
        assert!(refused, "{url:?}: {:?}", strict(url));
    }
}

#[test]
fn private_link_local_shared_and_reserved_ranges_are_refused() {
    assert_strict(
        &[
            "http://10.1.2.3/",
            "http://172.16.0.1/",
            "http://172.31.255.255/",
            "http://192.168.1.10:9000/",
            "http://169.254.169.254/latest/meta-data",
            "http://100.64.0.1/",
            "http://100.127.255.255/",
            "http://224.0.0.1/",
            "http://255.255.255.255/",
            "http://240.0.0.1/",
            "http://192.0.2.1/",
            "http://198.18.0.1/",
            "http://[fe80::1]/",
            "http://[fd00::1]/",
            "http://[fc00::1]/",
            "http://[ff02::1]/",
            "http://[fec0::1]/",
            "http://[::ffff:a9fe:a9fe]/",
            "http://[::ffff:10.0.0.1]/",
            "http://metadata.google.internal/",
            "http://printer.local/",
            "http://router.home.arpa/",
        ],
        Some("url_private_address"),
    );
    assert_strict(
        &[
            "http://8.8.8.8/",
            "http://[2606:4700::1]/",
            "http://172.32.0.1/",
            "http://100.128.0.1/",
            "http://1.2.3.4.example/",
            "http://127.0.0.1.evil.example/",
            "http://localhost.evil.example/",
            "http://[::ffff:8.8.8.8]/",
            // The parser's host is evil.example: `\` ends the authority.
            "http://evil.example\\@127.0.0.1/",
            "https://xn--nxasmq6b.example/",
        ],
        None,
    );
}

#[test]
fn the_url_fetched_is_the_parsers_serialization() {
    let checked = OutboundPolicy::strict().check("HTTP://Example.COM:80/a/../b?x#frag");
    let checked = checked.map(|c| c.as_str().to_owned());
    assert_eq!(checked.as_deref(), Ok("http://example.com/b?x#frag"));
    let allowed = OutboundPolicy::allowing(["127.0.0.1"]);
    let checked = allowed
        .check("http://0x7f.1:9/h")
        .map(|c| (c.as_str().to_owned(), c.host().to_owned()));
    assert_eq!(
        checked,
        Ok(("http://127.0.0.1:9/h".into(), "127.0.0.1".into()))
    );
}

#[test]
fn hosts_the_operator_allows_are_fetched_in_any_spelling_and_no_others() {
    let policy =
        OutboundPolicy::from_vars(Some(" localhost, [::1] "), Some("127.0.0.1,not a host"));
    assert_refusals(
        &policy,
        &[
            "http://localhost:4000/",
            "http://LOCALHOST.:4/",
            "http://[::1]/",
            "http://127.1/",
            "http://2130706433/",
        ],
        None,
    );
    assert_refusals(
        &policy,
        &[
            "http://127.0.0.2/",
            "http://10.0.0.1/",
            "http://a.localhost/",
        ],
        Some("url_private_address"),
    );
    // Allowing a host never allows credentials or another scheme.
    for (url, refused) in [
        ("http://u@localhost/", "url_credentials_refused"),
        ("ftp://localhost/", "url_scheme_refused"),
    ] {
        assert_eq!(reason(&policy, url), Some(refused), "{url}");
    }
    let any = OutboundPolicy::allowing(["*"]);
    assert_eq!(reason(&any, "http://10.0.0.1/"), None);
    assert_eq!(
        OutboundPolicy::from_vars(None, Some("")),
        OutboundPolicy::strict()
    );
}

#[test]
fn redirects_are_refused_and_refusals_say_no_more_than_their_reason() {
    let policy = OutboundPolicy::strict();
    assert_eq!(policy.on_redirect(200), Ok(()));
    for status in [301, 302, 303, 307, 308] {
        assert_eq!(policy.on_redirect(status), Err(OutboundError::Redirect));
    }
    let unreachable = OutboundError::Unreachable;
    assert_eq!(unreachable.reason(), "fetch_failed");
    assert_eq!(unreachable.status(), 502);
    assert_eq!(
        unreachable.described(),
        "fetch_failed: the target could not be reached or did not answer"
    );
    assert_eq!(OutboundError::Private("127.0.0.1".into()).status(), 400);
}

#[test]
fn loopback_urls_are_read_as_the_parser_reads_them() {
    for url in [
        "http://127.0.0.1:3/cb",
        "http://localhost/",
        "http://[::1]/",
        "http://0x7f.1/",
    ] {
        assert!(is_loopback_url(url), "{url}");
    }
    for url in [
        "http://127.0.0.1.evil.example/",
        "http://evil.example\\@127.0.0.1/cb",
        "http://evil.example/127.0.0.1",
        "null",
        "http://10.0.0.1/",
    ] {
        assert!(!is_loopback_url(url), "{url}");
    }
    assert_eq!(
        host_of("http://evil.example\\@127.0.0.1/cb"),
        Some(Host::Domain("evil.example".into()))
    );
}
