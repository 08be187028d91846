//! What the agent loop asks its host to do, and what the host reports back.
//!
//! The host applies each [`AgentEffect`]: it sends model requests (adding
//! the key from the environment variable [`KeySlot`] names), invokes tools
//! through the network as the agent, posts messages, shows status and
//! streamed text; and feeds back [`ModelResponse`]s and tool results.

use crate::agent::rules::Place;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::vocabulary::approvals::ApprovalAction;
pub use crate::vocabulary::messages::{MAX_STEP_RESULT, Step};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// A model call's id, unique within one agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RequestId(pub u64);

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model-{}", self.0)
    }
}

/// Where the host puts the provider key: the request's headers carry
/// `placeholder` in the header `header`, which the host replaces with the
/// value of the environment variable `variable`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeySlot {
    /// The header holding the key (`authorization`, `x-api-key`).
    pub header: String,
    /// The environment variable holding the key.
    pub variable: String,
    /// The text in the header's value the key replaces (`${OPENAI_API_KEY}`).
    pub placeholder: String,
}

/// What the agent is doing in a conversation, for people watching.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Waiting for the model.
    Thinking,
    /// Waiting for a tool.
    CallingTool {
        /// The tool.
        name: String,
    },
    /// Waiting for a person to approve a tool call.
    AwaitingApproval {
        /// The tool.
        name: String,
    },
    /// Done, stopped or failed.
    Idle,
}

/// One thing for the host to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum AgentEffect {
    /// Show what the agent is doing in a conversation.
    Status {
        /// The conversation.
        conversation: Place,
        /// What it is doing.
        status: Status,
        /// The message the turn answers (none for a task).
        answers: Option<EventId>,
    },
    /// Send a model request: `POST url` with `headers` and `body`, the key
    /// put where `key` says. Answer with `Agent::handle_model_response`.
    CallModel {
        /// The call's id.
        request: RequestId,
        /// The conversation it is for.
        conversation: Place,
        /// The endpoint.
        url: String,
        /// The headers, the key header holding the placeholder.
        headers: Vec<(String, String)>,
        /// Where the key goes (none for a command, which takes no key).
        key: Option<KeySlot>,
        /// The JSON body.
        body: String,
    },
    /// Abort a model request (the turn was stopped).
    AbortModel {
        /// The call.
        request: RequestId,
    },
    /// The answer so far, while it streams: replaces the previous text.
    StreamText {
        /// The conversation.
        conversation: Place,
        /// The whole text so far.
        text: String,
    },
    /// Call a tool through the network as the agent. Answer with `Agent::handle_tool_result`.
    CallTool {
        /// The conversation.
        conversation: Place,
        /// The call's id (the agent's own, unique), which its result names.
        call_id: String,
        /// The tool.
        name: String,
        /// Its arguments, a JSON object.
        arguments: Value,
    },
    /// Ask the person who gave a task a question (A2A/AIP `input-required`);
    /// answer with `Agent::handle_tool_result(call_id, Ok(answer))`.
    AskInput {
        /// The task's conversation.
        conversation: Place,
        /// The call's id, which the answer names.
        call_id: String,
        /// The question.
        question: String,
    },
    /// Ask a person to approve a step: send `workspace.approval.requested`
    /// `{approvers, action, expires_at}` to `to` — or, in a task whose
    /// requester decides (`to` is the requester), ask it as the task's
    /// question. Answer with `Agent::handle_approval(call_id, outcome)`;
    /// at `expires_at` with no decision, answer `expired`.
    AskApproval {
        /// The conversation the step is for.
        conversation: Place,
        /// The tool call's id, which the outcome names.
        call_id: String,
        /// Where the card goes: a channel, or one person directly.
        to: Address,
        /// Who decides on a channel's card (none: its masters).
        approvers: Vec<Address>,
        /// The step.
        action: ApprovalAction,
        /// When it expires.
        expires_at: Timestamp,
    },
    /// An assistant's work as it happens — its plan, a task handed out, a
    /// question relayed — posted as a chat message where its answer will go
    /// (`conversation`'s target, in its thread); the turn goes on.
    Progress {
        /// The conversation.
        conversation: Place,
        /// The text, for people.
        content: String,
        /// What it is, for programs (`payload.progress`).
        progress: Progress,
        /// The message the turn answers.
        answers: Option<EventId>,
    },
    /// Find agents by capability: the network's members and the listed
    /// agents of other networks (`network.discovery.query` `{q, limit}`).
    /// Answer with `Agent::handle_tool_result(call_id, Ok(the response's payload))`.
    FindAgents {
        /// The conversation.
        conversation: Place,
        /// The call's id.
        call_id: String,
        /// What to look for (words of skills, tags, names, descriptions).
        query: String,
        /// The most agents wanted.
        limit: u32,
    },
    /// Give `to` a task (AIP `task.create` as the agent) and follow it;
    /// report with `Agent::handle_delegation(call_id, …)`: `started` once it
    /// exists, `input_required` when it asks a question, `finished` when it ends.
    Delegate {
        /// The conversation.
        conversation: Place,
        /// The call's id.
        call_id: String,
        /// The agent given the task (an address in the network).
        to: Address,
        /// What it is asked to do.
        instructions: String,
        /// The person it is for (the person of a direct conversation), who
        /// may read the task (`payload.on_behalf_of` of `task.create`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        on_behalf_of: Option<Address>,
    },
    /// Send a person's answer to a delegated task waiting for input
    /// (AIP `task.message`, which moves it back to working).
    AnswerDelegation {
        /// The delegation's call id.
        call_id: String,
        /// The task.
        task: String,
        /// The answer.
        answer: String,
    },
    /// Cancel a delegated task (the turn it was for was stopped).
    CancelDelegation {
        /// The delegation's call id.
        call_id: String,
        /// The task.
        task: String,
    },
    /// Post a chat message (`workspace.message.posted`) — or, in a task's
    /// conversation (`task` set), complete the task with `content` (fail it
    /// when `failed`).
    Post {
        /// A channel, or the person or agent of a direct conversation.
        target: Address,
        /// The message it answers (`metadata.in_reply_to`), in a thread.
        in_reply_to: Option<EventId>,
        /// The text.
        content: String,
        /// The message the answer is for (`payload.answers`), so the
        /// workspace replaces the agent's activity with it.
        answers: Option<EventId>,
        /// The tools called on the way (`payload.steps`), in order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        steps: Vec<Step>,
        /// The text says why the agent could not answer.
        #[serde(default)]
        failed: bool,
        /// The task this answers, when the conversation is a task.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task: Option<String>,
    },
}

