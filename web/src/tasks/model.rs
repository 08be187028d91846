//! Tasks as the page reads them: the listing's tasks, the text of their
//! parts, and which events change a task (so the list is read again).

use agentnet_core::model::task::Task;
use agentnet_core::network::task_types as types;
use serde_json::Value;

/// The tasks in a `task.list.response` payload (`{tasks: […]}`); none when it does not read.
pub fn tasks_from(payload: &Value) -> Vec<Task> {
    payload
        .get("tasks")
        .and_then(|t| serde_json::from_value(t.clone()).ok())
        .unwrap_or_default()
}

/// True for the event types that change a task (not the listing's own answer).
pub fn changes_a_task(kind: &str) -> bool {
    matches!(
        kind,
        types::CREATE | types::MESSAGE | types::UPDATE | types::ARTIFACT | types::CANCEL
    )
}

/// The text of a message's or artifact's parts: text parts as they are,
/// data parts as JSON, file parts by name.
pub fn text_of(parts: &[Value]) -> String {
    parts
        .iter()
        .map(|part| {
            if let Some(text) = part.get("text").and_then(Value::as_str) {
                text.to_owned()
            } else if let Some(data) = part.get("data") {
                data.to_string()
            } else if let Some(file) = part.get("file") {
                let name = file.get("name").and_then(Value::as_str).unwrap_or("a file");
                format!("[{name}]")
            } else {
                String::new()
            }
        })
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_listing_reads_as_tasks_and_parts_as_text() {
        let payload = json!({"tasks": [{
            "id": "t1", "context": "t1", "requester": "human:ann", "partners": ["agent:bob"],
            "mode": "direct", "state": "working", "history": [], "artifacts": [],
            "created_at": 1, "updated_at": 2
        }], "total": 1, "more": false});
        let tasks = tasks_from(&payload);
        assert_eq!(tasks.len(), 1);
        // As the core writes it: every field, timestamps past 2^32.
        let real = json!({"more": false, "total": 1, "tasks": [{
            "artifacts": [], "confirm": false, "context": "01M866R2SDZGKET33BHA9XA3Y5",
            "created_at": 1_795_504_737_076u64, "id": "01M866R2SDZGKET33BHA9XA3Y5",
            "history": [{"at": 1_795_504_737_076u64, "from": "human:guest-51378",
                "id": "01M866R2SDZGKET33BHA9XA3Y5", "parts": [{"text": "write the report"}],
                "role": "leader"}],
            "mode": "direct", "partners": ["agent:worker"], "requester": "human:guest-51378",
            "state": "completed", "updated_at": 1_795_504_737_139u64
        }]});
        assert_eq!(
            tasks_from(&real).len(),
            1,
            "a listing as the core writes it"
        );
        assert_eq!(tasks[0].state.as_str(), "working");
        assert!(tasks_from(&json!({"tasks": "no"})).is_empty());
        assert!(changes_a_task("task.update") && changes_a_task("task.artifact"));
        assert!(
            !changes_a_task(types::LIST_RESPONSE),
            "reading does not read again"
        );
        let parts = [
            json!({"text": "hello"}),
            json!({"data": {"n": 1}}),
            json!({"file": {"name": "a.txt"}}),
            json!({}),
        ];
        assert_eq!(text_of(&parts), "hello\n{\"n\":1}\n[a.txt]");
    }
}
