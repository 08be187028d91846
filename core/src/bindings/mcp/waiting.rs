//! Requests whose answer comes later: a tool call waits for the owner's
//! `network.resource.invoke.result`; a read of events with `wait_ms` waits
//! for the next delivery to the member.
//!
//! The host holds such a request (its JSON answer, or its SSE stream) and
//! shows it every delivery it applies ([`Waiting::wakes_on`]); when one
//! wakes it, or its deadline passes, the host asks
//! [`super::tools::finish`] for the answer. A waiting request is the MCP
//! session acting as a connected member: its deliveries complete it.

use super::revision::Revision;
use crate::bindings::jsonrpc::{Id, RpcError};
use crate::event::metadata::ProtocolMetadata;
use crate::ids::event_type::core_types;
use crate::{Address, Event, EventId, Timestamp};

/// The longest a tool call waits for its owner's answer.
pub const INVOKE_TIMEOUT_MS: u64 = 55_000;
/// The longest a read of events waits for one to arrive.
pub const MAX_READ_WAIT_MS: u64 = 30_000;

/// What a request waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitFor {
    /// The result of the `network.resource.invoke` with this id.
    Invoke {
        /// The invocation's id (its result names it in `metadata.in_reply_to`).
        event: EventId,
        /// The tool.
        tool: Address,
    },
    /// Any delivery to the member; then the log is read again after `after`.
    Events {
        /// Where the read starts.
        after: u64,
        /// Most events to answer.
        limit: usize,
    },
}

/// A request waiting for the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// The JSON-RPC request it answers.
    pub request: Id,
    /// Its revision (the shape of the answer).
    pub revision: Revision,
    /// The member it acts as.
    pub member: Address,
    /// The legacy session it belongs to, if any.
    pub session: Option<String>,
    /// When it stops waiting.
    pub deadline: Timestamp,
    /// What it waits for.
    pub wait: WaitFor,
}

/// The value of a `Result<T, RpcError>` — or, in a method that answers
/// `Result<Reply, _>`, a return with the error as its reply.
macro_rules! or_reply {
    ($checked:expr) => {
        match $checked {
            Ok(value) => value,
            Err(error) => return Ok($crate::bindings::mcp::waiting::Reply::Error(error)),
        }
    };
}

pub(crate) use or_reply;

/// What a request comes to.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Its result, now.
    Result(serde_json::Value),
    /// Its error, now.
    Error(RpcError),
    /// Its answer comes later.
    Wait(Waiting),
}

/// How a wait ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Arrival {
    /// A delivery woke it.
    Delivered(Box<Event>),
    /// The deadline passed.
    TimedOut,
}

impl Waiting {
    /// Whether delivering `event` to `to` completes this request.
    pub fn wakes_on(&self, to: &[Address], event: &Event) -> bool {
        if !to.contains(&self.member) {
            return false;
        }
        match &self.wait {
            WaitFor::Events { .. } => true,
            WaitFor::Invoke { event: invoked, .. } => {
                event.event_type.as_str() == core_types::RESOURCE_INVOKE_RESULT
                    && ProtocolMetadata::read(&event.metadata)
                        .ok()
                        .and_then(|m| m.in_reply_to)
                        == Some(*invoked)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(kind: &str, in_reply_to: Option<&str>) -> Event {
        let mut value = json!({"id": "01HQV2WA00000000000000000B", "type": kind, "source": "agent:owner",
            "target": "agent:caller", "payload": {}, "timestamp": 1});
        if let Some(id) = in_reply_to {
            value["metadata"] = json!({"in_reply_to": id});
        }
        Event::decode(&value.to_string(), &crate::Limits::default()).unwrap()
    }

    #[test]
    fn a_call_wakes_on_its_own_result_to_its_member_only() {
        let invoked: EventId = "01HQV2WA00000000000000000A".parse().unwrap();
        let caller: Address = "agent:caller".parse().unwrap();
        let waiting = Waiting {
            request: Id::Number(1),
            revision: Revision::V2025_11_25,
            member: caller.clone(),
            session: None,
            deadline: Timestamp::from_millis(10),
            wait: WaitFor::Invoke {
                event: invoked,
                tool: "resource/tool/t".parse().unwrap(),
            },
        };
        let result = event(
            core_types::RESOURCE_INVOKE_RESULT,
            Some("01HQV2WA00000000000000000A"),
        );
        assert!(waiting.wakes_on(std::slice::from_ref(&caller), &result));
        assert!(!waiting.wakes_on(&["agent:other".parse().unwrap()], &result));
        let other = event(
            core_types::RESOURCE_INVOKE_RESULT,
            Some("01HQV2WA00000000000000000C"),
        );
        assert!(!waiting.wakes_on(std::slice::from_ref(&caller), &other));
        assert!(!waiting.wakes_on(std::slice::from_ref(&caller), &event("chat.message", None)));
        let reading = Waiting {
            wait: WaitFor::Events { after: 0, limit: 5 },
            ..waiting
        };
        assert!(reading.wakes_on(std::slice::from_ref(&caller), &event("chat.message", None)));
    }
}
