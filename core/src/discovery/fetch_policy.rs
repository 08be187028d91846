//! What passive registration may fetch, and how often one caller may ask:
//! the URL policy ([`FetchPolicy::check_url`]: http(s) only, no credentials,
//! no private, loopback, link-local or otherwise internal address unless the
//! deployment allows that host by name), the bounds on a fetch (bytes and
//! time), and the per-caller limit on submissions ([`Submissions`]).
//!
//! Host names are checked as written; an IPv4 address in any of the forms a
//! URL parser reads (`127.1`, `0x7f.0.0.1`, `2130706433`) is read as that
//! address. A public name that resolves to a private address cannot be seen
//! here (the runtime resolves it); redirects are not followed.

use super::error::DiscoveryError;
use std::collections::{BTreeMap, VecDeque};
use std::net::{Ipv4Addr, Ipv6Addr};

/// Variable naming hosts fetched even though they are private (comma-separated), e.g. `localhost,127.0.0.1`.
pub const ALLOW_HOSTS_VAR: &str = "AGENTNET_DISCOVERY_ALLOW_HOSTS";
/// Variable setting [`FetchPolicy::per_minute`].
pub const PER_MINUTE_VAR: &str = "AGENTNET_DESCRIPTIONS_PER_MINUTE";
/// The window submissions are counted over.
pub const WINDOW_MS: u64 = 60_000;

/// The bounds of passive registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchPolicy {
    /// Private hosts fetched anyway (lower case).
    pub allowed_hosts: Vec<String>,
    /// Largest document read, in bytes.
    pub max_bytes: usize,
    /// Longest a fetch may take, in milliseconds.
    pub timeout_ms: u64,
    /// Submissions one caller may make in [`WINDOW_MS`].
    pub per_minute: u32,
}

impl Default for FetchPolicy {
    fn default() -> Self {
        Self {
            allowed_hosts: Vec::new(),
            max_bytes: 64 * 1024,
            timeout_ms: 5_000,
            per_minute: 10,
        }
    }
}

/// The host of an http(s) URL, lower case, without brackets or port.
fn host_of(url: &str) -> Result<String, DiscoveryError> {
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| DiscoveryError::UrlScheme(url.chars().take(16).collect()))?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(DiscoveryError::UrlScheme(scheme));
    }
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or("");
    if authority.contains('@') {
        return Err(DiscoveryError::UrlCredentials);
    }
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() {
        return Err(DiscoveryError::UrlScheme("no host".into()));
    }
    Ok(host)
}

/// One part of an IPv4 address as URL parsers read it (decimal, `0x` hex, `0` octal).
fn ipv4_part(part: &str) -> Option<u64> {
    if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
        return if hex.is_empty() {
            Some(0)
        } else {
            u64::from_str_radix(hex, 16).ok()
        };
    }
    if part.len() > 1
        && let Some(octal) = part.strip_prefix('0')
    {
        return u64::from_str_radix(octal, 8).ok();
    }
    part.parse().ok()
}

/// `host` read as an IPv4 address the way a URL parser does (`None` for a name).
fn ipv4_of(host: &str) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = host.split('.').collect();
    if parts.is_empty() || parts.len() > 4 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let numbers: Vec<u64> = parts.iter().map(|p| ipv4_part(p)).collect::<Option<_>>()?;
    let (last, leading) = numbers.split_last()?;
    let mut value: u64 = 0;
    for n in leading {
        if *n > 255 {
            return None;
        }
        value = (value << 8) | n;
    }
    let room = 8 * (4 - leading.len() as u32);
    if *last >= 1u64 << room {
        return None;
    }
    let value = (value << room) | last;
    u32::try_from(value).ok().map(Ipv4Addr::from)
}

fn internal_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || ip.is_multicast()
}

fn internal_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return internal_v4(v4);
    }
    let first = ip.segments().first().copied().unwrap_or(0);
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
}

/// True when `host` names this machine, a private network or a link.
fn is_internal(host: &str) -> bool {
    if host == "localhost" || host.ends_with(".localhost") || host.ends_with(".internal") {
        return true;
    }
    if let Ok(v6) = host.parse::<Ipv6Addr>() {
        return internal_v6(v6);
    }
    ipv4_of(host).is_some_and(internal_v4)
}

impl FetchPolicy {
    /// The policy from the deployment's variables (unset or unreadable: defaults).
    pub fn from_vars(allowed_hosts: Option<&str>, per_minute: Option<&str>) -> Self {
        let defaults = Self::default();
        Self {
            allowed_hosts: allowed_hosts
                .unwrap_or("")
                .split(',')
                .map(|h| h.trim().to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect(),
            per_minute: per_minute
                .and_then(|n| n.trim().parse().ok())
                .filter(|n| *n > 0)
                .unwrap_or(defaults.per_minute),
            ..defaults
        }
    }

    /// Whether `url` may be fetched: `url_scheme_refused`,
    /// `url_credentials_refused` or `url_private_address` when not.
    pub fn check_url(&self, url: &str) -> Result<(), DiscoveryError> {
        let host = host_of(url)?;
        if is_internal(&host) && !self.allowed_hosts.contains(&host) {
            return Err(DiscoveryError::PrivateAddress(host));
        }
        Ok(())
    }
}

/// Recent submissions by caller (kept in memory by the registry object).
#[derive(Debug, Clone, Default)]
pub struct Submissions {
    by_caller: BTreeMap<String, VecDeque<u64>>,
}

impl Submissions {
    /// Counts one submission of `caller` at `now`, or refuses it with
    /// `rate_limited` and the seconds until one is allowed again.
    pub fn admit(&mut self, caller: &str, now: u64, limit: u32) -> Result<(), DiscoveryError> {
        let since = now.checked_sub(WINDOW_MS);
        self.by_caller.retain(|_, times| {
            while times
                .front()
                .is_some_and(|t| since.is_some_and(|since| *t <= since))
            {
                times.pop_front();
            }
            !times.is_empty()
        });
        let times = self.by_caller.entry(caller.to_owned()).or_default();
        if times.len() >= limit as usize {
            let free_at = times.front().map_or(now, |t| t.saturating_add(WINDOW_MS));
            let retry_after_s = free_at.saturating_sub(now).div_ceil(1000).max(1);
            return Err(DiscoveryError::RateLimited { retry_after_s });
        }
        times.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
#[path = "fetch_policy_tests.rs"]
mod tests;
