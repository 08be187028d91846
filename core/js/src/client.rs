//! `Client`: builds events for one participant and reads the network's frames.

use crate::errors::{coded, event_parts, js_error, moment, parse_credentials, parse_metadata};
use agentnet_core::client::{Client, Incoming};
use agentnet_core::{Address, Event, Limits, NetworkId, Rejection};
use serde_json::json;
use wasm_bindgen::prelude::*;

/// Parses the `(address, network, seed)` every binding constructor takes.
pub(crate) fn identity(
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
        let credentials = parse_credentials(credentials)?;
        Ok(self.inner.join(credentials, moment(now)).encode())
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
        let (event_type, target, payload) = event_parts(event_type, target, payload)?;
        let mut event = self.inner.event(event_type, target, payload, moment(now));
        event.metadata = parse_metadata(metadata)?;
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
