//! What a hosted agent's host does for it ([`HostedIo`]) and what the
//! runtime follows per agent ([`Loop`]).

use crate::agent::{Agent, Place, RequestId};
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use std::collections::BTreeMap;

/// What the host does for a hosted agent.
#[derive(Debug, Clone, PartialEq)]
pub enum HostedIo {
    /// Send a model request (an [`AgentEffect::CallModel`]); report what
    /// comes back with [`HostedRuntime::model_response`].
    CallModel {
        /// The agent.
        agent: Address,
        /// The call.
        request: RequestId,
        /// The endpoint.
        url: String,
        /// The headers; the key header holds `key`'s placeholder.
        headers: Vec<(String, String)>,
        /// Where the key goes.
        key: Option<crate::agent::effects::KeySlot>,
        /// The JSON body.
        body: String,
    },
    /// Abort a model request.
    AbortModel {
        /// The agent.
        agent: Address,
        /// The call.
        request: RequestId,
    },
    /// A turn started: keep a record of it until [`HostedIo::TurnEnded`].
    TurnStarted {
        /// The agent.
        agent: Address,
        /// The message it answers.
        answers: EventId,
        /// Where the answer goes.
        place: Place,
    },
    /// The turn ended (answered, stopped or failed): drop its record.
    TurnEnded {
        /// The agent.
        agent: Address,
        /// The message it answered.
        answers: EventId,
    },
}

/// One hosted agent's loop and what its host follows for it.
#[derive(Debug)]
pub(crate) struct Loop {
    pub(crate) agent: Agent,
    /// Provider-safe tool name → the tool resource.
    pub(crate) tool_names: BTreeMap<String, Address>,
    /// When its tools were last read.
    pub(crate) tools_read_at: Option<Timestamp>,
    /// A tool invocation's event id → the loop's call id.
    pub(crate) invocations: BTreeMap<EventId, String>,
    /// An approval request's event id → the call id, where it went, when it expires.
    pub(crate) approvals: BTreeMap<EventId, (String, Address, Timestamp)>,
    /// The message a turn answers → its place and who asked.
    pub(crate) turns: BTreeMap<EventId, (Place, Address)>,
    /// When streamed text was last shown, per turn.
    pub(crate) streamed_at: BTreeMap<EventId, Timestamp>,
    /// Turns whose answer was posted.
    pub(crate) posted: Vec<EventId>,
}
