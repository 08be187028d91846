//! What an A2A stream says when its task changes: each new artifact as an
//! artifact update, then the state (or its message) as a status update. A
//! `SendStreamingMessage` stream opens with its partner's first answer: the
//! task, or the one message the partner answered with (then it ends).

use super::methods::{Watch, settled};
use super::wire;
use crate::bindings::jsonrpc;
use crate::model::task::{Task, TaskState};
use serde_json::Value;

/// The JSON-RPC messages that take a stream from `seen` to `now`, and
/// whether the stream ends with them (the task settled).
pub fn changes(watch: &Watch, seen: &Task, now: &Task) -> (Vec<Value>, bool) {
    if watch.deferred && seen.state == TaskState::Accepted {
        // The opening waited for the partner's first answer: the message it
        // answered with (and the stream ends), or the task as it is now.
        if now.state == TaskState::Accepted {
            return (Vec::new(), false);
        }
        let first = wire::message_answer(now, watch.version).unwrap_or_else(|| {
            wire::task_event(wire::task(now, watch.version, watch.history), watch.version)
        });
        return (vec![jsonrpc::result(&watch.request, first)], settled(now));
    }
    let mut out = Vec::new();
    for added in now.artifacts.iter().skip(seen.artifacts.len()) {
        out.push(wire::artifact_update(now, added, watch.version));
    }
    if now.state != seen.state || now.status != seen.status {
        out.push(wire::status_update(now, watch.version));
    }
    let out = out
        .into_iter()
        .map(|event| jsonrpc::result(&watch.request, event))
        .collect();
    (out, settled(now))
}
