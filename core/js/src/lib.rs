//! agentnet-js: the wasm-bindgen face of `agentnet-core` for JavaScript.
//!
//! This crate only converts types and errors at the JS boundary; all
//! protocol logic stays in the core. Errors thrown to JS are `Error`
//! objects with a stable `code` property (`invalid_address`, …) that the
//! package's `AgentnetError` class wraps.

use agentnet_core::client::{Client, Incoming};
use agentnet_core::replica::{Replica, ReplicaEffect, ReplicaRow};
use agentnet_core::{Address, Coded, Event, EventPattern, EventType, Limits, NetworkId, Rejection};
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    error.set_name("AgentnetError");
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}

fn coded<E: Coded + std::fmt::Display>(err: E) -> JsValue {
    js_error(err.code().as_str(), &err.to_string())
}

fn parse_json(text: &str, what: &str) -> Result<Value, JsValue> {
    serde_json::from_str(text)
        .map_err(|e| js_error("malformed_event", &format!("{what} is not JSON: {e}")))
}

/// Parses an address and returns its canonical form (`alice` → `agent:alice`).
#[wasm_bindgen(js_name = parseAddress)]
pub fn parse_address(address: &str) -> Result<String, JsValue> {
    address
        .parse::<Address>()
        .map(|a| a.to_string())
        .map_err(coded)
}

/// Validates a JSON event frame against default limits; returns its canonical JSON.
#[wasm_bindgen(js_name = validateEvent)]
pub fn validate_event(frame: &str) -> Result<String, JsValue> {
    Event::decode(frame, &Limits::default())
        .map(|e| e.encode())
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

/// Runs one JSON conformance vector (see `core/tests/vectors/`) against the wasm core.
#[wasm_bindgen(js_name = runConformanceVector)]
pub fn run_conformance_vector(vector: &str) -> Result<(), JsValue> {
    agentnet_core::conformance::run_vector(vector)
        .map_err(|e| js_error("conformance_failed", &e.to_string()))
}

/// Parses the `(address, network, seed)` every binding constructor takes.
fn identity(
    address: &str,
    network: &str,
    seed: &[u8],
) -> Result<(Address, NetworkId, [u8; 32]), JsValue> {
    let address: Address = address.parse().map_err(coded)?;
    let network: NetworkId = network.parse().map_err(coded)?;
    let seed: [u8; 32] = seed
        .try_into()
        .map_err(|_| js_error("invalid_seed", "seed must be exactly 32 bytes"))?;
    Ok((address, network, seed))
}

/// A participant in one network: builds events and interprets the network's frames.
#[wasm_bindgen(js_name = Client)]
pub struct JsClient {
    inner: Client,
}

#[wasm_bindgen(js_class = Client)]
impl JsClient {
    /// A client for `address` in `network`; `seed` is 32 random bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(address: &str, network: &str, seed: &[u8]) -> Result<JsClient, JsValue> {
        let (address, network, seed) = identity(address, network, seed)?;
        Ok(Self {
            inner: Client::new(address, network, seed),
        })
    }

    /// The client's canonical address.
    #[wasm_bindgen(getter)]
    pub fn address(&self) -> String {
        self.inner.address().to_string()
    }

    /// The JSON frame of a `network.agent.join` event; `credentials` is JSON or empty.
    pub fn join(&mut self, credentials: Option<String>, now: f64) -> Result<String, JsValue> {
        let credentials = match credentials {
            Some(text) if !text.is_empty() => Some(parse_json(&text, "credentials")?),
            _ => None,
        };
        Ok(self.inner.join(credentials, millis(now)).encode())
    }

    /// The JSON frame of a new event; `payload` and `metadata` are JSON text.
    pub fn event(
        &mut self,
        event_type: &str,
        target: &str,
        payload: &str,
        metadata: Option<String>,
        now: f64,
    ) -> Result<String, JsValue> {
        let event_type: EventType = event_type.parse().map_err(coded)?;
        let target: Address = target.parse().map_err(coded)?;
        let payload = parse_json(payload, "payload")?;
        let mut event = self.inner.event(event_type, target, payload, millis(now));
        if let Some(text) = metadata.filter(|t| !t.is_empty()) {
            match parse_json(&text, "metadata")? {
                Value::Object(map) => event.metadata = map,
                _ => {
                    return Err(js_error(
                        "malformed_event",
                        "metadata must be a JSON object",
                    ));
                }
            }
        }
        // Hold outgoing events to the same rules the network applies.
        let frame = event.encode();
        Event::decode(&frame, &Limits::default()).map_err(coded)?;
        Ok(frame)
    }

    /// Interprets a frame from the network as JSON text:
    /// `{kind:"ack", id, seq}`, `{kind:"error", in_reply_to, code, message}` or `{kind:"event", event}`.
    pub fn interpret(&self, frame: &str) -> Result<String, JsValue> {
        let event = Event::decode(frame, &Limits::default()).map_err(coded)?;
        let view = match self.inner.interpret(event) {
            Incoming::Ack { id, seq } => json!({"kind": "ack", "id": id, "seq": seq}),
            Incoming::Error {
                in_reply_to,
                rejection: Rejection { code, message },
            } => {
                json!({"kind": "error", "in_reply_to": in_reply_to, "code": code, "message": message})
            }
            Incoming::Event(event) => json!({"kind": "event", "event": event}),
        };
        Ok(view.to_string())
    }
}

fn millis(now: f64) -> u64 {
    if now.is_finite() && now > 0.0 {
        now as u64
    } else {
        0
    }
}

