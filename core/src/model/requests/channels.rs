//! The settings of channel requests (`network.channel.create`, `.join`).
//! Members and names are read by the handlers' shared address helpers.

use super::field::request_types;

request_types! {
    /// `network.channel.create`'s settings (`network.channel.join` may add `tags`).
    pub struct ChannelSettings {
        /// Only invited members may join.
        private: bool,
        /// The name people typed.
        title: String,
        /// Tags to add (IOA's space tags).
        tags: Vec<String>,
    }
}
