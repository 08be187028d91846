//! Results in each revision's shapes: tool results, list and read results,
//! and the server's identity.
//!
//! A tool's output becomes text content (the string itself, or compact
//! JSON) and, from 2025-06-18, `structuredContent` — an object there (other
//! JSON is wrapped as `{"result": …}`), any JSON from 2026-07-28. A failure
//! (the owner's error, the network's refusal, no answer in time) is a result
//! with `isError: true` whose text says `code: message`, so a model can
//! read it and try again. From 2026-07-28 every result carries
//! `resultType: "complete"` and the server's identity in `_meta`, and list
//! and read results carry caching hints.

use super::envelope::SERVER_INFO;
use super::revision::Revision;
use crate::bindings::tool_result::InvokeResult;
use crate::{Event, Network};
use serde_json::{Map, Value, json};

/// The software's name in `serverInfo`.
pub const SERVER_NAME: &str = "agentnet";

/// How a tool call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolOutcome {
    /// The tool's output.
    Output(Value),
    /// It failed: a stable code and a message.
    Failed {
        /// The code (`forbidden`, `owner_offline`, `timeout`, the tool's own…).
        code: String,
        /// What went wrong.
        message: String,
    },
}

impl ToolOutcome {
    /// A failure.
    pub fn failed(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Failed {
            code: code.into(),
            message: message.into(),
        }
    }

    /// What a `network.resource.invoke.result` says: `{output}`, `{error: {code,
    /// message}}` (a message that is not text is told as the error's JSON), or
    /// (from an owner that answers in its own shape) the payload itself.
    pub fn of_result_event(event: &Event) -> Self {
        let result = InvokeResult::of(&event.payload);
        if let Some(failure) = result.failure() {
            let message = failure.message.unwrap_or_else(|| failure.error.to_string());
            return Self::failed(failure.code, message);
        }
        Self::Output(result.output().unwrap_or_else(|| event.payload.clone()))
    }
}

/// Text content: a string as it is, anything else as compact JSON.
pub fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A text content block.
pub fn text_content(text: impl Into<String>) -> Value {
    json!({"type": "text", "text": text.into()})
}

/// `structuredContent` for `value` in `revision`, if it has any.
fn structure(revision: Revision, value: Value) -> Option<Value> {
    if !revision.has_titles_and_structure() {
        None
    } else if value.is_object() || revision.structure_may_be_any_json() {
        Some(value)
    } else {
        Some(json!({"result": value}))
    }
}

/// A `CallToolResult`.
pub fn tool_result(revision: Revision, outcome: ToolOutcome) -> Value {
    let (text, structured, is_error) = match outcome {
        ToolOutcome::Output(output) => (text_of(&output), output, false),
        ToolOutcome::Failed { code, message } => (
            format!("{code}: {message}"),
            json!({"error": {"code": code, "message": message}}),
            true,
        ),
    };
    let mut result = Map::new();
    result.insert("content".into(), json!([text_content(text)]));
    if let Some(structured) = structure(revision, structured) {
        result.insert("structuredContent".into(), structured);
    }
    result.insert("isError".into(), json!(is_error));
    complete(revision, Value::Object(result))
}

/// The server's identity: `{name, version}`, with the network's name as `title` from 2025-06-18.
pub fn server_info(network: &Network, revision: Revision) -> Value {
    let mut info = json!({"name": SERVER_NAME, "version": env!("CARGO_PKG_VERSION")});
    if revision.has_titles_and_structure() {
        info["title"] = json!(format!(
            "{} (agentnet network {})",
            network.config().name,
            network.id()
        ));
    }
    info
}

/// A finished result: from 2026-07-28 with `resultType` and `_meta.serverInfo`.
pub fn complete(revision: Revision, mut result: Value) -> Value {
    if revision.marks_results()
        && let Value::Object(object) = &mut result
    {
        object.insert("resultType".into(), json!("complete"));
        let meta = object.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(meta) = meta {
            meta.insert(
                SERVER_INFO.into(),
                json!({"name": SERVER_NAME, "version": env!("CARGO_PKG_VERSION")}),
            );
        }
    }
    result
}

