//! The payload of `network.discovery.query`: the fields of the registry's
//! `GET /registry/v1/discover`.

use super::field::request_types;
use serde::Deserialize;

request_types! {
    /// `{q?, tags?, mode?, transport?, verification?, network?, limit?}`.
    pub struct DiscoveryQuery {
        /// Search words.
        q: String,
        /// Tags every hit has.
        tags: Tags,
        /// A media type hits take.
        mode: String,
        /// A transport hits offer.
        transport: String,
        /// The lowest verification level (0–3).
        verification: u8,
        /// Only hits of this network.
        network: String,
        /// Most hits.
        limit: u64,
    }
}

/// Tags as a list, or as one comma-separated text.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Tags {
    /// `["a", "b"]`.
    Listed(Vec<String>),
    /// `"a, b"`.
    Joined(String),
}
