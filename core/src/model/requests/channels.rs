//! The settings of channel requests (`network.channel.create`, `.join`).
//! Members and names are read by the handlers' shared address helpers.

use super::field::AsSent;
use serde::Deserialize;

/// `network.channel.create`'s settings (`network.channel.join` may add `tags`).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct ChannelSettings {
    /// Only invited members may join.
    pub private: AsSent<bool>,
    /// The name people typed.
    pub title: AsSent<String>,
    /// Tags to add (IOA's space tags).
    pub tags: AsSent<Vec<String>>,
}
