//! The network's data model: what a network is configured with and what it holds.
//!
//! Plain data with its invariants, used by the mods and the network engine
//! above it; no pipeline logic lives here.
//!
//! * [`config`] — access policy, delivery mode, status, limits and mods of a network
//! * [`membership`] — the membership record and presence
//! * [`access`] — access rules and resource permissions (§8)
//! * [`state`] — members, channels, groups, resources and the rows they persist as

pub mod access;
pub mod config;
pub mod membership;
pub mod state;
