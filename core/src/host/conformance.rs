//! The conformance-vector runner: JSON cases that every implementation of
//! the network (this crate natively, the npm package through wasm) must pass.
//!
//! A vector names a network (`mods`, `access`, `masters`, `status`) and a list
//! of steps. Each step sends one event (or a raw frame) on a connection
//! authenticated as `from`, and may list the exact effects expected, each
//! projected to a small JSON shape:
//!
//! | effect | projection |
//! |---|---|
//! | append | `{"append": seq}` |
//! | deliver | `{"deliver": ["agent:bob"], "type": "chat.msg"}` |
//! | error reply | `{"error": "unknown_target"}` |
//! | other reply | `{"reply": "network.event.ack"}` |
//! | bind / unbind | `{"bind": "agent:alice"}` / `{"unbind": true}` |
//! | store / remove | `{"store": "member", "key": "agent:alice"}` / `{"remove": …}` |
//! | history query | `{"query": "agent:alice"}` |
//! | catch-up read | `{"backlog": "agent:alice", "after": 0}` |
//!
//! The runner hosts the network in a [`MemoryHost`], so catch-up reads and
//! history queries are answered at once and their deliveries appear right
//! after the effect that asked for them.
//!
//! `{"join": "agent:alice"}` is shorthand for a `network.agent.join` step.
//! Missing event ids are generated deterministically; timestamps default to
//! the step's `now`.

use crate::Timestamp;
use crate::event::Event;
use crate::event::Limits;
use crate::host::memory::MemoryHost;
use crate::ids::address::Address;
use crate::ids::event_type::core_types;
use crate::ids::ulid::UlidGenerator;
use crate::model::config::ModConfig;
use crate::model::config::NetworkConfig;
use crate::model::config::{Access, NetworkStatus};
use crate::network::{Effect, Network, Reader};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Why a vector failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VectorError {
    /// The vector itself is malformed.
    #[error("vector is malformed: {0}")]
    Malformed(String),
    /// A step's effects differ from the expectation.
    #[error("step {step}: expected {expected}, got {actual}")]
    Mismatch {
        /// 0-based step index.
        step: usize,
        /// Expected projections.
        expected: Value,
        /// Actual projections.
        actual: Value,
    },
}

#[derive(Deserialize)]
struct Vector {
    #[serde(default)]
    network: NetworkSpec,
    steps: Vec<Step>,
}

#[derive(Deserialize, Default)]
struct NetworkSpec {
    #[serde(default)]
    mods: Vec<String>,
    #[serde(default)]
    access: Option<Access>,
    #[serde(default)]
    masters: Vec<Address>,
    #[serde(default)]
    status: Option<NetworkStatus>,
}

#[derive(Deserialize)]
struct Step {
    #[serde(default)]
    from: Option<Address>,
    #[serde(default)]
    join: Option<Address>,
    #[serde(default)]
    event: Option<Map<String, Value>>,
    #[serde(default)]
    raw: Option<String>,
    #[serde(default)]
    now: Option<u64>,
    #[serde(default)]
    expect: Option<Vec<Value>>,
}

