//! IOA's four application protocols, recognised by `content_type` and
//! checked against their schemas (the IOA repository's `skills/*/schema.json`):
//!
//! | content_type | content | routing |
//! |---|---|---|
//! | `checkpoint` | `{id, kind?, title?, content?, target?, status?, options?[]}`; the reply `{option, feedback}` has no content_type and names the checkpoint in `refs.messages` | human review |
//! | `handoff` | `{title?, message?}` | `refs.nodes` |
//! | `team` | `{team, text}` | the `team` label |
//! | `swarm` | `{content, targets?[], task?, meta?}` | fan-out to `targets` |
//!
//! Any other content_type passes unchecked (IOA lets applications add their own).

use serde_json::{Map, Value};

/// The protocols checked here.
pub const PROTOCOLS: [&str; 4] = ["checkpoint", "handoff", "team", "swarm"];

/// Checkpoint statuses.
pub const STATUSES: [&str; 4] = ["confirmed", "not_confirmed", "info", "inconclusive"];

fn string(content: &Map<String, Value>, key: &str, required: bool) -> Result<(), String> {
    match content.get(key) {
        None if !required => Ok(()),
        Some(Value::String(_)) => Ok(()),
        None => Err(format!("{key} is required")),
        Some(_) => Err(format!("{key} must be a string")),
    }
}

fn strings(content: &Map<String, Value>, key: &str) -> Result<(), String> {
    match content.get(key) {
        None => Ok(()),
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => Ok(()),
        Some(_) => Err(format!("{key} must be a list of strings")),
    }
}

/// Why `content` is not a valid `content_type` message, if it is not.
pub fn invalid(content_type: &str, content: &Map<String, Value>) -> Option<String> {
    let checked = match content_type {
        "checkpoint" => string(content, "id", true)
            .and(
                ["kind", "title", "content", "target"]
                    .iter()
                    .try_for_each(|k| string(content, k, false)),
            )
            .and(match content.get("status") {
                None => Ok(()),
                Some(Value::String(s)) if STATUSES.contains(&s.as_str()) => Ok(()),
                Some(_) => Err(format!("status must be one of {}", STATUSES.join(", "))),
            })
            .and(strings(content, "options")),
        "handoff" => string(content, "title", false).and(string(content, "message", false)),
        "team" => string(content, "team", true).and(string(content, "text", true)),
        "swarm" => string(content, "content", true)
            .and(strings(content, "targets"))
            .and(match content.get("task") {
                None | Some(Value::Bool(_)) => Ok(()),
                Some(_) => Err("task must be true or false".into()),
            })
            .and(match content.get("meta") {
                None | Some(Value::Object(_)) => Ok(()),
                Some(_) => Err("meta must be an object".into()),
            }),
        _ => Ok(()),
    };
    checked.err().map(|why| format!("{content_type}: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(kind: &str, content: Value) -> Option<String> {
        invalid(kind, content.as_object().unwrap())
    }

    #[test]
    fn each_protocol_checks_its_fields() {
        assert_eq!(
            check(
                "checkpoint",
                json!({"id": "c1", "options": ["Approve", "Reject"]})
            ),
            None
        );
        assert_eq!(
            check("checkpoint", json!({"title": "x"})),
            Some("checkpoint: id is required".into())
        );
        assert!(check("checkpoint", json!({"id": "c", "status": "maybe"})).is_some());
        assert!(check("checkpoint", json!({"id": "c", "options": [1]})).is_some());
        assert_eq!(
            check("handoff", json!({"title": "t", "message": "m"})),
            None
        );
        assert!(check("team", json!({"team": "red"})).is_some());
        assert_eq!(
            check(
                "swarm",
                json!({"content": "go", "targets": ["a"], "task": true})
            ),
            None
        );
        assert!(check("swarm", json!({"content": "go", "task": "yes"})).is_some());
        assert_eq!(check("custom", json!({"anything": 1})), None);
    }
}
