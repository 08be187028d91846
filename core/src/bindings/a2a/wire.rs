//! A2A's JSON shapes in both generations, from and to the network's tasks.
//!
//! A task's parts are kept in A2A 1.0's form (`{text}`, `{data}`,
//! `{url, mediaType, filename}`, `{raw}`); 0.3's `kind`-tagged parts
//! (`{kind:"text", text}`, `{kind:"file", file:{uri|bytes, mimeType, name}}`)
//! are read into it and written from it here.

use super::version::Version;
use crate::ids::time::Timestamp;
use crate::model::task::{Task, TaskArtifact, TaskMessage, TaskRole};
use serde_json::{Map, Value, json};

/// A request field by its JSON name (`historyLength`), else by its proto
/// field name (`history_length`): ProtoJSON parsers accept both, and A2A
/// 1.0's clients (its TCK among them) send either.
pub fn field<'a>(object: &'a Value, json_name: &str) -> Option<&'a Value> {
    object.as_object().and_then(|map| field_in(map, json_name))
}

/// [`field`] of a JSON object already read as a map.
pub fn field_in<'a>(object: &'a Map<String, Value>, json_name: &str) -> Option<&'a Value> {
    object.get(json_name).or_else(|| {
        let mut proto_name = String::with_capacity(json_name.len() + 4);
        for c in json_name.chars() {
            if c.is_ascii_uppercase() {
                proto_name.push('_');
                proto_name.push(c.to_ascii_lowercase());
            } else {
                proto_name.push(c);
            }
        }
        object.get(&proto_name)
    })
}

/// The history a request asks for: `historyLength`, at the top or in its
/// `configuration` (either by its proto name too).
pub fn history_length(params: &Map<String, Value>) -> Option<usize> {
    let from = |v: &Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
    field_in(params, "historyLength")
        .and_then(from)
        .or_else(|| {
            params
                .get("configuration")
                .and_then(|c| field(c, "historyLength"))
                .and_then(from)
        })
}

/// Most parts one incoming message may carry.
pub const MAX_PARTS: usize = 64;

/// Reads an incoming message's parts into the network's (1.0) form.
pub fn parts_in(message: &Value) -> Result<Vec<Value>, String> {
    let parts = message
        .get("parts")
        .and_then(Value::as_array)
        .ok_or("message.parts must be a list")?;
    if parts.is_empty() || parts.len() > MAX_PARTS {
        return Err(format!("message.parts holds 1 to {MAX_PARTS} parts"));
    }
    parts.iter().map(part_in).collect()
}

fn part_in(part: &Value) -> Result<Value, String> {
    let text = |key: &str| part.get(key).and_then(Value::as_str);
    match part.get("kind").and_then(Value::as_str) {
        Some("text") => Ok(json!({"text": text("text").ok_or("a text part has text")?})),
        Some("data") => Ok(json!({"data": part.get("data").cloned().unwrap_or(Value::Null)})),
        Some("file") => {
            let file = part.get("file").ok_or("a file part has a file")?;
            let mut out = Map::new();
            if let Some(uri) = file.get("uri") {
                out.insert("url".into(), uri.clone());
            } else if let Some(bytes) = file.get("bytes") {
                out.insert("raw".into(), bytes.clone());
            } else {
                return Err("a file has a uri or bytes".into());
            }
            if let Some(mime) = file.get("mimeType") {
                out.insert("mediaType".into(), mime.clone());
            }
            if let Some(name) = file.get("name") {
                out.insert("filename".into(), name.clone());
            }
            Ok(Value::Object(out))
        }
        Some(other) => Err(format!("unknown part kind {other}")),
        None => {
            let known = ["text", "data", "url", "raw"];
            if !known.iter().any(|k| part.get(k).is_some()) {
                return Err("a part has text, data, url or raw".into());
            }
            let mut out = Map::new();
            for key in known.iter().chain(&["mediaType", "filename"]) {
                if let Some(v) = part.get(*key) {
                    out.insert((*key).into(), v.clone());
                }
            }
            Ok(Value::Object(out))
        }
    }
}

/// A stored part in `version`'s form.
pub fn part_out(part: &Value, version: Version) -> Value {
    if version == Version::V1 {
        return part.clone();
    }
    if let Some(text) = part.get("text") {
        return json!({"kind": "text", "text": text});
    }
    if let Some(data) = part.get("data") {
        return json!({"kind": "data", "data": data});
    }
    let mut file = Map::new();
    if let Some(url) = part.get("url") {
        file.insert("uri".into(), url.clone());
    }
    if let Some(raw) = part.get("raw") {
        file.insert("bytes".into(), raw.clone());
    }
    if let Some(media) = part.get("mediaType") {
        file.insert("mimeType".into(), media.clone());
    }
    if let Some(name) = part.get("filename") {
        file.insert("name".into(), name.clone());
    }
    json!({"kind": "file", "file": file})
}

fn parts_out(parts: &[Value], version: Version) -> Vec<Value> {
    parts.iter().map(|p| part_out(p, version)).collect()
}

