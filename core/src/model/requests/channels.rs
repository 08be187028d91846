//! The settings of channel requests (`network.channel.create`, `.join`).
//! Members and names are read by the handlers' shared address helpers.

use super::field::AsSent;
use serde::{Deserialize, Serialize};

/// `network.channel.create`'s settings (`network.channel.join` may add `tags`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ChannelSettings {
    /// Only invited members may join.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub private: AsSent<bool>,
    /// The name people typed.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub title: AsSent<String>,
    /// Tags to add (IOA's space tags).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub tags: AsSent<Vec<String>>,
}
