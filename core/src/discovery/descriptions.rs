//! ANP agent descriptions (ANP's description and discovery specifications,
//! docs/protocols.md): the agent description document (AD) of a registered
//! agent ([`agent_description`]), the JSON-LD `CollectionPage` of
//! `/.well-known/agent-descriptions` ([`collection_page`], paged with `next` until it is absent), and the
//! checks on a description an outside agent submits ([`check_submitted`]).

use super::error::DiscoveryError;
use super::search::elements;
use crate::bindings::route::paths::network_in_url as network_of;
use crate::identity::did::Did;
use crate::identity::time::format_rfc3339;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The ANP discovery path.
pub use crate::bindings::route::paths::AGENT_DESCRIPTIONS as WELL_KNOWN;
/// Agents on one collection page unless the caller asks for fewer.
pub const DEFAULT_PAGE: usize = 100;
/// Most agents on one collection page.
pub const MAX_PAGE: usize = 500;
/// The AD protocol version written.
pub const AD_VERSION: &str = "1.0.0";

/// The JSON-LD context of discovery documents.
pub fn context() -> Value {
    json!({"@vocab": "https://schema.org/", "did": "https://w3id.org/did#",
        "ad": "https://agent-network-protocol.com/ad#"})
}

/// One listed agent: its sort key, name and the URL of its description.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Listed {
    /// Where it sorts (unique).
    pub key: String,
    /// Its name.
    pub name: String,
    /// Its description's URL (`@id`).
    pub url: String,
}

/// The page of `listed` (sorted by key) after `after`: `page_url` is this
/// page's URL; `next_url(key)` builds the following page's.
pub fn collection_page(
    listed: &[Listed],
    after: Option<&str>,
    limit: usize,
    page_url: &str,
    next_url: impl Fn(&str) -> String,
) -> Value {
    let limit = limit.clamp(1, MAX_PAGE);
    let rest: Vec<&Listed> = listed
        .iter()
        .filter(|l| after.is_none_or(|a| l.key.as_str() > a))
        .take(limit + 1)
        .collect();
    let items: Vec<Value> = rest
        .iter()
        .take(limit)
        .map(|l| json!({"@type": "ad:AgentDescription", "name": l.name, "@id": l.url}))
        .collect();
    let mut page = json!({"@context": context(), "@type": "CollectionPage",
        "url": page_url, "items": items});
    if rest.len() > limit
        && let (Some(last), Some(obj)) = (rest.get(limit - 1), page.as_object_mut())
    {
        obj.insert("next".into(), Value::String(next_url(&last.key)));
    }
    page
}

/// The interfaces of a network `id` at `origin`: its WebSocket and HTTP
/// bindings, MCP endpoint and A2A card.
pub fn network_interfaces(origin: &str, id: &str) -> Vec<Value> {
    let ws = origin.replacen("http", "ws", 1);
    let base = format!("{origin}/networks/{id}");
    vec![
        json!({"type": "StructuredInterface", "protocol": "agentnet-ws", "url": format!("{ws}/networks/{id}/v1/ws"),
            "description": "the network's WebSocket binding (event envelopes)"}),
        json!({"type": "StructuredInterface", "protocol": "agentnet-http", "url": format!("{base}/v1/profile"),
            "description": "the network's HTTP binding (profile with every endpoint)"}),
        json!({"type": "StructuredInterface", "protocol": "MCP", "url": format!("{base}/mcp"),
            "description": "the network as an MCP server (Streamable HTTP)"}),
        json!({"type": "StructuredInterface", "protocol": "A2A", "url": format!("{base}/a2a/.well-known/agent-card.json"),
            "description": "the network's A2A agent card"}),
    ]
}

/// The AD of a registered agent: `record` is its public registry record
/// (`name`, `did_wba`, `aic`, `acs`, `registered_at`), `url` the AD's own URL.
pub fn agent_description(record: &Value, url: &str, origin: &str) -> Value {
    let acs = record.get("acs").filter(|a| a.is_object());
    let acs_text = |k: &str| acs.and_then(|a| a.get(k)).and_then(Value::as_str);
    let name = record.get("name").and_then(Value::as_str).unwrap_or("");
    let provider = acs.and_then(|a| a.get("provider"));
    let provider_text = |k: &str| provider.and_then(|p| p.get(k)).and_then(Value::as_str);
    let mut interfaces = Vec::new();
    let mut networks = BTreeSet::new();
    for e in elements(acs.and_then(|a| a.get("endPoints"))) {
        let endpoint_url = e.get("url").and_then(Value::as_str).unwrap_or("");
        interfaces.push(json!({"type": "StructuredInterface",
            "protocol": e.get("transport").cloned().unwrap_or(Value::Null),
            "url": endpoint_url, "description": "an endpoint from the agent's ACS"}));
        networks.extend(network_of(endpoint_url));
    }
    for id in networks {
        interfaces.extend(network_interfaces(origin, &id));
    }
    let aic = record.get("aic").and_then(Value::as_str).unwrap_or("");
    interfaces.push(json!({"type": "StructuredInterface", "protocol": "ACS",
        "url": format!("{origin}/registry/v1/agents/{aic}/acs"), "description": "the agent's ACPs capability document"}));
    let created = record
        .get("registered_at")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        / 1000;
    json!({
        "@context": context(), "@type": "ad:AgentDescription",
        "protocolType": "ANP", "protocolVersion": AD_VERSION, "type": "AgentDescription",
        "url": url, "name": acs_text("name").unwrap_or(name),
        "did": record.get("did_wba").cloned().unwrap_or(Value::Null),
        "aic": aic,
        "owner": {"type": "Organization", "name": provider_text("organization").unwrap_or(name),
            "url": provider_text("url").unwrap_or(origin)},
        "description": acs_text("description").unwrap_or(""),
        "created": format_rfc3339(created),
        "securityDefinitions": {"didwba_sc": {"scheme": "didwba", "in": "header", "name": "Authorization"}},
        "security": "didwba_sc",
        "interfaces": interfaces,
    })
}

/// Checks a description an outside agent submitted from `url`: an ANP AD
/// with a name and a did:wba DID whose document it answers (`DID`), to be
/// resolved before it is listed.
pub fn check_submitted(doc: &Value, url: &str) -> Result<Did, DiscoveryError> {
    let bad = |what: &str| DiscoveryError::BadDescription(what.to_owned());
    if !doc.is_object() {
        return Err(bad("not a JSON object"));
    }
    let text = |k: &str| {
        doc.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
    };
    if text("protocolType") != Some("ANP") {
        return Err(bad("protocolType is \"ANP\""));
    }
    if text("type") != Some("AgentDescription") && text("@type") != Some("ad:AgentDescription") {
        return Err(bad("type is \"AgentDescription\""));
    }
    text("name").ok_or_else(|| bad("name is required"))?;
    if let Some(own) = text("url")
        && own != url
    {
        return Err(bad("its url is not the URL it was fetched from"));
    }
    let did: Did = text("did")
        .ok_or_else(|| bad("did is required"))?
        .parse()
        .map_err(|_| bad("did does not parse"))?;
    if !matches!(did, Did::Wba { .. }) {
        return Err(bad("did is a did:wba DID"));
    }
    if let Some(interfaces) = doc.get("interfaces")
        && !interfaces
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_object))
    {
        return Err(bad("interfaces is an array of objects"));
    }
    Ok(did)
}

/// The search text of a submitted description: its name and description.
pub fn submitted_text(doc: &Value) -> (String, String) {
    let text = |k: &str| doc.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    (text("name"), text("description"))
}

#[cfg(test)]
#[path = "descriptions_tests.rs"]
mod tests;
