//! The one policy for every fetch the edge makes on someone else's say-so:
//! A2A push notifications, DRC webhooks, OAuth client ID metadata
//! documents, passive registration (descriptions and their DID documents),
//! did:wba documents and trusted issuers' JWKS, A2A agent cards and their
//! endpoints. Each URL is checked when it is accepted *and* again before
//! every fetch ([`OutboundPolicy::check`]); the host fetches the URL the
//! check returns, never the caller's text, and follows no redirect (a
//! redirect is [`OutboundError::Redirect`]).
//!
//! The URL is read by a WHATWG URL parser (the `url` crate), as workerd and
//! browsers read it, and the policy judges the host *that parser* found
//! ([`address`]): percent-encoding, tabs and newlines, `\` for `/`, upper
//! case, and every IPv4 and IPv6 spelling end up as the host the runtime
//! would connect to.
//!
//! Host names are ASCII. `Cargo.lock` pins `idna_adapter` to 1.0.0, the
//! `idna` crate's back end without Unicode data, which keeps about 47 KB of
//! ICU tables (gzip) out of every wasm module; so a host with any other
//! character — an internationalized name, full-width digits, an ideographic
//! full stop — is no URL here (`url_invalid`): write such a name in its
//! ASCII form (`xn--…`), which is what the runtime would connect to anyway.
//! Refused: anything the parser rejects (`url_invalid`), schemes other than http(s)
//! (`url_scheme_refused`), user names and passwords
//! (`url_credentials_refused`), and hosts that are not public
//! (`url_private_address`) unless the operator allows them by name
//! ([`ALLOW_HOSTS_VAR`], and the older [`DISCOVERY_ALLOW_HOSTS_VAR`]).
//!
//! A public name whose DNS answer is private cannot be seen here (the
//! runtime resolves names); on Cloudflare private ranges are not routable.

pub mod address;
pub mod error;

pub use error::OutboundError;
use url::{Host, Url};

/// Hosts fetched although they are not public (comma-separated host names
/// or IP addresses, `[…]` for IPv6; `*` for any host), for tests and private
/// deployments: e.g. `localhost,127.0.0.1`.
pub const ALLOW_HOSTS_VAR: &str = "AGENTNET_OUTBOUND_ALLOW_HOSTS";
/// The older name of [`ALLOW_HOSTS_VAR`] (passive registration's), still read.
pub const DISCOVERY_ALLOW_HOSTS_VAR: &str = "AGENTNET_DISCOVERY_ALLOW_HOSTS";
/// Longest URL fetched.
pub const MAX_URL_LEN: usize = 2048;

/// Which hosts that are not public the deployment fetches anyway.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutboundPolicy {
    /// Allowed hosts, as the URL parser reads them.
    allowed: Vec<Host<String>>,
    /// `*`: every host is allowed.
    any: bool,
}

/// A URL that passed the policy: the parser's serialization of it, which is
/// what the host fetches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    url: Url,
}

impl Checked {
    /// The URL to fetch.
    pub fn as_str(&self) -> &str {
        self.url.as_str()
    }

    /// Its host, as the parser serializes it (`[::1]` for IPv6).
    pub fn host(&self) -> &str {
        self.url.host_str().unwrap_or("")
    }

    /// Its scheme (`http` or `https`).
    pub fn scheme(&self) -> &str {
        self.url.scheme()
    }
}

/// `host` without the trailing dots a domain may be written with, lower case.
fn plain<S: AsRef<str>>(host: &Host<S>) -> Host<String> {
    match host {
        Host::Domain(name) => {
            Host::Domain(name.as_ref().trim_end_matches('.').to_ascii_lowercase())
        }
        Host::Ipv4(ip) => Host::Ipv4(*ip),
        Host::Ipv6(ip) => Host::Ipv6(*ip),
    }
}

/// `url` as the WHATWG parser reads it, when it reads it.
pub fn parse(url: &str) -> Option<Url> {
    (url.len() <= MAX_URL_LEN).then(|| Url::parse(url).ok())?
}

impl OutboundPolicy {
    /// The default: no host that is not public is fetched.
    pub fn strict() -> Self {
        Self::default()
    }

    /// A policy allowing the comma-separated hosts of `lists` (entries that
    /// are no host are ignored).
    pub fn allowing<'a>(lists: impl IntoIterator<Item = &'a str>) -> Self {
        let mut policy = Self::default();
        for entry in lists.into_iter().flat_map(|l| l.split(',')).map(str::trim) {
            if entry == "*" {
                policy.any = true;
            } else if let Ok(host) = Host::parse(entry) {
                let host = plain(&host);
                if !policy.allowed.contains(&host) {
                    policy.allowed.push(host);
                }
            }
        }
        policy
    }

    /// The policy from the deployment's variables ([`ALLOW_HOSTS_VAR`],
    /// [`DISCOVERY_ALLOW_HOSTS_VAR`]; unset: strict).
    pub fn from_vars(outbound: Option<&str>, discovery: Option<&str>) -> Self {
        Self::allowing([outbound.unwrap_or(""), discovery.unwrap_or("")])
    }

    /// True when the operator allows `host` although it is not public.
    pub fn allows(&self, host: &Host<&str>) -> bool {
        self.any || self.allowed.contains(&plain(host))
    }

    /// Whether `url` may be fetched: the URL to fetch, or why not.
    pub fn check(&self, url: &str) -> Result<Checked, OutboundError> {
        let parsed = parse(url).ok_or(OutboundError::Invalid)?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(OutboundError::Scheme(parsed.scheme().to_owned()));
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(OutboundError::Credentials);
        }
        let host = parsed.host().ok_or(OutboundError::Invalid)?;
        if address::is_internal(&host) && !self.allows(&host) {
            return Err(OutboundError::Private(
                parsed.host_str().unwrap_or("").to_owned(),
            ));
        }
        Ok(Checked { url: parsed })
    }

    /// Whether a fetch may follow a redirect: never ([`OutboundError::Redirect`]).
    /// A host that sees a 3xx answers this instead of the answer.
    pub fn on_redirect(&self, status: u16) -> Result<(), OutboundError> {
        if (300..400).contains(&status) {
            Err(OutboundError::Redirect)
        } else {
            Ok(())
        }
    }
}

/// The host of `url` as the WHATWG parser reads it (`None` when it does
/// not parse or names no host), trailing dots dropped.
pub fn host_of(url: &str) -> Option<Host<String>> {
    parse(url)?.host().map(|h| plain(&h))
}

/// True when `url` parses and its host is this machine ([`address::is_loopback`]).
pub fn is_loopback_url(url: &str) -> bool {
    parse(url)
        .and_then(|u| u.host().map(|h| address::is_loopback(&h)))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests;