/// A task's message as an A2A `Message`.
pub fn message(task: &Task, message: &TaskMessage, version: Version) -> Value {
    let role = match (message.role, version) {
        (TaskRole::Leader, Version::V1) => "ROLE_USER",
        (TaskRole::Partner, Version::V1) => "ROLE_AGENT",
        (TaskRole::Leader, Version::V03) => "user",
        (TaskRole::Partner, Version::V03) => "agent",
    };
    let mut out = json!({
        "messageId": message.id,
        "role": role,
        "parts": parts_out(&message.parts, version),
        "taskId": task.id,
        "contextId": task.context_text(),
        "metadata": {"from": message.from.to_string()},
    });
    if version == Version::V03 {
        out["kind"] = json!("message");
    }
    out
}

/// A moment as an RFC 3339 UTC timestamp (`2026-01-02T03:04:05.678Z`).
pub fn timestamp(at: Timestamp) -> String {
    let ms = at.as_millis();
    let day_ms = ms % 86_400_000;
    let days = i64::try_from(ms / 86_400_000).unwrap_or(0);
    let (year, month, day) = crate::identity::time::civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        day_ms / 3_600_000,
        day_ms / 60_000 % 60,
        day_ms / 1000 % 60,
        day_ms % 1000
    )
}

/// A task's `TaskStatus`.
pub fn status(task: &Task, version: Version) -> Value {
    let state = match version {
        Version::V1 => task.state.to_a2a(),
        Version::V03 => task.state.to_a2a_v03(),
    };
    let mut out = json!({"state": state, "timestamp": timestamp(task.updated_at)});
    if let Some(said) = &task.status {
        out["message"] = message(task, said, version);
    }
    out
}

/// An artifact as an A2A `Artifact`.
pub fn artifact(artifact: &TaskArtifact, version: Version) -> Value {
    json!({
        "artifactId": artifact.id,
        "name": artifact.name,
        "parts": parts_out(&artifact.parts, version),
        "metadata": {"resource": artifact.resource.to_string()},
    })
}

/// A task as an A2A `Task`, with its last `history` messages (all when `None`).
pub fn task(task: &Task, version: Version, history: Option<usize>) -> Value {
    let skip = history.map_or(0, |keep| task.history.len().saturating_sub(keep));
    let mut out = json!({
        "id": task.id,
        "contextId": task.context_text(),
        "status": status(task, version),
        "artifacts": task.artifacts.iter().map(|a| artifact(a, version)).collect::<Vec<_>>(),
        "history": task.history.iter().skip(skip).map(|m| message(task, m, version)).collect::<Vec<_>>(),
        "metadata": {
            "aipState": task.state.as_str(),
            "requester": task.requester.to_string(),
            "partners": task.partners.iter().map(ToString::to_string).collect::<Vec<_>>(),
        },
    });
    if version == Version::V03 {
        out["kind"] = json!("task");
    }
    out
}

/// A `SendMessage` result holding `task` (1.0 wraps it in `{task}`).
pub fn send_result(value: Value, version: Version) -> Value {
    match version {
        Version::V1 => json!({"task": value}),
        Version::V03 => value,
    }
}

/// The result of a request its partner answered with one message
/// ([`Task::answered_by_message`]): that message, with no `taskId` (1.0
/// wraps it in `{message}`, as a `SendMessage` result and a stream event).
pub fn message_answer(task: &Task, version: Version) -> Option<Value> {
    if !task.answered_by_message || task.state != crate::model::task::TaskState::Completed {
        return None;
    }
    let mut out = message(task, task.status.as_ref()?, version);
    if let Value::Object(fields) = &mut out {
        fields.remove("taskId");
    }
    Some(match version {
        Version::V1 => json!({"message": out}),
        Version::V03 => out,
    })
}

/// A stream event: a status update.
pub fn status_update(task: &Task, version: Version) -> Value {
    let status = status(task, version);
    match version {
        Version::V1 => json!({"statusUpdate": {
            "taskId": task.id, "contextId": task.context_text(), "status": status,
        }}),
        Version::V03 => json!({
            "kind": "status-update", "taskId": task.id, "contextId": task.context_text(),
            "status": status, "final": task.state.is_terminal(),
        }),
    }
}

/// A stream event: a new artifact.
pub fn artifact_update(task: &Task, added: &TaskArtifact, version: Version) -> Value {
    let artifact = artifact(added, version);
    match version {
        Version::V1 => json!({"artifactUpdate": {
            "taskId": task.id, "contextId": task.context_text(), "artifact": artifact,
            "lastChunk": true,
        }}),
        Version::V03 => json!({
            "kind": "artifact-update", "taskId": task.id, "contextId": task.context_text(),
            "artifact": artifact, "lastChunk": true,
        }),
    }
}

/// A stream event holding the whole task (the first of a stream).
pub fn task_event(value: Value, version: Version) -> Value {
    send_result(value, version)
}
