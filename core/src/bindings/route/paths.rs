//! The path and URL shapes of a network that other modules read without a
//! request: the per-network discovery path, the documents anyone may read,
//! and the network an endpoint URL names. A leaf: it uses nothing of the
//! bindings, so the discovery engine may use it too.

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

/// The network id in an endpoint URL `…/networks/{id}/…`.
pub fn network_in_url(url: &str) -> Option<String> {
    let rest = url.split(NETWORKS).nth(1)?;
    let id = rest.split(['/', '?', '#']).next()?;
    (!id.is_empty()).then(|| id.to_owned())
}
