//! `Replica`: the local-first replica of one network (see `agentnet_core::replica`).
//! Every method returns its effects as JSON text: an array of `{kind, …}`.

use crate::client::identity;
use crate::effects::{Created, Effects, to_json};
use crate::errors::{event_parts, js_error, millis, moment, parse_credentials, parse_metadata};
use crate::identity::secret_from_hex;
use agentnet_core::replica::{Replica, ReplicaEffect, ReplicaRow};
use wasm_bindgen::prelude::*;

/// The local-first replica of one network (see `agentnet_core::replica`).
/// Every method returns its effects as JSON text: an array of `{kind, …}`.
#[wasm_bindgen(js_name = Replica)]
pub struct JsReplica {
    pub(crate) inner: Replica,
    /// Whether `persist` effects are returned (see `setPersistEffects`).
    persist_effects: bool,
}

impl JsReplica {
    /// The effects as JSON text, without `persist` ones when they are off.
    pub(crate) fn effects_json(&self, effects: Vec<ReplicaEffect>) -> String {
        to_json(&Effects {
            effects: &effects,
            with_persist: self.persist_effects,
        })
    }

    /// The answer of `post` and `request`: `{id, effects}` as JSON text.
    fn created_json(&self, id: agentnet_core::EventId, effects: Vec<ReplicaEffect>) -> String {
        to_json(&Created {
            id,
            effects: Effects {
                effects: &effects,
                with_persist: self.persist_effects,
            },
        })
    }
}

/// Agents load the whole package at once: their shared documents come with the replica.
#[cfg(feature = "documents")]
fn with_documents(mut replica: Replica) -> Replica {
    replica.install_documents(agentnet_core::replica::SyncedDocuments::boxed());
    replica
}

/// The lite package has no shared documents.
#[cfg(not(feature = "documents"))]
fn with_documents(replica: Replica) -> Replica {
    replica
}

#[wasm_bindgen(js_class = Replica)]
impl JsReplica {
    /// A replica for `address` in `network`; `seed` is 32 random bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(address: &str, network: &str, seed: &[u8]) -> Result<JsReplica, JsValue> {
        let (address, network, seed) = identity(address, network, seed)?;
        Ok(Self {
            inner: with_documents(Replica::new(address, network, seed)),
            persist_effects: true,
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

    /// The secret that proves this address on every join (made up before the
    /// first join, or issued by the network); `undefined` before any join.
    #[wasm_bindgen(getter, js_name = memberSecret)]
    pub fn member_secret(&self) -> Option<String> {
        self.inner.member_secret().map(str::to_owned)
    }

    /// True once joined on the current connection.
    #[wasm_bindgen(getter)]
    pub fn online(&self) -> bool {
        self.inner.is_online()
    }

    /// True once the network has sent a batched frame on this connection
    /// (it was opened with `?frames=batch`): frames may then go out batched.
    #[wasm_bindgen(getter, js_name = sendsBatches)]
    pub fn sends_batches(&self) -> bool {
        self.inner.sends_batches()
    }

    /// The frames that carry `frames` (events' texts) in order: a few batched
    /// frames when the network takes batches, else the frames themselves.
    pub fn batch(&self, frames: Vec<String>) -> Vec<String> {
        agentnet_core::event::batch::frames(&frames, self.inner.sends_batches())
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

    /// Whether methods return `persist` effects (on by default). A replica
    /// kept only in memory turns them off: each would carry a whole row
    /// (an event, a document's snapshot) as JSON that nobody reads.
    #[wasm_bindgen(js_name = setPersistEffects)]
    pub fn set_persist_effects(&mut self, on: bool) {
        self.persist_effects = on;
    }

    /// Keeps at most `limit` events in the replica's memory (its log),
    /// forgetting the oldest; without a limit (the default) it keeps all. An
    /// agent that handles events as they come sets 0, or its memory grows
    /// with every event it sends or receives.
    #[wasm_bindgen(js_name = setLogLimit)]
    pub fn set_log_limit(&mut self, limit: Option<u32>) {
        self.inner
            .set_log_limit(limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX)));
    }

    /// The connection opened: returns the join to send.
    pub fn connected(&mut self, credentials: Option<String>, now: f64) -> Result<String, JsValue> {
        let credentials = parse_credentials(credentials)?;
        let effects = self.inner.connected(credentials, moment(now));
        Ok(self.effects_json(effects))
    }

    /// Proves the address with this Ed25519 secret key (64 hex characters) on
    /// every connection: challenge, signature, join (verification level 1).
    #[wasm_bindgen(js_name = setSigningKey)]
    pub fn set_signing_key(&mut self, secret: &str) -> Result<(), JsValue> {
        self.inner.set_signing_key(secret_from_hex(secret)?);
        Ok(())
    }

    /// Says on every join whether this agent takes tasks (`undefined`: says nothing).
    #[wasm_bindgen(js_name = setTakesTasks)]
    pub fn set_takes_tasks(&mut self, takes: Option<bool>) {
        self.inner.set_takes_tasks(takes);
    }

    /// Proves `did` with the signing key (its document lists it as `key-1`): verification level 3.
    #[wasm_bindgen(js_name = setDid)]
    pub fn set_did(&mut self, did: String) {
        self.inner.set_did(did);
    }

    /// The connection closed for good (nothing is scheduled).
    pub fn disconnected(&mut self) {
        self.inner.disconnected();
    }

    /// Has the replica keep the link alive with the default timing: a
    /// heartbeat after a silence (a `send` effect), `disconnect` when it goes
    /// unanswered, and `reconnect` after a backoff once `lost` reports a
    /// closed connection.
    #[wasm_bindgen(js_name = setKeepalive)]
    pub fn set_keepalive(&mut self, on: bool) {
        self.inner
            .set_keepalive(on.then(agentnet_core::replica::Keepalive::default));
    }

    /// The connection closed, or could not be opened, at `now`; `random` (any
    /// 32-bit number from a random source) jitters the wait before `reconnect`.
    pub fn lost(&mut self, now: f64, random: u32) {
        self.inner.lost(moment(now), random);
    }

    /// A frame arrived.
    pub fn receive(&mut self, frame: &str, now: f64) -> String {
        let effects = self.inner.receive(frame, moment(now));
        self.effects_json(effects)
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
        let (event_type, target, payload) = event_parts(event_type, target, payload)?;
        let metadata = parse_metadata(metadata)?;
        let (id, effects) = self
            .inner
            .post(event_type, target, payload, metadata, moment(now));
        Ok(self.created_json(id, effects))
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
        let (event_type, target, payload) = event_parts(event_type, target, payload)?;
        let (id, effects) =
            self.inner
                .request(event_type, target, payload, millis(timeout_ms), moment(now));
        Ok(self.created_json(id, effects))
    }

    /// When `handleTimeout` should next run (unix ms), or -1.
    #[wasm_bindgen(js_name = pollTimeout)]
    pub fn poll_timeout(&self) -> f64 {
        self.inner
            .poll_timeout()
            .map_or(-1.0, |t| t.as_millis() as f64)
    }

    /// Resends what went unanswered and fails expired requests.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self, now: f64) -> String {
        let effects = self.inner.handle_timeout(moment(now));
        self.effects_json(effects)
    }
}
