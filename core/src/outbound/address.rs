//! Which hosts are not public: the judgement on a host *as the URL parser
//! read it* ([`url::Host`]), so every spelling of an address — decimal,
//! octal, hex and short IPv4, percent-encoded or full-width digits,
//! ideographic full stops, IPv6 in any of its forms — is judged as the one
//! address the runtime will connect to.
//!
//! Not public: `localhost` and `*.localhost`, `*.internal`, `*.local`,
//! `*.home.arpa`, and IP addresses that are unspecified, loopback, private
//! (RFC 1918, `fc00::/7`), shared (`100.64/10`), link-local, multicast,
//! broadcast, reserved or for documentation — also when an IPv6 address
//! carries such an IPv4 one (mapped `::ffff:0:0/96`, compatible `::/96`,
//! NAT64 `64:ff9b::/96`, 6to4 `2002::/16`).

use std::net::{Ipv4Addr, Ipv6Addr};
use url::Host;

/// Domain names that never leave this machine or its site.
const LOCAL_NAMES: [&str; 4] = ["localhost", "internal", "local", "home.arpa"];

/// True for a domain this machine or its site answers (trailing dots ignored).
pub fn is_local_name(domain: &str) -> bool {
    let name = domain.trim_end_matches('.').to_ascii_lowercase();
    name.is_empty()
        || LOCAL_NAMES
            .iter()
            .any(|local| name == *local || name.ends_with(&format!(".{local}")))
}

/// True when `ip` is not a public unicast address.
pub fn is_internal_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    a == 0 // "this network", 0.0.0.0 included
        || a == 10
        || a == 127
        || (a == 100 && (64..128).contains(&b)) // shared address space (CGNAT)
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 192 && b == 0 && c == 2) // TEST-NET-1
        || (a == 192 && b == 168)
        || (a == 198 && (18..20).contains(&b)) // benchmarking
        || (a == 198 && b == 51 && c == 100) // TEST-NET-2
        || (a == 203 && b == 0 && c == 113) // TEST-NET-3
        || a >= 224 // multicast, reserved, broadcast
}

/// The IPv4 address an IPv6 address carries, when it carries one.
pub fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let low = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    match s {
        // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d.
        [0, 0, 0, 0, 0, 0xffff | 0, hi, lo] => Some(low(hi, lo)),
        // NAT64 (RFC 6052's well-known prefix).
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => Some(low(hi, lo)),
        // 6to4: 2002:AABB:CCDD::/48 is the site behind a.b.c.d.
        [0x2002, hi, lo, ..] => Some(low(hi, lo)),
        _ => None,
    }
}

/// True when `ip` is not a public unicast address.
pub fn is_internal_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = embedded_v4(ip) {
        // `::` and `::1` are in the compatible range; judged as v4 they are 0.0.0.0 and 0.0.0.1.
        return is_internal_v4(v4);
    }
    let first = ip.segments()[0];
    (first & 0xfe00) == 0xfc00 // unique local
        || (first & 0xffc0) == 0xfe80 // link-local
        || (first & 0xffc0) == 0xfec0 // site-local (deprecated)
        || (first & 0xff00) == 0xff00 // multicast
        || (first == 0x2001 && ip.segments()[1] == 0x0db8) // documentation
        || first == 0x0100 && ip.segments()[1..4] == [0, 0, 0] // discard-only
}

/// True when `host` is not a public host (see the module doc).
pub fn is_internal(host: &Host<&str>) -> bool {
    match host {
        Host::Domain(name) => is_local_name(name),
        Host::Ipv4(ip) => is_internal_v4(*ip),
        Host::Ipv6(ip) => is_internal_v6(*ip),
    }
}

/// True when `host` is this machine: `localhost`, `*.localhost`, `127/8`,
/// `::1`, or a loopback IPv4 address carried in IPv6.
pub fn is_loopback(host: &Host<&str>) -> bool {
    match host {
        Host::Domain(name) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        Host::Ipv4(ip) => ip.is_loopback(),
        Host::Ipv6(ip) => {
            ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}
