//! The network's answers for JS: an answer event (or a profile) read through
//! the core's typed payloads (`agentnet_core::answers`) and handed back as
//! JSON text of exactly that shape, or a coded error when it does not read.

use crate::errors::{coded, js_error};
use agentnet_core::Event;
use agentnet_core::answers::{read_answer, read_profile};
use agentnet_core::model::payloads::json_of;
use wasm_bindgen::prelude::*;

/// The payload of an answer from `core` (a roster, a resource listing or read,
/// a page of history, an ack, an error, a challenge, a pong) as JSON text of
/// its typed shape; `event` is the answer event as JSON text. Throws
/// `malformed_event` for another event type or a payload of the wrong shape.
#[wasm_bindgen(js_name = readAnswer)]
pub fn read_answer_json(event: &str) -> Result<String, JsValue> {
    let event: Event = serde_json::from_str(event)
        .map_err(|e| js_error("malformed_event", &format!("not an event: {e}")))?;
    let answer = read_answer(&event).map_err(coded)?;
    Ok(json_of(&answer).to_string())
}

/// A network profile (`GET /v1/profile`) as JSON text of its typed shape;
/// throws `malformed_event` when it does not read.
#[wasm_bindgen(js_name = readProfile)]
pub fn read_profile_json(profile: &str) -> Result<String, JsValue> {
    let profile: serde_json::Value = serde_json::from_str(profile)
        .map_err(|e| js_error("malformed_event", &format!("profile is not JSON: {e}")))?;
    let profile = read_profile(&profile).map_err(coded)?;
    Ok(json_of(&profile).to_string())
}