/// A list or read result: [`complete`] plus, from 2026-07-28, caching hints —
/// stale at once (`ttlMs: 0`; list changes are also notified) and `private`
/// (what a member sees depends on its permissions).
pub fn cacheable(revision: Revision, result: Value) -> Value {
    let mut result = complete(revision, result);
    if revision.marks_results()
        && let Value::Object(object) = &mut result
    {
        object.insert("ttlMs".into(), json!(0));
        object.insert("cacheScope".into(), json!("private"));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use Revision::*;

    #[test]
    fn outputs_follow_each_revision() {
        let out = |r, v: Value| tool_result(r, ToolOutcome::Output(v));
        assert_eq!(
            out(V2025_03_26, json!({"sum": 3})),
            json!({"content": [{"type": "text", "text": "{\"sum\":3}"}], "isError": false})
        );
        assert_eq!(
            out(V2025_06_18, json!({"sum": 3}))["structuredContent"],
            json!({"sum": 3})
        );
        assert_eq!(
            out(V2025_11_25, json!(42))["structuredContent"],
            json!({"result": 42})
        );
        let modern = out(V2026_07_28, json!("hi"));
        assert_eq!(modern["structuredContent"], json!("hi"));
        assert_eq!(modern["content"][0]["text"], "hi");
        assert_eq!(modern["resultType"], "complete");
        assert_eq!(modern["_meta"][SERVER_INFO]["name"], "agentnet");
    }

    #[test]
    fn failures_are_error_results_a_model_can_read() {
        let failed = tool_result(V2025_06_18, ToolOutcome::failed("forbidden", "no invoke"));
        assert_eq!(failed["isError"], true);
        assert_eq!(failed["content"][0]["text"], "forbidden: no invoke");
        assert_eq!(failed["structuredContent"]["error"]["code"], "forbidden");
        assert!(
            tool_result(V2025_03_26, ToolOutcome::failed("x", "y"))
                .get("structuredContent")
                .is_none()
        );
    }

    #[test]
    fn invoke_results_are_read_in_every_shape() {
        let event = |payload: Value| {
            let text = json!({"id": "01HQV2WA00000000000000000A", "type": "network.resource.invoke.result",
                "source": "agent:a", "target": "agent:b", "payload": payload, "timestamp": 1});
            Event::decode(&text.to_string(), &crate::Limits::default()).unwrap()
        };
        assert_eq!(
            ToolOutcome::of_result_event(&event(json!({"output": 5}))),
            ToolOutcome::Output(json!(5))
        );
        assert_eq!(
            ToolOutcome::of_result_event(&event(
                json!({"error": {"code": "bad", "message": "no"}})
            )),
            ToolOutcome::failed("bad", "no")
        );
        assert_eq!(
            ToolOutcome::of_result_event(&event(json!({"sum": 2}))),
            ToolOutcome::Output(json!({"sum": 2}))
        );
        // Today's lenient readings, pinned: a null error is none, a null
        // output is the output, an error without string fields is told as JSON.
        for (payload, outcome) in [
            (
                json!({"error": null, "output": 5}),
                ToolOutcome::Output(json!(5)),
            ),
            (json!({"output": null}), ToolOutcome::Output(Value::Null)),
            (
                json!({"error": {"message": "no"}, "output": 1}),
                ToolOutcome::failed("tool_failed", "no"),
            ),
            (
                json!({"error": "boom"}),
                ToolOutcome::failed("tool_failed", "\"boom\""),
            ),
            (
                json!({"error": [1, 2]}),
                ToolOutcome::failed("tool_failed", "[1,2]"),
            ),
            (
                json!({"error": {"code": 7, "message": ["x"]}}),
                ToolOutcome::failed("tool_failed", r#"{"code":7,"message":["x"]}"#),
            ),
            (
                json!({"error": {"code": "bad"}}),
                ToolOutcome::failed("bad", r#"{"code":"bad"}"#),
            ),
        ] {
            assert_eq!(ToolOutcome::of_result_event(&event(payload)), outcome);
        }
    }

    #[test]
    fn only_modern_results_carry_cache_hints() {
        assert_eq!(
            cacheable(V2025_11_25, json!({"tools": []})),
            json!({"tools": []})
        );
        let modern = cacheable(V2026_07_28, json!({"tools": []}));
        assert_eq!(
            (modern["ttlMs"].clone(), modern["cacheScope"].clone()),
            (json!(0), json!("private"))
        );
    }
}
