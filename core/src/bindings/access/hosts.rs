//! The hosts a deployment answers for: DNS rebinding protection on every
//! route. A page of `evil.example.com` whose name an attacker rebinds to
//! `127.0.0.1` sends `Host: evil.example.com` with a matching `Origin`, so no
//! comparison of the two can tell it from a real page; only the list of the
//! deployment's own names can. A request whose `Host` is not a loopback name
//! or address and not on [`KnownHosts`] is refused before anything reads it.
//!
//! The list comes from the host (the edge's `AGENTNET_HOSTS` variable):
//! comma- or space-separated names, each exact (`agentnet.example.com`) or a
//! wildcard for every name under a domain (`*.workers.dev`), ports ignored.
//! Loopback (`localhost`, `*.localhost`, `127.0.0.0/8`, `[::1]`) is always
//! known: a local edge answers its own machine.

use crate::bindings::message::{Request, Response};
use crate::error::ErrorCode;
use std::net::{Ipv4Addr, Ipv6Addr};

/// The names a deployment answers for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownHosts {
    /// Lower-case exact names.
    exact: Vec<String>,
    /// Lower-case suffixes with their leading dot (`.workers.dev` for `*.workers.dev`).
    under: Vec<String>,
}

/// The name of a `Host` header's value (or a URL authority): lower case,
/// without its port or a trailing dot; an IPv6 literal keeps its brackets.
fn name_of(host: &str) -> String {
    let host = host.trim().to_ascii_lowercase();
    let name = if host.starts_with('[') {
        host.find(']').map_or(host.as_str(), |end| &host[..=end])
    } else {
        host.rsplit_once(':')
            .map_or(host.as_str(), |(name, _)| name)
    };
    name.trim_end_matches('.').to_owned()
}

/// True for a name this machine resolves to itself without DNS.
fn is_loopback_name(name: &str) -> bool {
    if name == "localhost" || name.ends_with(".localhost") {
        return true;
    }
    if let Some(inner) = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        return inner.parse::<Ipv6Addr>().is_ok_and(|ip| ip.is_loopback());
    }
    name.parse::<Ipv4Addr>().is_ok_and(|ip| ip.is_loopback())
}

impl KnownHosts {
    /// The list a deployment configures (see the module docs); entries that
    /// are neither a name nor `*.` and a name are ignored.
    pub fn parse(list: &str) -> Self {
        let mut known = Self::default();
        for entry in list.split([',', ' ', '\n', '\t']).filter(|e| !e.is_empty()) {
            match entry.strip_prefix("*.") {
                Some(domain) if !name_of(domain).is_empty() => {
                    known.under.push(format!(".{}", name_of(domain)));
                }
                Some(_) => {}
                None if !name_of(entry).is_empty() => known.exact.push(name_of(entry)),
                None => {}
            }
        }
        known
    }

    /// True when a request with this `Host` is for this deployment.
    pub fn allows(&self, host: &str) -> bool {
        let name = name_of(host);
        !name.is_empty()
            && (is_loopback_name(&name)
                || self.exact.contains(&name)
                || self
                    .under
                    .iter()
                    .any(|suffix| name.ends_with(suffix.as_str())))
    }

    /// The refusal of `req` when its `Host` (else its URL's authority) is not
    /// one of the deployment's; `None` when it is.
    pub fn refusal(&self, req: &Request) -> Option<Response> {
        let host = req.header("Host").unwrap_or_else(|| {
            let origin = req.origin();
            origin
                .split_once("://")
                .map_or(origin, |(_, authority)| authority)
        });
        if self.allows(host) {
            return None;
        }
        Some(Response::error(
            ErrorCode::Forbidden,
            format!(
                "this edge does not answer for the host '{}': it is not one of its own names (AGENTNET_HOSTS)",
                name_of(host)
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::message::Method;
    use proptest::prelude::*;

    #[test]
    fn loopback_is_always_known_and_rebound_names_never_are() {
        let none = KnownHosts::parse("");
        for host in [
            "127.0.0.1:8787",
            "localhost",
            "LOCALHOST:80",
            "app.localhost:8787",
            "[::1]:8787",
            "127.1.2.3",
        ] {
            assert!(none.allows(host), "{host}");
        }
        for host in [
            "evil.example.com",
            "evil.example.com:8787",
            "localhost.evil.example.com",
            "127.0.0.1.nip.io",
            "[::2]",
            "10.0.0.1",
            "",
            ":8787",
        ] {
            assert!(!none.allows(host), "{host}");
        }
    }

    #[test]
    fn configured_names_and_wildcards_are_known() {
        let known = KnownHosts::parse("agentnet.example.com, *.workers.dev bad*entry *.");
        assert!(known.allows("agentnet.example.com"));
        assert!(known.allows("Agentnet.Example.com.:443"));
        assert!(known.allows("agentnet.me.workers.dev"));
        assert!(!known.allows("workers.dev"));
        assert!(!known.allows("other.example.com"));
        assert!(!known.allows("agentnet.example.com.evil.net"));
    }

    #[test]
    fn a_request_for_another_host_is_refused_with_forbidden() {
        let known = KnownHosts::parse("");
        let req = Request::new(Method::Get, "http://evil.example.com/networks/demo/mcp")
            .with_header("Host", "evil.example.com");
        let refused = known.refusal(&req).expect("refused");
        assert_eq!(refused.status, 403);
        let local = Request::new(Method::Get, "http://127.0.0.1:8787/networks/demo/mcp");
        assert!(known.refusal(&local).is_none());
    }

    proptest! {
        #[test]
        fn any_host_header_is_answered_without_panicking(host in "\\PC{0,40}", list in "\\PC{0,40}") {
            let known = KnownHosts::parse(&list);
            // Loopback stays known whatever the list says.
            if KnownHosts::parse("").allows(&host) {
                prop_assert!(known.allows(&host));
            }
        }
    }
}
