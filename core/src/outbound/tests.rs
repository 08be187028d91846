use super::address::{is_internal_v4, is_internal_v6};
use super::*;
use proptest::prelude::*;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

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

/// An independent judgement of an IP address, from the standard library's
/// own predicates: everything it calls internal the policy must refuse.
fn std_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || v4.octets()[0] == 0
        }
        IpAddr::V6(v6) => {
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || v6.is_unique_local()
                || v6.is_unicast_link_local()
                || v6
                    .to_ipv4_mapped()
                    .is_some_and(|v4| std_internal(IpAddr::V4(v4)))
        }
    }
}

/// Addresses, mostly from the ranges that matter.
fn ipv4() -> impl Strategy<Value = Ipv4Addr> {
    prop_oneof![
        any::<u32>().prop_map(Ipv4Addr::from),
        (any::<[u8; 3]>()).prop_map(|[b, c, d]| Ipv4Addr::new(127, b, c, d)),
        (any::<[u8; 3]>()).prop_map(|[b, c, d]| Ipv4Addr::new(10, b, c, d)),
        (16u8..32, any::<[u8; 2]>()).prop_map(|(b, [c, d])| Ipv4Addr::new(172, b, c, d)),
        (any::<[u8; 2]>()).prop_map(|[c, d]| Ipv4Addr::new(192, 168, c, d)),
        (any::<[u8; 2]>()).prop_map(|[c, d]| Ipv4Addr::new(169, 254, c, d)),
        (64u8..128, any::<[u8; 2]>()).prop_map(|(b, [c, d])| Ipv4Addr::new(100, b, c, d)),
        Just(Ipv4Addr::UNSPECIFIED),
        Just(Ipv4Addr::BROADCAST),
    ]
}

/// One number as a URL parser reads it: decimal, hex (`0x`/`0X`) or octal (`0…`).
fn number(n: u32, radix: u8) -> String {
    match radix % 4 {
        0 => format!("{n}"),
        1 => format!("0x{n:x}"),
        2 => format!("0X{n:X}"),
        _ => format!("0{n:o}"),
    }
}

/// `ip` in one of the four IPv4 shapes (`a.b.c.d`, `a.b.C`, `a.B`, `A`), each part in its own radix.
fn spell_v4(ip: Ipv4Addr, shape: u8, radixes: [u8; 4]) -> String {
    let [a, b, c, d] = ip.octets().map(u32::from);
    let parts: Vec<u32> = match shape % 4 {
        0 => vec![a, b, c, d],
        1 => vec![a, b, (c << 8) | d],
        2 => vec![a, (b << 16) | (c << 8) | d],
        _ => vec![u32::from(ip)],
    };
    parts
        .iter()
        .zip(radixes)
        .map(|(n, r)| number(*n, r))
        .collect::<Vec<_>>()
        .join(".")
}

