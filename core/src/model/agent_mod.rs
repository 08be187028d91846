//! Mods written by developers: a member agent a master installs as a mod
//! What the network keeps of one — the agent, the event patterns
//! it intercepts, its mode and priority, how long the network waits for its
//! verdict and what it does when none comes — and the verdicts it may give.

use crate::ids::address::Address;
use crate::ids::event_type::{EventPattern, EventType};
use crate::model::requests::field::{nested, read};
use crate::model::requests::verdict::VerdictSent;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How a mod takes part in the pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ModMode {
    /// Inspects and may reject.
    Guard,
    /// May rewrite the event and emit new ones.
    Transform,
    /// Sees the final event; may emit, never change.
    Observe,
}

/// What the network does when an agent mod is offline or late with its verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum LatePolicy {
    /// Go on as if the mod allowed the event unchanged.
    FailOpen,
    /// Refuse the event with `mod_unavailable`.
    #[default]
    FailClosed,
}

/// Default time the network waits for an agent mod's verdict.
pub const DEFAULT_VERDICT_DEADLINE_MS: u64 = 5_000;
/// Longest deadline a master may configure: a parked event holds its sender's ack.
pub const MAX_VERDICT_DEADLINE_MS: u64 = 60_000;
/// Most agent mods one network installs.
pub const MAX_AGENT_MODS: usize = 32;
/// Most patterns one agent mod declares.
pub const MAX_PATTERNS: usize = 32;

fn default_deadline() -> u64 {
    DEFAULT_VERDICT_DEADLINE_MS
}

/// A member agent installed as a mod.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentMod {
    /// The member that gives the verdicts.
    pub agent: Address,
    /// The event types it intercepts (`*`, `prefix.*` or one type).
    pub patterns: Vec<EventPattern>,
    /// Guard, transform or observe.
    pub mode: ModMode,
    /// Lower runs earlier among the agent mods of its mode.
    #[serde(default)]
    pub priority: i32,
    /// How long the network waits for a verdict (guards and transforms).
    #[serde(default = "default_deadline")]
    pub deadline_ms: u64,
    /// What happens when the agent is offline or late.
    #[serde(default)]
    pub on_late: LatePolicy,
}

impl AgentMod {
    /// True when it intercepts `event_type`. The network's own types
    /// (`network.*`) are never handed to agent mods: joins, acks and admin
    /// must not wait on a member.
    pub fn intercepts(&self, event_type: &EventType) -> bool {
        !event_type.as_str().starts_with("network.")
            && self.patterns.iter().any(|p| p.matches(event_type))
    }

    /// Checks the bounds a master's request must keep.
    pub fn check(&self) -> Result<(), String> {
        if self.patterns.is_empty() || self.patterns.len() > MAX_PATTERNS {
            return Err(format!(
                "an agent mod declares 1 to {MAX_PATTERNS} patterns"
            ));
        }
        if self.deadline_ms == 0 || self.deadline_ms > MAX_VERDICT_DEADLINE_MS {
            return Err(format!(
                "deadline_ms is 1 to {MAX_VERDICT_DEADLINE_MS} milliseconds"
            ));
        }
        if !self.agent.is_local() || !self.agent.entity().is_participant() {
            return Err(format!("{} is not a local agent", self.agent));
        }
        Ok(())
    }
}

/// An agent mod's answer about one intercepted event.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Go on unchanged.
    Allow,
    /// Refuse it; the sender gets `rejected_by_mod` with this reason.
    Reject(String),
    /// Go on with this payload and metadata (transforms only).
    Rewrite {
        /// The new payload.
        payload: Value,
        /// The new metadata, when given.
        metadata: Option<Map<String, Value>>,
    },
}

