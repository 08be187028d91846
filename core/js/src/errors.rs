//! Errors at the JS boundary: every failure becomes a JS `Error` whose
//! `name` is `AgentnetError` and whose `code` is the core's stable code.
//! The package's `AgentnetError` class rewraps them as a real subclass.

use agentnet_core::{Coded, Timestamp};
use serde_json::Value;
use wasm_bindgen::JsValue;

/// A JS `Error` with a stable `code` property.
pub fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    error.set_name("AgentnetError");
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}

/// Converts any core error to a coded JS error.
pub fn coded<E: Coded + std::fmt::Display>(err: E) -> JsValue {
    js_error(err.code().as_str(), &err.to_string())
}

/// Parses JSON text handed over by the JS wrapper.
pub fn parse_json(text: &str, what: &str) -> Result<Value, JsValue> {
    serde_json::from_str(text)
        .map_err(|e| js_error("malformed_event", &format!("{what} is not JSON: {e}")))
}

/// Parses the type, target and payload every event-creating binding takes.
pub fn event_parts(
    event_type: &str,
    target: &str,
    payload: &str,
) -> Result<(agentnet_core::EventType, agentnet_core::Address, Value), JsValue> {
    Ok((
        event_type.parse().map_err(coded)?,
        target.parse().map_err(coded)?,
        parse_json(payload, "payload")?,
    ))
}

/// Parses optional credentials (`None` or empty text means none).
pub fn parse_credentials(text: Option<String>) -> Result<Option<Value>, JsValue> {
    match text {
        Some(text) if !text.is_empty() => Ok(Some(parse_json(&text, "credentials")?)),
        _ => Ok(None),
    }
}

/// Parses optional metadata, which must be a JSON object.
pub fn parse_metadata(text: Option<String>) -> Result<serde_json::Map<String, Value>, JsValue> {
    match text.filter(|t| !t.is_empty()) {
        None => Ok(serde_json::Map::new()),
        Some(text) => match parse_json(&text, "metadata")? {
            Value::Object(map) => Ok(map),
            _ => Err(js_error(
                "malformed_event",
                "metadata must be a JSON object",
            )),
        },
    }
}

/// Milliseconds from a JS number; anything not a positive finite number is 0.
pub fn millis(now: f64) -> u64 {
    if now.is_finite() && now > 0.0 {
        now as u64
    } else {
        0
    }
}

/// The moment a JS number (`Date.now()`) names, as [`millis`] reads it.
pub fn moment(now: f64) -> Timestamp {
    Timestamp::from_millis(millis(now))
}
