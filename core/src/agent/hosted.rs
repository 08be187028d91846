//! Hosted agents: LLM agents a network's master adds from the Admin view,
//! which the network's own host runs (the edge's network object), so they
//! answer while no agent process runs anywhere.
//!
//! A hosted agent is an [`AgentConfig`] kept in the network's configuration
//! ([`HostedAgent`]) and a member of the network. Its provider key is not:
//! a master sends the key beside the configuration (`POST v1/admin/agents`
//! `{…, key}`), [`split_key`] takes it out before anything becomes an event,
//! and the host keeps it as that agent's secret ([`ProviderKey`]), which can
//! be replaced but never read back. Without one, the host uses the
//! deployment's key, the Worker secret [`DEPLOYMENT_KEY_VAR`].
//!
//! The admin events are `network.admin.agent.host` (the configuration, never
//! a key) and `network.admin.agent.unhost` `{address}`
//! (`crate::network::handlers::admin_hosted`).

use crate::agent::chat::ToolDef;
use crate::agent::config::{AgentConfig, AgentMode, ConfigError, ProviderKind};
use crate::ids::address::Address;
use crate::model::access::Permission;
use crate::model::state::State;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

use crate::ids::time::Timestamp;
pub use crate::model::hosted::{DEPLOYMENT_KEY_VAR, HostedAgent};
/// The longest provider key accepted, in bytes.
pub const MAX_KEY_LEN: usize = 1024;
/// The most hosted agents one network runs.
pub const MAX_HOSTED: usize = 16;
/// What a hosted agent says in place of an answer its host lost (a restart
/// or deploy while it was thinking): said once, where the answer would have gone.
pub const INTERRUPTED: &str =
    "I was interrupted (the network restarted) before I could answer. Please ask me again.";

/// A provider key: kept by the host only, never shown (its `Debug` and
/// `Display` say `[redacted]`).
#[derive(Clone, PartialEq, Eq)]
pub struct ProviderKey(String);

impl ProviderKey {
    /// A key: 1 to [`MAX_KEY_LEN`] visible ASCII characters.
    pub fn new(text: &str) -> Result<Self, HostedError> {
        let text = text.trim();
        if text.is_empty()
            || text.len() > MAX_KEY_LEN
            || !text.chars().all(|c| c.is_ascii_graphic())
        {
            return Err(HostedError::Key);
        }
        Ok(Self(text.to_owned()))
    }

    /// The key, for the one header it goes into.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ProviderKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProviderKey([redacted])")
    }
}

impl fmt::Display for ProviderKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Whose key a hosted agent calls its provider with (never the key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeySource {
    /// Its own, set by a master.
    Own,
    /// The deployment's ([`DEPLOYMENT_KEY_VAR`]).
    Deployment,
    /// None: its model calls are refused by the provider.
    None,
}

/// Why a hosted agent was refused. [`HostedError::reason`] is stable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostedError {
    /// The body is not a JSON object.
    #[error("the hosted agent is a JSON object")]
    NotAnObject,
    /// The key is empty, too long or has spaces or control characters.
    #[error("key is 1 to {MAX_KEY_LEN} visible characters")]
    Key,
    /// A key in an event, where it would be logged.
    #[error("a provider key is never sent in an event: send it to POST v1/admin/agents")]
    KeyInEvent,
    /// The configuration is refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A command agent runs a program, which the network's host cannot.
    #[error(
        "a hosted agent calls a model provider (openai_chat or anthropic_messages), not a command"
    )]
    Command,
    /// The personal assistant runs as an npm agent.
    #[error("a hosted agent answers in chat mode; run the personal assistant with the npm package")]
    Mode,
    /// The display name is too long.
    #[error("name is at most 80 characters")]
    Name,
}

impl HostedError {
    /// The stable reason, naming what is wrong.
    pub const fn reason(&self) -> &'static str {
        match self {
            Self::NotAnObject => "hosted_agent_malformed",
            Self::Key => "hosted_agent_key",
            Self::KeyInEvent => "hosted_agent_key_in_event",
            Self::Config(e) => e.reason(),
            Self::Command => "hosted_agent_command",
            Self::Mode => "hosted_agent_mode",
            Self::Name => "hosted_agent_name",
        }
    }
}

