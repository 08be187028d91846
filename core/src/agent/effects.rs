//! What the agent loop asks its host to do, and what the host reports back.
//!
//! The host applies each [`AgentEffect`]: it sends model requests (adding
//! the key from the environment variable [`KeySlot`] names), invokes tools
//! through the network as the agent, posts messages, shows status and
//! streamed text; and feeds back [`ModelResponse`]s and tool results.

use crate::agent::rules::Place;
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
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
        /// Where the key goes.
        key: KeySlot,
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
    /// Post a chat message (`workspace.message.posted`).
    Post {
        /// A channel, or the person or agent of a direct conversation.
        target: Address,
        /// The message it answers (`metadata.in_reply_to`), in a thread.
        in_reply_to: Option<EventId>,
        /// The text.
        content: String,
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
