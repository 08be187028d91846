//! Discovery (docs/discovery.md): ACPs ACS capability documents ([`acs`]), ranked
//! capability search ([`search`]), the DRC registry → discovery change feed
//! ([`feed`]) with webhook pushes ([`webhook`]), ANP agent descriptions and
//! their `/.well-known/agent-descriptions` collection ([`descriptions`]),
//! network members as discovery lists them ([`members`]), the
//! `network.discovery.query` event's query and merge ([`network_query`]),
//! what passive registration may fetch and how often ([`fetch_policy`]),
//! and the state that ties them to the registry ([`catalog`]).
//!
//! Pure: the registry object stores rows and makes the HTTP calls; the
//! routes are [`crate::bindings::discovery`]'s.

pub mod acs;
pub mod catalog;
pub mod descriptions;
pub mod error;
pub mod feed;
pub mod fetch_policy;
pub mod members;
pub mod network_query;
pub mod search;
pub mod webhook;

pub use catalog::Catalog;
pub use error::DiscoveryError;
