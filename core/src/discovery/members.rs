//! Network members as discovery sees them: a member's public record
//! ([`member_record`]: address, name, description, DID, verification level,
//! the skills and tags its profile's `meta` publishes, the tools it offers
//! ([`tools_of`]) — so a search for `calculator` finds the member offering
//! `resource/tool/calculator`), its search entry
//! ([`member_entry`]), its search result with the network's endpoints
//! ([`member_hit`]) and its ANP agent description ([`member_description`]),
//! whose OpenRPC interface for the member's tools ([`tools_of`]) the
//! registry's binding adds (`crate::bindings::anp::openrpc`).
//!
//! The same record serves a network answering `network.discovery.query` over
//! its own roster and the registry listing the members of public networks
//! who opted in (`profile.listed`).

use super::descriptions::{AD_VERSION, context, network_interfaces};
use super::search::{Entry, elements};
use crate::ids::address::{Address, ResourceKind};
use crate::model::access::AccessRule;
use crate::model::membership::Member;
use crate::model::state::Resource;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Most skills one member's profile publishes to search.
pub const MAX_MEMBER_SKILLS: usize = 32;
/// Most tools one member's record publishes.
pub const MAX_MEMBER_TOOLS: usize = 32;
/// The prefix of a tool's address; the rest is its name.
const TOOL_PREFIX: &str = "resource/tool/";

/// The tools `owner` offers among `resources` that every member of its
/// network may see (read rule `network`; a tool kept to a few stays out of
/// every listing): `{name, address, description, schema}`, by name, at most
/// [`MAX_MEMBER_TOOLS`]. Search finds a member by their names; its ANP
/// description offers them over OpenRPC (`crate::bindings::anp::openrpc`),
/// where a call is still checked for its caller.
pub fn tools_of<'a>(
    owner: &Address,
    resources: impl IntoIterator<Item = &'a Resource>,
) -> Vec<Value> {
    let mut tools: Vec<Value> = resources
        .into_iter()
        .filter(|r| r.kind == ResourceKind::Tool && &r.owner == owner)
        .filter(|r| r.permissions.read == AccessRule::Network)
        .filter_map(|r| {
            let address = r.address.to_string();
            let name = address.strip_prefix(TOOL_PREFIX)?.to_owned();
            Some(json!({"name": name, "address": address, "description": r.description, "schema": r.schema}))
        })
        .collect();
    crate::sorting::sort_by(&mut tools, |a, b| text(a, "name").cmp(text(b, "name")));
    tools.truncate(MAX_MEMBER_TOOLS);
    tools
}

/// The name part of an address (`agent:alice` → `alice`).
fn name_of(address: &str) -> &str {
    address.split_once(':').map_or(address, |(_, name)| name)
}

/// A member's public record: `{address, name, description, did, verification,
/// skills, tags, tools}`. `name` is `profile.meta.name` when it is a string, else the
/// address's name; `skills` are the objects of `profile.meta.skills` (at most
/// [`MAX_MEMBER_SKILLS`]), `tags` the strings of `profile.meta.tags`, `tools`
/// what [`tools_of`] found.
pub fn member_record(member: &Member, tools: Vec<Value>) -> Value {
    let address = member.address.to_string();
    let meta = &member.profile.meta;
    let name = meta
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.trim().is_empty())
        .map_or_else(|| name_of(&address).to_owned(), str::to_owned);
    let skills: Vec<Value> = elements(meta.get("skills"))
        .filter(|s| s.is_object())
        .take(MAX_MEMBER_SKILLS)
        .cloned()
        .collect();
    let tags: Vec<Value> = elements(meta.get("tags"))
        .filter(|t| t.is_string())
        .cloned()
        .collect();
    json!({"address": address, "name": name,
        "description": member.profile.description.clone().unwrap_or_default(),
        "did": member.did, "verification": member.verification.level(),
        "skills": skills, "tags": tags, "tools": tools})
}

fn text<'a>(record: &'a Value, key: &str) -> &'a str {
    record.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The search entry of a member `record` of `network`, keyed `id`.
pub fn member_entry(id: &str, network: &str, record: &Value) -> Entry {
    let level = record
        .get("verification")
        .and_then(Value::as_u64)
        .and_then(|l| u8::try_from(l).ok())
        .unwrap_or(0);
    let mut entry = Entry::new(id, text(record, "name"), text(record, "description"), level);
    entry.networks.insert(network.to_owned());
    for skill in elements(record.get("skills")) {
        entry.add_skill(skill);
    }
    if let Some(tags) = record.get("tags").filter(|t| t.is_array()) {
        entry.add_skill(&json!({ "tags": tags }));
    }
    // A tool is searched like a skill of its name: `calculator` finds it whole.
    for tool in elements(record.get("tools")) {
        entry.add_skill(&json!({"id": tool.get("name"), "name": tool.get("name"),
            "description": tool.get("description")}));
    }
    entry
}

/// A member's search result: `{id, kind: "member", address, network, did,
/// description, skills, tools, endpoints}` (the network's interfaces at `origin`);
/// the caller adds `score`, `name`, `verification` and `networks`.
pub fn member_hit(id: &str, network: &str, record: &Value, origin: &str) -> Value {
    json!({"id": id, "kind": "member", "address": record.get("address"), "network": network,
        "did": record.get("did"), "description": text(record, "description"),
        "skills": record.get("skills").cloned().unwrap_or(json!([])),
        "tools": record.get("tools").cloned().unwrap_or(json!([])),
        "endpoints": network_interfaces(origin, network)})
}

/// The ANP agent description of a listed member `record` of `network`,
/// served at `url`: its DID (when its join proved one), the network's
/// interfaces as its endpoints, didwba security.
pub fn member_description(network: &str, record: &Value, url: &str, origin: &str) -> Value {
    json!({
        "@context": context(), "@type": "ad:AgentDescription",
        "protocolType": "ANP", "protocolVersion": AD_VERSION, "type": "AgentDescription",
        "url": url, "name": text(record, "name"),
        "did": record.get("did").cloned().unwrap_or(Value::Null),
        "address": record.get("address"), "network": network,
        "owner": {"type": "Organization", "name": network,
            "url": format!("{origin}/networks/{network}/v1/profile")},
        "description": text(record, "description"),
        "skills": record.get("skills").cloned().unwrap_or(json!([])),
        "securityDefinitions": {"didwba_sc": {"scheme": "didwba", "in": "header", "name": "Authorization"}},
        "security": "didwba_sc",
        "interfaces": network_interfaces(origin, network),
    })
}

/// What a network tells the registry about itself for discovery: `{network,
/// public, members}`, the records of the members who opted in
/// (`profile.listed`) with the tools they offer among `resources`
/// ([`tools_of`]), none unless the network is public.
pub fn network_listing<'a>(
    network: &str,
    public: bool,
    members: impl IntoIterator<Item = &'a Member>,
    resources: &BTreeMap<Address, Resource>,
) -> Value {
    let listed: Vec<Value> = if public {
        members
            .into_iter()
            .filter(|m| m.profile.listed)
            .map(|m| member_record(m, tools_of(&m.address, resources.values())))
            .collect()
    } else {
        Vec::new()
    };
    json!({"network": network, "public": public, "members": listed})
}

/// The key a listed member of `network` has in the registry's catalog.
pub fn member_key(network: &str, address: &str) -> String {
    format!("member:{network}/{address}")
}
