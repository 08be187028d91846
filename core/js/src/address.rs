//! Addresses and event types for JS: parse, inspect, validate, match.

use crate::errors::coded;
use agentnet_core::ids::address::Scope;
use agentnet_core::{Address, Event, EventPattern, EventType, Limits};
use serde_json::json;
use wasm_bindgen::prelude::*;

/// Parses an address and returns its canonical form (`alice` → `agent:alice`).
#[wasm_bindgen(js_name = parseAddress)]
pub fn parse_address(address: &str) -> Result<String, JsValue> {
    address
        .parse::<Address>()
        .map(|a| a.to_string())
        .map_err(coded)
}

/// The parts of an address as JSON text:
/// `{address, network, kind, name, registrar, uri, did}` (absent parts are null).
#[wasm_bindgen(js_name = addressInfo)]
pub fn address_info(address: &str) -> Result<String, JsValue> {
    let address: Address = address.parse().map_err(coded)?;
    let network = match address.scope() {
        Scope::Local => None,
        Scope::Network(id) => Some(id.to_string()),
    };
    let registrar = match address.entity() {
        agentnet_core::ids::address::Entity::Registered { registrar, .. } => {
            Some(registrar.as_str().to_owned())
        }
        _ => None,
    };
    Ok(json!({
        "address": address.to_string(),
        "network": network,
        "kind": address.entity().kind(),
        "name": address.entity().name(),
        "registrar": registrar,
        "uri": address.to_uri(),
        "did": address.to_did(),
    })
    .to_string())
}

/// Validates a JSON event frame against default limits; returns its canonical JSON.
#[wasm_bindgen(js_name = validateEvent)]
pub fn validate_event(frame: &str) -> Result<String, JsValue> {
    Event::decode(frame, &Limits::default())
        .map(|e| e.encode())
        .map_err(coded)
}

/// Validates an event type (`workspace.message.posted`); returns it.
#[wasm_bindgen(js_name = parseEventType)]
pub fn parse_event_type(event_type: &str) -> Result<String, JsValue> {
    event_type
        .parse::<EventType>()
        .map(|t| t.as_str().to_owned())
        .map_err(coded)
}

/// True when event type `event_type` matches `pattern` (`*`, `prefix.*` or exact).
#[wasm_bindgen(js_name = matchesPattern)]
pub fn matches_pattern(pattern: &str, event_type: &str) -> Result<bool, JsValue> {
    let pattern: EventPattern = pattern.parse().map_err(coded)?;
    Ok(event_type
        .parse::<EventType>()
        .is_ok_and(|t| pattern.matches(&t)))
}
