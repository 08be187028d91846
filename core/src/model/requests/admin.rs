//! The payloads of a master's `network.admin.*` requests that have a shape:
//! settings, token rotation, revoking an invitation, loading or configuring
//! a standard mod (an agent mod's payload is a
//! `crate::model::agent_mod::AgentMod` itself) and the channels of a hosted
//! agent (its configuration is a `crate::agent::hosted` one).

use super::field::request_types;
use crate::event::Limits;
use crate::model::file_limits::FileLimits;
use serde_json::{Map, Value};

request_types! {
    /// `network.admin.settings.update`: each setting sent is changed.
    pub struct SettingsUpdate {
        /// How long a silent member stays present.
        presence_timeout_ms: u64,
        /// The frame and payload bounds.
        limits: Limits,
        /// The bounds of shared files.
        files: FileLimits,
        /// Whether the network is listed.
        public: bool,
        /// Its name.
        name: String,
        /// Its description.
        description: String,
    }

    /// `network.admin.token.rotate`: `{token: "access" | "admin"}`.
    pub struct TokenRotate {
        /// Which token.
        token: String,
    }

    /// `network.admin.invitation.revoke`: `{code}`.
    pub struct InvitationRevoke {
        /// The invitation's code.
        code: String,
    }

    /// `network.admin.mod.load` / `.unload` / `.configure`: a standard mod's
    /// `{name, settings?, priority?}`, or an agent mod's `{agent, …}`.
    pub struct ModChange {
        /// The agent installed as a mod (its presence makes this an agent mod).
        agent: String,
        /// The standard mod's name (`persistence` or `mod/persistence`).
        name: String,
        /// Free-form: the mod's own settings, whose shape is the named mod's
        /// (read as its `crate::model::config::ModConfig` once tagged with its name).
        settings: Map<String, Value>,
        /// Its place in the pipeline.
        priority: i32,
    }

    /// `network.admin.agent.host`'s `channels`, beside the hosted agent's configuration.
    pub struct HostChannels {
        /// The channels it is put in (default: the open ones), each kept as
        /// sent for the message that refuses it.
        channels: Vec<Value>,
    }
}