/// Respells a host's characters as the URL parser undoes: percent-encoded
/// octets, full-width digits and letters, ideographic and full-width full
/// stops, tabs and newlines between characters.
fn disguise(host: &str, tricks: &[u8]) -> String {
    let mut out = String::new();
    for (i, c) in host.chars().enumerate() {
        let trick = tricks.get(i).copied().unwrap_or(0) % 8;
        match (trick, c) {
            (1, _) => out.push_str(&format!("%{:02X}", c as u32)),
            (2, '0'..='9' | 'a'..='z' | 'A'..='Z') => {
                out.push(char::from_u32(c as u32 - 0x21 + 0xff01).unwrap_or(c))
            }
            (3, '.') => out.push('\u{3002}'),
            (4, '.') => out.push('\u{ff0e}'),
            (5, '.') => out.push('\u{ff61}'),
            (6, _) => {
                out.push('\t');
                out.push(c);
            }
            (7, _) => {
                out.push(c);
                out.push('\n');
            }
            _ => out.push(c),
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn any_text_is_judged_without_panicking(url in "\\PC{0,80}") {
        let _ = OutboundPolicy::strict().check(&url);
        let _ = host_of(&url);
        let _ = is_loopback_url(&url);
    }

    /// Every ASCII spelling of an IPv4 address — shapes, radixes, percent-encoding,
    /// tabs and newlines, a trailing dot, `\` — is read by the parser as that
    /// address, and the policy's verdict is the verdict on that address; one with
    /// full-width digits or ideographic full stops is refused as no URL.
    #[test]
    fn every_spelling_of_an_ipv4_address_is_judged_as_the_parser_reads_it(
        ip in ipv4(),
        shape in any::<u8>(),
        radixes in any::<[u8; 4]>(),
        tricks in proptest::collection::vec(any::<u8>(), 0..48),
        trailing_dot in any::<bool>(),
        backslash in any::<bool>(),
        port in proptest::option::of(1u16..),
    ) {
        let mut host = disguise(&spell_v4(ip, shape, radixes), &tricks);
        if trailing_dot {
            host.push('.');
        }
        let port = port.map(|p| format!(":{p}")).unwrap_or_default();
        let slash = if backslash { '\\' } else { '/' };
        let url = format!("http://{host}{port}{slash}x");
        let parsed = Url::parse(&url);
        // A spelling with full-width digits or dots is no host: host names are ASCII here.
        if !url.is_ascii() {
            prop_assert!(parsed.is_err(), "{:?}", url);
            prop_assert_eq!(reason(&OutboundPolicy::strict(), &url), Some("url_invalid"));
            return Ok(());
        }
        // The parser reads every ASCII spelling, as the address it spells.
        let read = parsed.as_ref().ok().and_then(|u| u.host().map(|h| h.to_owned()));
        prop_assert_eq!(&read, &Some(Host::Ipv4(ip)), "{:?}", url);
        let verdict = reason(&OutboundPolicy::strict(), &url);
        prop_assert_eq!(verdict.is_some(), is_internal_v4(ip), "{:?}", url);
        if std_internal(IpAddr::V4(ip)) {
            prop_assert_eq!(verdict, Some("url_private_address"), "{:?}", url);
        }
        // The URL fetched is judged as the URL asked for.
        if let Ok(checked) = OutboundPolicy::strict().check(&url) {
            prop_assert_eq!(strict(checked.as_str()), None);
            prop_assert_eq!(checked.host(), ip.to_string());
        }
    }

    /// IPv6 forms: compressed or not, upper case, with an IPv4 tail, mapped
    /// and compatible addresses: the verdict is the one on the parser's address.
    #[test]
    fn every_form_of_an_ipv6_address_is_judged_as_the_parser_reads_it(
        segments in any::<[u16; 8]>(),
        kind in 0u8..8,
        v4 in ipv4(),
        dotted in any::<bool>(),
        upper in any::<bool>(),
    ) {
        let ip = match kind {
            0 => Ipv6Addr::from(segments),
            1 => v4.to_ipv6_mapped(),
            2 => v4.to_ipv6_compatible(),
            3 => Ipv6Addr::LOCALHOST,
            4 => Ipv6Addr::new(0xfe80, segments[1], 0, 0, segments[4], 0, 0, segments[7]),
            5 => Ipv6Addr::new(0xfd00 | (segments[0] & 0xff), segments[1], 0, 0, 0, 0, 0, 1),
            6 => Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, segments[6], segments[7]),
            _ => Ipv6Addr::UNSPECIFIED,
        };
        let mut text = if dotted && kind != 0 {
            let [a, b, c, d] = v4.octets();
            let s = ip.segments();
            format!("{:x}:{:x}:{:x}:{:x}:{:x}:{:x}:{a}.{b}.{c}.{d}", s[0], s[1], s[2], s[3], s[4], s[5])
        } else {
            let s = ip.segments();
            s.iter().map(|x| format!("{x:x}")).collect::<Vec<_>>().join(":")
        };
        if upper {
            text = text.to_uppercase();
        }
        let url = format!("http://[{text}]/x");
        let Ok(parsed) = Url::parse(&url) else {
            return Err(TestCaseError::fail(format!("{url} does not parse")));
        };
        let Some(Host::Ipv6(read)) = parsed.host().map(|h| h.to_owned()) else {
            return Err(TestCaseError::fail(format!("{url} has no IPv6 host")));
        };
        let verdict = reason(&OutboundPolicy::strict(), &url);
        prop_assert_eq!(verdict.is_some(), is_internal_v6(read), "{}", url);
        if std_internal(IpAddr::V6(read)) {
            prop_assert_eq!(verdict, Some("url_private_address"), "{}", url);
        }
    }

    /// Userinfo tricks: whatever precedes the last `@` of the authority is
    /// credentials to the parser, refused; a `\` or `/` ends the authority
    /// first, and then the host is what comes before it.
    #[test]
    fn userinfo_tricks_are_judged_on_the_parsers_host(
        user in "[a-z0-9.]{1,12}",
        ip in ipv4(),
        sep in prop_oneof![Just("@"), Just("\\@"), Just("/@"), Just("%40"), Just("#@"), Just("?@")],
    ) {
        let url = format!("http://{user}{sep}{ip}/");
        let verdict = reason(&OutboundPolicy::strict(), &url);
        match Url::parse(&url) {
            Err(_) => prop_assert_eq!(verdict, Some("url_invalid")),
            Ok(parsed) if !parsed.username().is_empty() => {
                prop_assert_eq!(verdict, Some("url_credentials_refused"));
            }
            Ok(parsed) => {
                let internal = parsed.host().is_some_and(|h| address::is_internal(&h));
                prop_assert_eq!(verdict.is_some(), internal, "{}", url);
            }
        }
    }

    /// The verdict on any URL is the verdict on the parser's serialization of
    /// it: what is fetched is what was checked.
    #[test]
    fn the_verdict_survives_the_parsers_round_trip(url in "https?://[a-z0-9.%:\\[\\]@\\\\\t]{1,30}/[a-z]{0,4}") {
        if let Ok(parsed) = Url::parse(&url) {
            prop_assert_eq!(strict(&url), strict(parsed.as_str()), "{}", url);
        }
    }
}
