//! The payload of an agent mod's verdict on an event it intercepts
//! (`crate::model::agent_mod::Verdict` reads it).

use super::field::{AsSent, Object};
use serde::Deserialize;
use serde_json::{Map, Value};

/// `{verdict: "allow" | "reject" | "rewrite", reason?, event?: {payload, metadata?}}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct VerdictSent {
    /// `allow`, `reject` or `rewrite`.
    pub verdict: AsSent<String>,
    /// Why it rejects.
    pub reason: AsSent<String>,
    /// The event as rewritten.
    pub event: AsSent<Object<Rewritten>>,
}

/// A rewritten event: its new payload, and its new metadata when given.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Rewritten {
    /// Free-form: the intercepted event's new payload, its app's own shape.
    pub payload: AsSent<Value>,
    /// Free-form: the new metadata, passed on as the agent gives it.
    pub metadata: AsSent<Map<String, Value>>,
}