/// Projects one effect to its conformance shape.
pub fn project(effect: &Effect) -> Value {
    match effect {
        Effect::Append { seq, .. } => json!({"append": seq}),
        Effect::Deliver { to, event, .. } => json!({"deliver": to, "type": event.event_type}),
        Effect::Read(request) => match &request.reader {
            Reader::CatchUp { member } => json!({"backlog": member, "after": request.after}),
            Reader::Page { member } => json!({"page": member, "after": request.after}),
            Reader::Query { requester, .. } => json!({"query": requester}),
        },
        Effect::Discover(ask) => json!({"discover": ask.requester}),
        Effect::Document(ask) => json!({"document": ask.op}),
        Effect::Page(page) => json!({"answer": page.member, "events": page.events.len()}),
        Effect::Reply(event) if event.event_type.as_str() == core_types::EVENT_ERROR => {
            json!({"error": event.payload.get("code").cloned().unwrap_or(Value::Null)})
        }
        Effect::Reply(event) => json!({"reply": event.event_type}),
        Effect::Ack(_) => json!({"reply": core_types::EVENT_ACK}),
        Effect::Bind(address) => json!({"bind": address}),
        Effect::Unbind => json!({"unbind": true}),
        Effect::EndCredentials(address) => json!({"close": address}),
        Effect::Store(row) => json!({"store": row.kind().as_str(), "key": row.key()}),
        Effect::Remove { kind, key } => json!({"remove": kind.as_str(), "key": key}),
        Effect::StoreConfig(config) => json!({"config": config.id}),
        Effect::PruneLog {
            transient_through,
            history_through,
        } => json!({"prune": transient_through, "history": history_through}),
    }
}

fn malformed(message: impl Into<String>) -> VectorError {
    VectorError::Malformed(message.into())
}

/// Runs one vector given as JSON text.
pub fn run_vector(text: &str) -> Result<(), VectorError> {
    let vector: Vector = serde_json::from_str(text).map_err(|e| malformed(e.to_string()))?;
    let mut config =
        NetworkConfig::open("demo".parse().map_err(|_| malformed("id"))?, "Conformance");
    for name in &vector.network.mods {
        config.mods.push(
            ModConfig::from_name(name).ok_or_else(|| malformed(format!("unknown mod {name}")))?,
        );
    }
    if let Some(access) = vector.network.access {
        config.access = access;
    }
    config.masters = vector.network.masters;
    if let Some(status) = vector.network.status {
        config.status = status;
    }
    config.validate().map_err(|e| malformed(e.to_string()))?;
    let mut network = Network::new(config, [], 0, [0; 32]);
    let mut host = MemoryHost::default();
    let mut ids = UlidGenerator::new([1; 32]);
    // The member secret each address was given at its first join, resent by the shorthand.
    let mut secrets: BTreeMap<Address, Value> = BTreeMap::new();
    for (index, step) in vector.steps.into_iter().enumerate() {
        let now = Timestamp::from_millis(step.now.unwrap_or(1_000 + index as u64));
        let effects = if let Some(raw) = &step.raw {
            network.handle_frame(step.from.as_ref(), raw, now)
        } else {
            let (session, mut object) = match (&step.join, step.event) {
                (Some(address), _) => {
                    let mut o = Map::new();
                    o.insert("type".into(), json!(core_types::AGENT_JOIN));
                    o.insert("source".into(), json!(address));
                    o.insert("target".into(), json!("core"));
                    if let Some(secret) = secrets.get(address) {
                        o.insert(
                            "payload".into(),
                            json!({"credentials": {"member_secret": secret}}),
                        );
                    }
                    (step.from.clone(), o)
                }
                (None, Some(o)) => (step.from.clone(), o),
                (None, None) => {
                    return Err(malformed(format!("step {index} has no join, event or raw")));
                }
            };
            object
                .entry("id")
                .or_insert_with(|| json!(ids.next_id(now)));
            object.entry("timestamp").or_insert_with(|| json!(now));
            let event = Event::from_value(Value::Object(object), &Limits::default())
                .map_err(|e| malformed(format!("step {index}: {e}")))?;
            network.handle_event(session.as_ref(), event, now)
        };
        let effects = host.apply(&mut network, effects, now);
        for effect in &effects {
            if let Effect::Ack(ack) = effect
                && let Some(secret) = ack.extra.get("member_secret")
            {
                secrets.insert(ack.to.clone(), secret.clone());
            }
        }
        if let Some(expected) = step.expect {
            let actual: Vec<Value> = effects.iter().map(project).collect();
            if actual != expected {
                return Err(VectorError::Mismatch {
                    step: index,
                    expected: Value::Array(expected),
                    actual: Value::Array(actual),
                });
            }
        }
    }
    Ok(())
}
