//! The payload of `network.discovery.query`: the fields of the registry's
//! `GET /registry/v1/discover`.

use super::field::AsSent;
use serde::Deserialize;

/// `{q?, tags?, mode?, transport?, verification?, network?, limit?}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct DiscoveryQuery {
    /// Search words.
    pub q: AsSent<String>,
    /// Tags every hit has.
    pub tags: AsSent<Tags>,
    /// A media type hits take.
    pub mode: AsSent<String>,
    /// A transport hits offer.
    pub transport: AsSent<String>,
    /// The lowest verification level (0–3).
    pub verification: AsSent<u8>,
    /// Only hits of this network.
    pub network: AsSent<String>,
    /// Most hits.
    pub limit: AsSent<u64>,
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
