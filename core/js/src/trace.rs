//! W3C trace context for JS agents: the context of what a received event
//! causes (see `agentnet_core::event::trace`), so a reply stays in its trace.

use crate::errors::js_error;
use agentnet_core::EventId;
use agentnet_core::event::trace::TraceContext;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

/// `{traceparent, tracestate?}` (JSON text) for an event caused by `event`
/// (JSON text of a received event), or `{}` when it carries no trace.
#[wasm_bindgen(js_name = traceCausedBy)]
pub fn trace_caused_by(event: &str) -> Result<String, JsValue> {
    let value: Value = serde_json::from_str(event)
        .map_err(|e| js_error("malformed_event", &format!("event: {e}")))?;
    let id: EventId = value
        .get("id")
        .and_then(Value::as_str)
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| js_error("invalid_event_id", "event.id must be an event id"))?;
    let empty = Map::new();
    let metadata = value
        .get("metadata")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut out = Map::new();
    if let Ok(Some(trace)) = TraceContext::from_metadata(metadata) {
        trace.caused_by(id).write(&mut out);
    }
    Ok(Value::Object(out).to_string())
}
