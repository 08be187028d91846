//! The outbound policy's property tests: every spelling of an address the
//! URL parser reads (IPv4 shapes and radixes, disguised characters, IPv6
//! forms, user-info tricks) is judged as the address the parser found.

use super::{reason, strict};
use crate::outbound::address::{is_internal_v4, is_internal_v6};
use crate::outbound::*;
use proptest::prelude::*;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

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
