//! Agent Cards: one per member that offers skills, and the network's.
//!
//! A member's skills are the tools it registered (`resource/tool/{name}`,
//! skill id `{name}`); the network's card lists every member's, with ids
//! `{address}/{name}` so a message to the network names the one it wants
//! (`metadata.skill`). A 1.0 card lists both generations in
//! `supportedInterfaces`; a 0.3 card (asked for without `A2A-Version: 1.0`)
//! has `url` and `protocolVersion`. Both say what the endpoint enforces:
//! a bearer session token from `POST /networks/{id}/v1/join`, or none
//! where the network lets public callers in as its A2A guest.
//!
//! A card lists only the tools its [`Viewer`] may read: a member (the
//! card was fetched with its bearer session) sees what its `read`
//! permission allows; anyone else only tools every member may read
//! (`read: network`).

use super::version::Version;
use crate::ids::address::{Address, Entity, ResourceKind};
use crate::model::access::{AccessRule, Permission};
use crate::model::state::{Resource, State};
use crate::{Network, NetworkId};
use serde_json::{Value, json};

/// How a card describes DIDWba authentication (did:wba method spec §3).
const DIDWBA_TEXT: &str = "Authorization: DIDWba did=…, nonce=…, timestamp=…, verification_method=…, signature=… \
     signed by a key of the caller's DID document; the answer carries a bearer session";

/// One skill: who offers it and its tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// The member that registered the tool.
    pub owner: Address,
    /// The tool's name.
    pub name: String,
    /// What it does.
    pub description: String,
}

/// Who reads a card or names a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer<'a> {
    /// A member, by its session.
    Member(&'a Address),
    /// Anyone: no (or no valid) credentials.
    Anyone,
}

impl Viewer<'_> {
    /// True when this viewer may read (see) `resource`.
    pub fn reads(&self, state: &State, resource: &Resource) -> bool {
        match self {
            Self::Member(who) => state.may(who, resource, Permission::Read),
            Self::Anyone => resource.permissions.read == AccessRule::Network,
        }
    }
}

fn skill_of(resource: &Resource) -> Option<Skill> {
    match (resource.kind, resource.address.entity()) {
        (ResourceKind::Tool, Entity::Tool(name)) => Some(Skill {
            owner: resource.owner.clone(),
            name: name.to_string(),
            description: resource.description.clone(),
        }),
        _ => None,
    }
}

/// The skills members offer that `viewer` may read (of `owner` only, when
/// given), in address order.
pub fn skills(state: &State, owner: Option<&Address>, viewer: Viewer<'_>) -> Vec<Skill> {
    state
        .resources
        .values()
        .filter(|r| viewer.reads(state, r))
        .filter_map(skill_of)
        .filter(|s| state.members.contains_key(&s.owner))
        .filter(|s| owner.is_none_or(|o| o == &s.owner))
        .collect()
}

/// The network's skill `id` (`{address}/{name}`, or a bare name offered
/// once) among those `viewer` may read.
pub fn find_skill(state: &State, id: &str, viewer: Viewer<'_>) -> Option<Skill> {
    let all = skills(state, None, viewer);
    if let Some(found) = all.iter().find(|s| format!("{}/{}", s.owner, s.name) == id) {
        return Some(found.clone());
    }
    let mut named = all.into_iter().filter(|s| s.name == id);
    match (named.next(), named.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// The JSON-RPC endpoint of `agent` (the network's when `None`).
pub fn endpoint(origin: &str, id: &NetworkId, agent: Option<&Address>) -> String {
    match agent {
        Some(agent) => format!("{origin}/networks/{id}/a2a/{agent}"),
        None => format!("{origin}/networks/{id}/a2a"),
    }
}

/// The card of `agent` (the network's when `None`) as `viewer` sees it, or
/// `None` when that agent offers no skill `viewer` may read.
pub fn card(
    network: &Network,
    origin: &str,
    agent: Option<&Address>,
    version: Version,
    viewer: Viewer<'_>,
) -> Option<Value> {
    let config = network.config();
    let tools = skills(network.state(), agent, viewer);
    // A member without tools that says it takes tasks (an LLM agent) has a
    // card too, its one skill taking a task in words: for members, and for
    // anyone only when it agreed to be listed outside the network (else its
    // card would tell a stranger it exists).
    let takes_tasks = agent
        .and_then(|a| network.state().members.get(a))
        .filter(|m| tools.is_empty() && m.profile.tasks == Some(true))
        .filter(|m| matches!(viewer, Viewer::Member(_)) || m.profile.listed);
    if agent.is_some() && tools.is_empty() && takes_tasks.is_none() {
        return None;
    }
    let mut skills: Vec<Value> = tools
        .iter()
        .map(|s| {
            let id = match agent {
                Some(_) => s.name.clone(),
                None => format!("{}/{}", s.owner, s.name),
            };
            json!({
                "id": id, "name": s.name, "description": s.description,
                "tags": ["tool", s.owner.to_string()],
            })
        })
        .collect();
    if let Some(member) = takes_tasks {
        let description = member
            .profile
            .description
            .clone()
            .filter(|d| !d.trim().is_empty())
            .unwrap_or_else(|| "Takes a task in words and answers it".to_owned());
        skills.push(json!({
            "id": "tasks", "name": "tasks", "description": description, "tags": ["task"],
        }));
    }
    let url = endpoint(origin, &config.id, agent);
    let (name, description) = match agent {
        Some(agent) => (
            agent.to_string(),
            format!("{agent}, a member of the agentnet network {}", config.name),
        ),
        None => (
            config.name.clone(),
            format!(
                "The agentnet network {} ({}): its members' skills",
                config.name, config.id
            ),
        ),
    };
    let mut card = json!({
        "name": name,
        "description": description,
        "version": env!("CARGO_PKG_VERSION"),
        "provider": {"organization": "agentnet", "url": origin},
        "capabilities": {"streaming": true, "pushNotifications": true},
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain", "application/json"],
        "skills": skills,
    });
    let public = config.a2a_guest.is_some();
    let join = format!("{origin}/networks/{}/v1/join", config.id);
    let scheme_text = format!("a session token from POST {join}");
    match version {
        Version::V1 => {
            card["supportedInterfaces"] = json!([
                {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
            ]);
            card["securitySchemes"] = json!({
                "session": {"httpAuthSecurityScheme": {"scheme": "Bearer", "description": scheme_text}},
                "didwba": {"httpAuthSecurityScheme": {"scheme": "DIDWba", "description": DIDWBA_TEXT}},
            });
            let mut alternatives = vec![
                json!({"schemes": {"session": {"list": []}}}),
                json!({"schemes": {"didwba": {"list": []}}}),
            ];
            if public {
                // An empty requirement among the alternatives: no credentials needed.
                alternatives.push(json!({"schemes": {}}));
            }
            card["securityRequirements"] = json!(alternatives);
        }
        Version::V03 => {
            card["url"] = json!(url);
            card["protocolVersion"] = json!("0.3.0");
            card["preferredTransport"] = json!("JSONRPC");
            card["securitySchemes"] = json!({
                "session": {"type": "http", "scheme": "bearer", "description": scheme_text},
                "didwba": {"type": "http", "scheme": "DIDWba", "description": DIDWBA_TEXT},
            });
            let mut alternatives = vec![json!({"session": []}), json!({"didwba": []})];
            if public {
                alternatives.push(json!({}));
            }
            card["security"] = json!(alternatives);
        }
    }
    Some(card)
}