/// A step of an assistant's work, posted as it happens (`payload.progress`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "AssistantStep"))]
pub enum Progress {
    /// The plan: the parts of the request.
    Plan {
        /// The steps, in order.
        steps: Vec<String>,
    },
    /// A task handed out.
    Delegated {
        /// The agent given it.
        to: Address,
        /// The task's id.
        task: String,
        /// Where people see it, when the host knows.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
    },
    /// A delegated task's question, put to the person: their next message
    /// in the conversation is its answer.
    Question {
        /// The agent asking.
        from: Address,
        /// The task.
        task: String,
    },
}

/// What the host reports of a task handed out by [`AgentEffect::Delegate`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "update", rename_all = "snake_case")]
pub enum DelegationUpdate {
    /// The task exists.
    Started {
        /// Its id.
        task: String,
        /// Where people see it (the workspace's task page), when known.
        #[serde(default)]
        url: Option<String>,
    },
    /// It waits for input (AIP `awaiting-input`, A2A `input-required`).
    InputRequired {
        /// Its question.
        question: String,
    },
    /// It ended, or could not be given.
    Finished {
        /// `completed`, `failed`, `rejected`, `canceled` (or `failed` when it
        /// could not be created).
        state: String,
        /// Its answer (artifacts and final message) or why it ended so.
        text: String,
    },
}

/// A piece of a model's HTTP response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "text", rename_all = "snake_case")]
pub enum ResponseBody {
    /// The whole body (a JSON answer, or any error body).
    Whole(String),
    /// A chunk of a streamed (SSE) body, cut anywhere.
    Chunk(String),
    /// The stream ended.
    End,
    /// The request failed before an answer (network error, timeout).
    Failed(String),
}

/// What the host reports of a model call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelResponse {
    /// The HTTP status (0 when it failed before one).
    pub status: u16,
    /// The `retry-after` header, in seconds, when present.
    #[serde(default)]
    pub retry_after_secs: Option<u64>,
    /// The body, or a piece of it.
    pub body: ResponseBody,
}
