//! A hosted agent as the network's configuration keeps it
//! (`NetworkConfig::hosted_agents`): its agent loop's configuration, the
//! name people read, who added it. Never its key (`crate::agent::hosted`).

use crate::agent::config::AgentConfig;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};

/// The Worker secret holding a deployment-wide provider key, used by hosted
/// agents that have no key of their own (`wrangler secret put AGENTNET_MODEL_KEY`).
pub const DEPLOYMENT_KEY_VAR: &str = "AGENTNET_MODEL_KEY";

/// One hosted agent: its loop's configuration and the name people see.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostedAgent {
    /// The agent loop's configuration; its `key_var` is always [`DEPLOYMENT_KEY_VAR`]
    /// (the host puts the agent's own key there when it has one).
    pub config: AgentConfig,
    /// The name people read.
    #[serde(default)]
    pub name: String,
    /// The master who added it.
    pub added_by: Address,
    /// When.
    pub added_at: Timestamp,
}
