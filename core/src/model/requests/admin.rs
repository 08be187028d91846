//! The payloads of a master's `network.admin.*` requests that have a shape:
//! settings, token rotation, revoking an invitation, loading or configuring
//! a standard mod (an agent mod's payload is a
//! `crate::model::agent_mod::AgentMod` itself) and the channels of a hosted
//! agent (its configuration is a `crate::agent::hosted` one).

use super::field::AsSent;
use crate::event::Limits;
use crate::model::file_limits::FileLimits;
use serde::Deserialize;
use serde_json::{Map, Value};

/// `network.admin.settings.update`: each setting sent is changed.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct SettingsUpdate {
    /// How long a silent member stays present.
    pub presence_timeout_ms: AsSent<u64>,
    /// The frame and payload bounds.
    pub limits: AsSent<Limits>,
    /// The bounds of shared files.
    pub files: AsSent<FileLimits>,
    /// Whether the network is listed.
    pub public: AsSent<bool>,
    /// Its name.
    pub name: AsSent<String>,
    /// Its description.
    pub description: AsSent<String>,
}

/// `network.admin.token.rotate`: `{token: "access" | "admin"}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct TokenRotate {
    /// Which token.
    pub token: AsSent<String>,
}

/// `network.admin.invitation.revoke`: `{code}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct InvitationRevoke {
    /// The invitation's code.
    pub code: AsSent<String>,
}

/// `network.admin.mod.load` / `.unload` / `.configure`: a standard mod's
/// `{name, settings?, priority?}`, or an agent mod's `{agent, …}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct ModChange {
    /// The agent installed as a mod (its presence makes this an agent mod).
    pub agent: AsSent<String>,
    /// The standard mod's name (`persistence` or `mod/persistence`).
    pub name: AsSent<String>,
    /// Free-form: the mod's own settings, whose shape is the named mod's
    /// (read as its `crate::model::config::ModConfig` once tagged with its name).
    pub settings: AsSent<Map<String, Value>>,
    /// Its place in the pipeline.
    pub priority: AsSent<i32>,
}

/// `network.admin.agent.host`'s `channels`, beside the hosted agent's configuration.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct HostChannels {
    /// The channels it is put in (default: the open ones), each kept as
    /// sent for the message that refuses it.
    pub channels: AsSent<Vec<Value>>,
}
