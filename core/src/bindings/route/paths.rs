//! The path and URL shapes of a network that other modules read without a
//! request: the per-network discovery path, the documents anyone may read,
//! the network (and A2A member) an endpoint URL names, and the one builder
//! of a network's paths ([`network_path`]) the workspace and hosts use. A
//! leaf: it uses nothing of the bindings, so the discovery engine and the
//! web workspace may use it too.

use crate::ids::network_id::NetworkId;

/// The prefix of every path that belongs to a network.
pub const NETWORKS: &str = "/networks/";
/// The ANP discovery path, at the deployment's root or under a network.
pub const AGENT_DESCRIPTIONS: &str = "/.well-known/agent-descriptions";

/// `(id, tail)` of a path under [`NETWORKS`]: the id segment as written and
/// what follows it (empty, or starting with `/`).
pub fn split(path: &str) -> Option<(&str, &str)> {
    let rest = path.strip_prefix(NETWORKS)?;
    Some(match rest.find('/') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    })
}

/// The network `{id}` of a per-network discovery path `/networks/{id}/.well-known/agent-descriptions`.
pub fn well_known_network(path: &str) -> Option<&str> {
    let (id, tail) = split(path)?;
    (tail == AGENT_DESCRIPTIONS && id.parse::<NetworkId>().is_ok()).then_some(id)
}

/// A network's root (`/networks/{id}`, `/networks/{id}/`) or its profile
/// (`/networks/{id}/v1/profile`): documents anyone may read.
pub fn is_profile(path: &str) -> bool {
    let mut segments = path.trim_start_matches('/').split('/');
    matches!(
        (
            segments.next(),
            segments.next(),
            segments.next(),
            segments.next(),
            segments.next(),
        ),
        (Some("networks"), Some(_), None | Some(""), None, None)
            | (Some("networks"), Some(_), Some("v1"), Some("profile"), None)
    )
}

/// The path of `tail` (empty, or starting with `/`: `/v1/profile`,
/// `/v1/ws`, `/a2a/{address}`…) under network `id`.
pub fn network_path(id: &str, tail: &str) -> String {
    format!("{NETWORKS}{id}{tail}")
}

/// The network id in an endpoint URL `…/networks/{id}/…`.
pub fn network_in_url(url: &str) -> Option<String> {
    endpoint_in_url(url).map(|(network, _)| network)
}

/// The network id of an endpoint URL `…/networks/{id}/…` and, when it is a
/// member's A2A endpoint `…/networks/{id}/a2a/{address}…`, that address.
pub fn endpoint_in_url(url: &str) -> Option<(String, Option<String>)> {
    let rest = url.split(NETWORKS).nth(1)?;
    let mut parts = rest.split(['/', '?', '#']);
    let network = parts.next().filter(|id| !id.is_empty())?.to_owned();
    let address = match (parts.next(), parts.next()) {
        (Some("a2a"), Some(address)) if address.contains(':') && !address.starts_with('.') => {
            Some(address.to_owned())
        }
        _ => None,
    };
    Some((network, address))
}
