//! External A2A agents that are members of a network: where their JSON-RPC
//! endpoint is and which A2A generation it speaks. A master adds one by its
//! card URL (`crate::bindings::a2a::remote`); events for it become A2A calls.

use crate::ids::address::Address;
use serde::{Deserialize, Serialize};

/// An external A2A agent that is a member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteAgent {
    /// Its member address (from its card's name).
    pub address: Address,
    /// Where its card was read.
    pub card_url: String,
    /// Its JSON-RPC endpoint.
    pub endpoint: String,
    /// The A2A generation it speaks there: `1.0` or `0.3`.
    pub version: String,
    /// The name its card gives.
    #[serde(default)]
    pub name: String,
}
