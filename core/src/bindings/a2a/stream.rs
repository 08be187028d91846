//! What an A2A stream says when its task changes: each new artifact as an
//! artifact update, then the state (or its message) as a status update.

use super::methods::{Watch, settled};
use super::wire;
use crate::bindings::mcp::jsonrpc;
use crate::model::task::Task;
use serde_json::Value;

/// The JSON-RPC messages that take a stream from `seen` to `now`, and
/// whether the stream ends with them (the task settled).
pub fn changes(watch: &Watch, seen: &Task, now: &Task) -> (Vec<Value>, bool) {
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
