//! One agent a Directory search found ([`Found`], read from a result of
//! `GET /registry/v1/discover`) and where it can be reached ([`reach_of`],
//! a pure function of its endpoints).

use agentnet_core::bindings::route::paths;
use serde_json::Value;

/// One agent a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Its id (an AIC or a description URL).
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it says about itself.
    pub description: String,
    /// Its skills' names.
    pub skills: Vec<String>,
    /// The names of the tools it offers.
    pub tools: Vec<String>,
    /// The network it is a member of (a listed member), if any.
    pub network: Option<String>,
    /// Its rank score.
    pub score: u64,
    /// Its verification level.
    pub verification: u64,
    /// Its agent description's URL.
    pub description_url: String,
    /// The network it is in and its address there, when an endpoint says so.
    pub reachable: Option<(String, String)>,
    /// Its A2A card, for an agent of a network's A2A binding.
    pub card_url: Option<String>,
}

/// The network id and member address of an endpoint `…/networks/{id}/a2a/{address}`,
/// or the network alone (with `fallback` as the address) of any `…/networks/{id}/…`.
pub fn reach_of(url: &str, fallback: Option<&str>) -> Option<(String, String)> {
    let (network, address) = paths::endpoint_in_url(url)?;
    Some((network, address.or_else(|| fallback.map(str::to_owned))?))
}

impl Found {
    /// One result of `GET /registry/v1/discover`.
    pub fn from_json(agent: &Value) -> Self {
        let text = |k: &str| {
            agent
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let address = agent.get("address").and_then(Value::as_str);
        let urls: Vec<String> = agent
            .get("endpoints")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| e.get("url").and_then(Value::as_str).map(str::to_owned))
            .collect();
        let reachable = urls.iter().find_map(|u| reach_of(u, address));
        let card_url = reachable.as_ref().and_then(|(network, address)| {
            let a2a = paths::network_path(network, &format!("/a2a/{address}"));
            urls.iter()
                .any(|u| u.contains(&a2a))
                .then(|| format!("{a2a}/.well-known/agent-card.json"))
        });
        let names = |key: &str| -> Vec<String> {
            agent
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|s| s.get("name").and_then(Value::as_str).map(str::to_owned))
                .collect()
        };
        Self {
            id: text("id"),
            name: text("name"),
            description: text("description"),
            skills: names("skills"),
            tools: names("tools"),
            network: agent
                .get("network")
                .and_then(Value::as_str)
                .map(str::to_owned),
            score: agent.get("score").and_then(Value::as_u64).unwrap_or(0),
            verification: agent
                .get("verification")
                .and_then(Value::as_u64)
                .unwrap_or(0),
            description_url: text("description_url"),
            reachable,
            card_url,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_agent_in_a_networks_a2a_binding_can_be_talked_to_and_its_card_opened() {
        let found = Found::from_json(
            &json!({"id": "AIC", "name": "helper", "score": 10, "verification": 2,
            "address": "openagents:helper", "skills": [{"name": "translation"}],
            "endpoints": [{"url": "http://h/networks/abc/a2a/agent:helper", "transport": "JSONRPC"}],
            "description_url": "http://h/registry/v1/agents/AIC/ad.json"}),
        );
        assert_eq!(found.reachable, Some(("abc".into(), "agent:helper".into())));
        assert_eq!(
            found.card_url.as_deref(),
            Some("/networks/abc/a2a/agent:helper/.well-known/agent-card.json")
        );
        assert_eq!(found.skills, ["translation"]);
    }

    #[test]
    fn other_endpoints_fall_back_to_the_registered_address_or_nothing() {
        assert_eq!(
            reach_of("http://h/networks/abc/mcp", Some("openagents:x")),
            Some(("abc".into(), "openagents:x".into()))
        );
        assert_eq!(
            reach_of(
                "http://h/networks/abc/a2a/.well-known/agent-card.json",
                None
            ),
            None
        );
        assert_eq!(
            reach_of("https://elsewhere/rpc", Some("openagents:x")),
            None
        );
        let found = Found::from_json(
            &json!({"name": "far", "endpoints": [{"url": "https://elsewhere/rpc"}]}),
        );
        assert_eq!((found.reachable, found.card_url), (None, None));
    }

    #[test]
    fn a_members_tools_are_read_by_name() {
        let found = Found::from_json(&json!({"name": "calc", "network": "n1",
            "tools": [{"name": "calculator", "description": "adds"}, {"bad": 1}]}));
        assert_eq!(found.tools, ["calculator"]);
        assert_eq!(found.network.as_deref(), Some("n1"));
    }

    #[test]
    fn a_listed_member_is_reached_in_its_network_at_its_address() {
        let found = Found::from_json(&json!({"id": "member:n1/agent:dana", "kind": "member",
            "name": "Dana", "address": "agent:dana", "network": "n1",
            "endpoints": [
                {"protocol": "agentnet-ws", "url": "ws://h/networks/n1/v1/ws"},
                {"protocol": "A2A", "url": "http://h/networks/n1/a2a/.well-known/agent-card.json"}],
            "description_url": "http://h/registry/v1/networks/n1/members/agent:dana/ad.json"}));
        assert_eq!(found.reachable, Some(("n1".into(), "agent:dana".into())));
        assert_eq!(
            found.card_url, None,
            "the network's card is not the member's"
        );
    }
}