impl Verdict {
    /// Reads `{verdict: "allow" | "reject" | "rewrite", reason?, event?: {payload, metadata?}}`.
    pub fn parse(payload: &Value) -> Result<Self, String> {
        let sent = read::<VerdictSent>(payload);
        match sent.verdict.as_text() {
            Some("allow") => Ok(Self::Allow),
            Some("reject") => Ok(Self::Reject(
                sent.reason
                    .as_text()
                    .unwrap_or("no reason given")
                    .chars()
                    .take(500)
                    .collect(),
            )),
            Some("rewrite") => {
                let event = nested(sent.event);
                let Some(new_payload) = event.payload.value() else {
                    return Err("a rewrite names event.payload".into());
                };
                let metadata = event
                    .metadata
                    .checked(|| "event.metadata is an object".to_owned())?;
                Ok(Self::Rewrite {
                    payload: new_payload,
                    metadata,
                })
            }
            _ => Err("verdict is allow, reject or rewrite".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_agent_mod_reads_with_defaults_and_never_takes_network_types() {
        let m: AgentMod = serde_json::from_value(json!({
            "agent": "agent:guard", "patterns": ["chat.*"], "mode": "guard"
        }))
        .unwrap();
        assert_eq!(m.deadline_ms, DEFAULT_VERDICT_DEADLINE_MS);
        assert_eq!(m.on_late, LatePolicy::FailClosed);
        assert!(m.intercepts(&"chat.msg".parse().unwrap()));
        assert!(!m.intercepts(&"task.create".parse().unwrap()));
        let any = AgentMod {
            patterns: vec![EventPattern::Any],
            ..m.clone()
        };
        assert!(!any.intercepts(&"network.agent.join".parse().unwrap()));
        assert_eq!(m.check(), Ok(()));
        let late = AgentMod {
            deadline_ms: MAX_VERDICT_DEADLINE_MS + 1,
            ..m
        };
        assert!(late.check().is_err());
        let text = serde_json::to_value(&late).unwrap();
        assert_eq!(text["on_late"], "fail-closed");
        assert_eq!(text["patterns"], json!(["chat.*"]));
    }

    #[test]
    fn verdicts_parse_and_bad_ones_are_named() {
        assert_eq!(
            Verdict::parse(&json!({"verdict": "allow"})),
            Ok(Verdict::Allow)
        );
        assert_eq!(
            Verdict::parse(&json!({"verdict": "reject", "reason": "rude"})),
            Ok(Verdict::Reject("rude".into()))
        );
        assert_eq!(
            Verdict::parse(&json!({"verdict": "rewrite", "event": {"payload": {"text": "hi"}}})),
            Ok(Verdict::Rewrite {
                payload: json!({"text": "hi"}),
                metadata: None
            })
        );
        assert!(Verdict::parse(&json!({"verdict": "rewrite"})).is_err());
        assert!(Verdict::parse(&json!({"verdict": "maybe"})).is_err());
        assert!(Verdict::parse(&json!(7)).is_err());
    }

    #[test]
    fn a_verdict_s_fields_of_another_type_read_as_they_always_did() {
        let parse = |payload: Value| Verdict::parse(&payload);
        let named = || Err("a rewrite names event.payload".to_owned());
        assert_eq!(parse(json!({"verdict": "rewrite", "event": [1]})), named());
        assert_eq!(parse(json!({"verdict": "rewrite", "event": {}})), named());
        assert_eq!(
            parse(json!({"verdict": "rewrite", "event": {"payload": null, "metadata": null}})),
            Ok(Verdict::Rewrite {
                payload: Value::Null,
                metadata: None
            })
        );
        assert_eq!(
            parse(json!({"verdict": "rewrite", "event": {"payload": 1, "metadata": [1]}})),
            Err("event.metadata is an object".to_owned())
        );
        assert_eq!(
            parse(json!({"verdict": "reject", "reason": 5})),
            Ok(Verdict::Reject("no reason given".into()))
        );
        assert_eq!(
            parse(json!({"verdict": ["allow"]})),
            Err("verdict is allow, reject or rewrite".to_owned())
        );
    }
}
