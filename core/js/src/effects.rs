//! The replica's effects as JSON text for JavaScript: an array of `{kind, …}`.
//!
//! Written straight from the core's effects by serde, without building a
//! `serde_json::Value` tree first (which copied every string of every event
//! once more, on every frame an agent sends or receives).

use agentnet_core::error::ErrorCode;
use agentnet_core::replica::{ReplicaEffect, ReplicaRow};
use agentnet_core::{Address, Event, EventId};
use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};
use serde_json::Value;

/// One effect as JavaScript reads it.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum EffectOut<'a> {
    Send {
        frame: &'a str,
    },
    Persist {
        row: &'a ReplicaRow,
    },
    Online,
    JoinFailed {
        code: ErrorCode,
        message: &'a str,
    },
    Received {
        event: &'a Event,
    },
    Accepted {
        id: EventId,
        seq: u64,
        ack: &'a Value,
    },
    Rejected {
        id: EventId,
        code: ErrorCode,
        message: &'a str,
    },
    Replied {
        request: EventId,
        reply: &'a Event,
    },
    RequestFailed {
        request: EventId,
        code: ErrorCode,
        message: &'a str,
    },
    DocumentChanged {
        address: &'a Address,
        text: &'a str,
        editors: &'a [Address],
    },
    DocumentRejected {
        address: &'a Address,
        code: ErrorCode,
        message: &'a str,
    },
    Disconnect,
    Reconnect,
}

impl<'a> From<&'a ReplicaEffect> for EffectOut<'a> {
    fn from(effect: &'a ReplicaEffect) -> Self {
        match effect {
            ReplicaEffect::Send(frame) => Self::Send { frame },
            ReplicaEffect::Persist(row) => Self::Persist { row },
            ReplicaEffect::Online => Self::Online,
            ReplicaEffect::JoinFailed(r) => Self::JoinFailed {
                code: r.code,
                message: &r.message,
            },
            ReplicaEffect::Received(event) => Self::Received { event },
            ReplicaEffect::Accepted { id, seq, ack } => Self::Accepted {
                id: *id,
                seq: *seq,
                ack,
            },
            ReplicaEffect::Rejected { id, rejection } => Self::Rejected {
                id: *id,
                code: rejection.code,
                message: &rejection.message,
            },
            ReplicaEffect::Replied { request, reply } => Self::Replied {
                request: *request,
                reply,
            },
            ReplicaEffect::RequestFailed { request, rejection } => Self::RequestFailed {
                request: *request,
                code: rejection.code,
                message: &rejection.message,
            },
            ReplicaEffect::DocumentChanged {
                address,
                text,
                editors,
            } => Self::DocumentChanged {
                address,
                text,
                editors,
            },
            ReplicaEffect::DocumentRejected { address, rejection } => Self::DocumentRejected {
                address,
                code: rejection.code,
                message: &rejection.message,
            },
            ReplicaEffect::Disconnect => Self::Disconnect,
            ReplicaEffect::Reconnect => Self::Reconnect,
        }
    }
}

/// A list of effects, without `persist` ones unless `with_persist`.
pub(crate) struct Effects<'a> {
    pub(crate) effects: &'a [ReplicaEffect],
    pub(crate) with_persist: bool,
}

impl Serialize for Effects<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for effect in self.effects {
            if self.with_persist || !matches!(effect, ReplicaEffect::Persist(_)) {
                seq.serialize_element(&EffectOut::from(effect))?;
            }
        }
        seq.end()
    }
}

/// The answer of `post` and `request`: the new event's id and the effects.
#[derive(Serialize)]
pub(crate) struct Created<'a> {
    pub(crate) id: EventId,
    pub(crate) effects: Effects<'a>,
}

/// `value` as JSON text (every effect serializes infallibly: strings, numbers, JSON values).
pub(crate) fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "[]".to_owned())
}
