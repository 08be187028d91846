//! agentnet-js: the wasm-bindgen face of `agentnet-core` for JavaScript.
//!
//! This crate only converts types and errors at the JS boundary; all
//! protocol logic stays in the core. Errors thrown to JS are `Error`
//! objects with a stable `code` property (`invalid_address`, …) that the
//! package's `AgentnetError` class wraps.

mod address;
mod agent;
mod answers;
mod client;
#[cfg(feature = "conformance")]
mod conformance;
#[cfg(test)]
mod declarations;
#[cfg(feature = "documents")]
mod documents;
mod effects;
mod errors;
mod identity;
mod replica;
mod trace;

pub use address::{address_info, matches_pattern, parse_address, parse_event_type, validate_event};
pub use agent::{JsAgentLoop, check_agent_config};
pub use answers::{read_answer_json, read_profile_json};
pub use client::JsClient;
#[cfg(feature = "conformance")]
pub use conformance::run_conformance_vector;
pub use identity::{key_pair_from_seed, public_key_of_secret, sign_join_challenge};
pub use replica::JsReplica;
pub use trace::trace_caused_by;