/// Splits a master's request into the event's payload (everything but the
/// key) and the key, if one was given.
pub fn split_key(body: &Value) -> Result<(Value, Option<ProviderKey>), HostedError> {
    let Value::Object(fields) = body else {
        return Err(HostedError::NotAnObject);
    };
    let mut payload = fields.clone();
    let key = match payload.remove("key") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) if text.trim().is_empty() => None,
        Some(Value::String(text)) => Some(ProviderKey::new(&text)?),
        Some(_) => return Err(HostedError::Key),
    };
    Ok((Value::Object(payload), key))
}

/// Reads a `network.admin.agent.host` payload: `{address (or name), persona
/// (or system_prompt), provider, base_url, model, tools?, answers?,
/// approve_tools?, approvers?, description?}`.
pub fn from_payload(
    payload: &Value,
    added_by: &Address,
    now: Timestamp,
) -> Result<HostedAgent, HostedError> {
    let Value::Object(fields) = payload else {
        return Err(HostedError::NotAnObject);
    };
    if fields.contains_key("key") {
        return Err(HostedError::KeyInEvent);
    }
    let name = fields
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
        .to_owned();
    if name.chars().count() > 80 {
        return Err(HostedError::Name);
    }
    let mut config: Map<String, Value> = fields.clone();
    config.remove("name");
    if let Some(persona) = config.remove("persona") {
        config.entry("system_prompt").or_insert(persona);
    }
    if !config.contains_key("address") {
        config.insert("address".into(), Value::String(address_from_name(&name)));
    }
    config.insert("key_var".into(), Value::String(DEPLOYMENT_KEY_VAR.into()));
    let config = AgentConfig::from_json(&Value::Object(config).to_string())?;
    if config.provider == ProviderKind::Command {
        return Err(HostedError::Command);
    }
    if config.mode != AgentMode::Chat {
        return Err(HostedError::Mode);
    }
    Ok(HostedAgent {
        config,
        name,
        added_by: added_by.clone(),
        added_at: now,
    })
}

/// `agent:{slug}` for a display name ("Support Bot" → `agent:support-bot`).
pub fn address_from_name(name: &str) -> String {
    let mut slug = String::new();
    for c in name.trim().chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    format!("agent:{}", if slug.is_empty() { "assistant" } else { slug })
}

/// The tools `agent` may call: each tool resource it may invoke (and does
/// not own) that its configuration allows, under a provider-safe name
/// (`a-z A-Z 0-9 _ -`, unique), with the resource's address by that name.
pub fn tools_for(state: &State, agent: &Address) -> (Vec<ToolDef>, BTreeMap<String, Address>) {
    let mut defs = Vec::new();
    let mut names = BTreeMap::new();
    for resource in state.resources.values() {
        if resource.kind != crate::ids::address::ResourceKind::Tool
            || &resource.owner == agent
            || !state.may(agent, resource, Permission::Invoke)
        {
            continue;
        }
        let name = resource.address.to_string();
        let name = name.strip_prefix("resource/tool/").unwrap_or(&name);
        let mut safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(60)
            .collect();
        let base = safe.clone();
        let mut n = 2;
        while names.contains_key(&safe) {
            safe = format!("{base}_{n}");
            n += 1;
        }
        names.insert(safe.clone(), resource.address.clone());
        defs.push(ToolDef {
            name: safe,
            description: resource.description.clone(),
            parameters: resource
                .schema
                .clone()
                .unwrap_or_else(|| serde_json::json!({"type": "object"})),
        });
    }
    (defs, names)
}

impl crate::agent::Agent {
    /// A message from before this loop started (read from the log when its
    /// host woke): remembered as the conversation's history, never answered.
    pub fn remember(&mut self, event: &crate::event::Event) {
        let me = self.config.address.clone();
        self.memory.answered.insert(event.id);
        if crate::agent::rules::mentions(&me, event) {
            self.memory
                .threads
                .insert(crate::agent::rules::thread_root(event));
        }
        self.memory.record(&me, event);
    }
}

#[cfg(test)]
#[path = "hosted_tests.rs"]
mod tests;
