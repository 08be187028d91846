//! The payload of an agent mod's verdict on an event it intercepts
//! (`crate::model::agent_mod::Verdict` reads it).

use super::field::{Object, request_types};
use serde_json::{Map, Value};

request_types! {
    /// `{verdict: "allow" | "reject" | "rewrite", reason?, event?: {payload, metadata?}}`.
    pub struct VerdictSent {
        /// `allow`, `reject` or `rewrite`.
        verdict: String,
        /// Why it rejects.
        reason: String,
        /// The event as rewritten.
        event: Object<Rewritten>,
    }

    /// A rewritten event: its new payload, and its new metadata when given.
    pub struct Rewritten {
        /// Free-form: the intercepted event's new payload, its app's own shape.
        payload: Value,
        /// Free-form: the new metadata, passed on as the agent gives it.
        metadata: Map<String, Value>,
    }
}
