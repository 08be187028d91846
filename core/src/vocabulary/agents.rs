//! Agents working in the open: what an agent is doing about a message, and
//! the person who asked telling it to stop.

use crate::ids::ulid::EventId;
use serde::{Deserialize, Serialize};

/// What an agent is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActivityState {
    /// Deciding what to do.
    Thinking,
    /// Calling the tool `tool`.
    CallingTool,
    /// Waiting for a person to approve using `tool`.
    AwaitingApproval,
    /// Writing its answer: `text` is the whole of it so far.
    Writing,
    /// Done with the message (answered, stopped or failed).
    Idle,
}

/// `workspace.agent.activity`: what an agent is doing about `message`, sent
/// to the conversation; each replaces the agent's previous one for the
/// same message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentActivity {
    /// The message it answers.
    pub message: EventId,
    /// What it is at.
    pub state: ActivityState,
    /// Its answer so far (`writing`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The thread its answer goes into (its root), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<EventId>,
    /// The tool (`calling_tool`, `awaiting_approval`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

impl AgentActivity {
    /// An activity in `state` about `message`, with nothing more said.
    pub fn new(message: EventId, state: ActivityState) -> Self {
        Self {
            message,
            state,
            text: None,
            thread: None,
            tool: None,
        }
    }
}

/// `workspace.agent.stop`: the person who asked stops the answer to `message`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentStop {
    /// The message whose answer stops.
    pub message: EventId,
}