fn effect_json(effect: ReplicaEffect) -> Value {
    match effect {
        ReplicaEffect::Send(frame) => json!({"kind": "send", "frame": frame}),
        ReplicaEffect::Persist(row) => json!({"kind": "persist", "row": row}),
        ReplicaEffect::Online => json!({"kind": "online"}),
        ReplicaEffect::JoinFailed(r) => {
            json!({"kind": "join_failed", "code": r.code, "message": r.message})
        }
        ReplicaEffect::Received(event) => json!({"kind": "received", "event": event}),
        ReplicaEffect::Accepted { id, seq, ack } => {
            json!({"kind": "accepted", "id": id, "seq": seq, "ack": ack})
        }
        ReplicaEffect::Rejected { id, rejection } => {
            json!({"kind": "rejected", "id": id, "code": rejection.code, "message": rejection.message})
        }
        ReplicaEffect::Replied { request, reply } => {
            json!({"kind": "replied", "request": request, "reply": reply})
        }
        ReplicaEffect::RequestFailed { request, rejection } => {
            json!({"kind": "request_failed", "request": request, "code": rejection.code, "message": rejection.message})
        }
    }
}

fn effects_json(effects: Vec<ReplicaEffect>) -> String {
    Value::Array(effects.into_iter().map(effect_json).collect()).to_string()
}

/// The local-first replica of one network (see `agentnet_core::replica`).
/// Every method returns its effects as JSON text: an array of `{kind, …}`.
#[wasm_bindgen(js_name = Replica)]
pub struct JsReplica {
    inner: Replica,
}

#[wasm_bindgen(js_class = Replica)]
impl JsReplica {
    /// A replica for `address` in `network`; `seed` is 32 random bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(address: &str, network: &str, seed: &[u8]) -> Result<JsReplica, JsValue> {
        let (address, network, seed) = identity(address, network, seed)?;
        Ok(Self {
            inner: Replica::new(address, network, seed),
        })
    }

    /// The canonical address.
    #[wasm_bindgen(getter)]
    pub fn address(&self) -> String {
        self.inner.address().to_string()
    }

    /// Highest gap-free sequence number held, or -1 before the first sync.
    #[wasm_bindgen(getter)]
    pub fn watermark(&self) -> f64 {
        self.inner.watermark().map_or(-1.0, |w| w as f64)
    }

    /// True once joined on the current connection.
    #[wasm_bindgen(getter)]
    pub fn online(&self) -> bool {
        self.inner.is_online()
    }

    /// The outbox as JSON text: `[{event, state, rejection?}]`, oldest first.
    #[wasm_bindgen(getter)]
    pub fn outbox(&self) -> String {
        serde_json::to_string(&self.inner.outbox().collect::<Vec<_>>())
            .unwrap_or_else(|_| "[]".into())
    }

    /// Restores persisted rows (JSON array of rows from `persist` effects, in order).
    pub fn restore(&mut self, rows: &str) -> Result<(), JsValue> {
        let rows: Vec<ReplicaRow> = serde_json::from_str(rows)
            .map_err(|e| js_error("malformed_rows", &format!("rows are not replica rows: {e}")))?;
        self.inner.restore(rows);
        Ok(())
    }

    /// The connection opened: returns the join to send.
    pub fn connected(&mut self, credentials: Option<String>, now: f64) -> Result<String, JsValue> {
        let credentials = match credentials {
            Some(text) if !text.is_empty() => Some(parse_json(&text, "credentials")?),
            _ => None,
        };
        Ok(effects_json(self.inner.connected(credentials, millis(now))))
    }

    /// The connection closed.
    pub fn disconnected(&mut self) {
        self.inner.disconnected();
    }

    /// A frame arrived.
    pub fn receive(&mut self, frame: &str, now: f64) -> String {
        effects_json(self.inner.receive(frame, millis(now)))
    }

    /// Creates an event; returns `{id, effects}` as JSON text.
    pub fn post(
        &mut self,
        event_type: &str,
        target: &str,
        payload: &str,
        metadata: Option<String>,
        now: f64,
    ) -> Result<String, JsValue> {
        let event_type: EventType = event_type.parse().map_err(coded)?;
        let target: Address = target.parse().map_err(coded)?;
        let payload = parse_json(payload, "payload")?;
        let metadata = match metadata.filter(|t| !t.is_empty()) {
            Some(text) => match parse_json(&text, "metadata")? {
                Value::Object(map) => map,
                _ => {
                    return Err(js_error(
                        "malformed_event",
                        "metadata must be a JSON object",
                    ));
                }
            },
            None => serde_json::Map::new(),
        };
        let (id, effects) = self
            .inner
            .post(event_type, target, payload, metadata, millis(now));
        Ok(
            json!({"id": id, "effects": effects.into_iter().map(effect_json).collect::<Vec<_>>()})
                .to_string(),
        )
    }

    /// Like `post`, resolved by the event whose `in_reply_to` is this one; returns `{id, effects}`.
    pub fn request(
        &mut self,
        event_type: &str,
        target: &str,
        payload: &str,
        timeout_ms: f64,
        now: f64,
    ) -> Result<String, JsValue> {
        let event_type: EventType = event_type.parse().map_err(coded)?;
        let target: Address = target.parse().map_err(coded)?;
        let payload = parse_json(payload, "payload")?;
        let (id, effects) =
            self.inner
                .request(event_type, target, payload, millis(timeout_ms), millis(now));
        Ok(
            json!({"id": id, "effects": effects.into_iter().map(effect_json).collect::<Vec<_>>()})
                .to_string(),
        )
    }

    /// When `handleTimeout` should next run (unix ms), or -1.
    #[wasm_bindgen(js_name = pollTimeout)]
    pub fn poll_timeout(&self) -> f64 {
        self.inner.poll_timeout().map_or(-1.0, |t| t as f64)
    }

    /// Resends what went unanswered and fails expired requests.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self, now: f64) -> String {
        effects_json(self.inner.handle_timeout(millis(now)))
    }
}
