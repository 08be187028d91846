//! Tasks: work one member (the requester, AIP's leader) hands to others (its
//! partners), with a lifecycle, a conversation and artifacts (ACPs AIP v01.00).
//!
//! A task lives in the network's state and is persisted as a row; it changes
//! only through `task.*` events (`crate::network` handles them). This module
//! is the data and the rules every host and binding shares: the states, the
//! legal transitions and the mapping to A2A's task states.
//!
//! ## States and transitions
//!
//! AIP's table, with `start` being the `task.create` event:
//!
//! | from | to |
//! |---|---|
//! | start | accepted, rejected |
//! | accepted | working, canceled, rejected¹ |
//! | working | awaiting-input, awaiting-completion, failed, canceled |
//! | awaiting-input | working, canceled |
//! | awaiting-completion | completed, working, canceled |
//!
//! `completed`, `canceled`, `failed` and `rejected` are terminal. ¹ The
//! network accepts a task on delivery (start → accepted), so a partner's
//! refusal — AIP's start → rejected — is its first answer, while the task is
//! still `accepted`. Anything else is refused with
//! [`ErrorCode::InvalidTransition`].
//!
//! ## A2A task states
//!
//! | AIP | A2A 1.0 | A2A 0.3 |
//! |---|---|---|
//! | accepted | `TASK_STATE_SUBMITTED` | `submitted` |
//! | working | `TASK_STATE_WORKING` | `working` |
//! | awaiting-input | `TASK_STATE_INPUT_REQUIRED` | `input-required` |
//! | awaiting-completion | `TASK_STATE_AUTH_REQUIRED`² | `auth-required` |
//! | completed | `TASK_STATE_COMPLETED` | `completed` |
//! | canceled | `TASK_STATE_CANCELED` | `canceled` |
//! | failed | `TASK_STATE_FAILED` | `failed` |
//! | rejected | `TASK_STATE_REJECTED` | `rejected` |
//!
//! ² Both states wait for the requester to act before the partner can go on
//! (confirm completion; authorize): the one state A2A has left for AIP's.
//! Tasks started through A2A never reach it: their requester cannot send
//! AIP's `complete`, so the network confirms completion for it
//! ([`Task::confirm`] is false).

use crate::error::{Coded, ErrorCode};
use crate::ids::address::{Address, Name};
use crate::ids::conversation_id::ConversationId;
use crate::ids::task_id::TaskId;
use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most messages a task keeps in its history (older ones stay in the log).
pub const MAX_HISTORY: usize = 100;
/// Most artifacts one task holds.
pub const MAX_ARTIFACTS: usize = 32;
/// The longest sender's id a message keeps ([`TaskMessage::client_id`]).
pub const MAX_CLIENT_ID: usize = 200;

/// AIP's task states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TaskState {
    /// The network delivered it; the partner has not started.
    Accepted,
    /// The partner works on it.
    Working,
    /// The partner needs more input from the requester.
    AwaitingInput,
    /// The partner is done and waits for the requester to confirm.
    AwaitingCompletion,
    /// Done (terminal).
    Completed,
    /// Cancelled by a participant (terminal).
    Canceled,
    /// The partner could not do it (terminal).
    Failed,
    /// The partner refused it (terminal).
    Rejected,
}

impl TaskState {
    /// Every state, in lifecycle order.
    pub const ALL: [TaskState; 8] = [
        Self::Accepted,
        Self::Working,
        Self::AwaitingInput,
        Self::AwaitingCompletion,
        Self::Completed,
        Self::Canceled,
        Self::Failed,
        Self::Rejected,
    ];

    /// The state as written on the wire (`awaiting-input`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::Working => "working",
            Self::AwaitingInput => "awaiting-input",
            Self::AwaitingCompletion => "awaiting-completion",
            Self::Completed => "completed",
            Self::Canceled => "canceled",
            Self::Failed => "failed",
            Self::Rejected => "rejected",
        }
    }

    /// Reads a wire form.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// True for the states a task never leaves.
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            Self::Completed | Self::Canceled | Self::Failed | Self::Rejected
        )
    }

    /// True when AIP allows `self → to` (see the module's table).
    pub const fn may_become(self, to: Self) -> bool {
        use TaskState::*;
        matches!(
            (self, to),
            (Accepted, Working | Canceled | Rejected)
                | (
                    Working,
                    AwaitingInput | AwaitingCompletion | Failed | Canceled
                )
                | (AwaitingInput, Working | Canceled)
                | (AwaitingCompletion, Completed | Working | Canceled)
        )
    }

    /// `self → to`, or the error that refuses it.
    pub fn check(self, to: Self) -> Result<(), TaskError> {
        if self.may_become(to) {
            Ok(())
        } else {
            Err(TaskError::Transition { from: self, to })
        }
    }

    /// The A2A 1.0 enum name (`TASK_STATE_WORKING`).
    pub const fn to_a2a(self) -> &'static str {
        match self {
            Self::Accepted => "TASK_STATE_SUBMITTED",
            Self::Working => "TASK_STATE_WORKING",
            Self::AwaitingInput => "TASK_STATE_INPUT_REQUIRED",
            Self::AwaitingCompletion => "TASK_STATE_AUTH_REQUIRED",
            Self::Completed => "TASK_STATE_COMPLETED",
            Self::Canceled => "TASK_STATE_CANCELED",
            Self::Failed => "TASK_STATE_FAILED",
            Self::Rejected => "TASK_STATE_REJECTED",
        }
    }

    /// The A2A 0.3 name (`input-required`).
    pub const fn to_a2a_v03(self) -> &'static str {
        match self {
            Self::Accepted => "submitted",
            Self::AwaitingInput => "input-required",
            Self::AwaitingCompletion => "auth-required",
            other => other.as_str(),
        }
    }

    /// Reads an A2A state of either generation.
    pub fn from_a2a(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|s| s.to_a2a() == text || s.to_a2a_v03() == text)
    }
}

/// How the partners share a task (AIP's interaction modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TaskMode {
    /// One partner; messages go between it and the requester.
    #[default]
    Direct,
    /// Every member of a channel is a partner; messages go to the channel.
    Group,
    /// Messages go to a channel; the named partners alone change the state.
    Hybrid,
}

/// Who said something in a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TaskRole {
    /// The requester (AIP's leader; A2A's `user`).
    Leader,
    /// A partner (A2A's `agent`).
    Partner,
}

/// One message of a task's conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TaskMessage {
    /// The id of the event that carried it.
    pub id: String,
    /// Who sent it.
    pub from: Address,
    /// Leader or partner.
    pub role: TaskRole,
    /// Its parts (`{text}`, `{data}`, `{file}`: AIP's data items).
    pub parts: Vec<Value>,
    /// When it arrived.
    pub at: Timestamp,
    /// The sender's own id for it (A2A's `messageId`, at most
    /// [`MAX_CLIENT_ID`] characters): a message sent again under the same
    /// id is the same message (`crate::bindings::a2a::methods`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
}

/// A result a partner produced, stored as a `resource/file/…` document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TaskArtifact {
    /// Its id within the task.
    pub id: String,
    /// Its name for people.
    #[serde(default)]
    pub name: String,
    /// The file resource that holds it.
    pub resource: Address,
    /// Its parts, as the partner sent them.
    pub parts: Vec<Value>,
}

impl TaskArtifact {
    /// The type of the file an artifact named `name` with `parts` becomes:
    /// Markdown when its name ends in `.md` or a part says it is
    /// (`mediaType`, `mimeType`, or the same in its `metadata`), else plain text.
    pub fn content_type_of(name: &str, parts: &[Value]) -> &'static str {
        let says_markdown = |v: &Value| {
            ["mediaType", "mimeType"].iter().any(|k| {
                v.get(k)
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("text/markdown"))
            })
        };
        let markdown = name.to_ascii_lowercase().ends_with(".md")
            || parts
                .iter()
                .any(|p| says_markdown(p) || p.get("metadata").is_some_and(says_markdown));
        if markdown {
            "text/markdown"
        } else {
            "text/plain"
        }
    }
}

/// A task of the network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Task {
    /// Its id: the id of the `task.create` event.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub id: TaskId,
    /// A2A's `contextId`: tasks of one conversation share it (default: the
    /// id). A requester may name an empty context: `None`, written `""`
    /// ([`Task::context_text`]).
    #[serde(with = "crate::ids::conversation_id::or_empty")]
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub context: Option<ConversationId>,
    /// Who asked for it.
    pub requester: Address,
    /// Who works on it.
    pub partners: Vec<Address>,
    /// Direct, group or hybrid.
    #[serde(default)]
    pub mode: TaskMode,
    /// The channel of a group or hybrid task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub channel: Option<Name>,
    /// The skill it asks for, when named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// Where it stands.
    pub state: TaskState,
    /// The message that came with the last state change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TaskMessage>,
    /// The requester confirms completion itself (AIP's `complete`); when
    /// false, a partner's `completed` passes through `awaiting-completion`.
    #[serde(default)]
    pub confirm: bool,
    /// The conversation, oldest first (the last [`MAX_HISTORY`]).
    pub history: Vec<TaskMessage>,
    /// Its results.
    pub artifacts: Vec<TaskArtifact>,
    /// Where its requester wants push notifications of its changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    // Members never see where others' notifications go (`task.list` leaves it out).
    #[cfg_attr(feature = "ts", ts(skip))]
    pub push: Vec<crate::model::push::PushTarget>,
    /// The task's id at an external A2A partner (`crate::model::remote`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<String>,
    /// Its partner answered the request with one message instead of
    /// working on a task (a `task.update` to `completed` with `answer:
    /// "message"`, its first answer): A2A clients get that message as the
    /// result (`crate::bindings::a2a::wire::message_answer`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub answered_by_message: bool,
    /// The member the requester asked for (an assistant's task given for a
    /// person, `payload.on_behalf_of`): it may read the task (`task.list`),
    /// which its links open, but takes no part in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_behalf_of: Option<Address>,
    /// Created at.
    pub created_at: Timestamp,
    /// Last changed at.
    pub updated_at: Timestamp,
}

impl Task {
    /// The order tasks are listed in: the most recently updated first, and
    /// of those updated at once the newer id first.
    pub fn cmp_newest_first(&self, other: &Task) -> std::cmp::Ordering {
        other
            .updated_at
            .cmp(&self.updated_at)
            .then(other.id.cmp(&self.id))
    }

    /// Its context as A2A's `contextId` says it (`""` when the requester named an empty one).
    pub fn context_text(&self) -> &str {
        self.context.as_ref().map_or("", ConversationId::as_str)
    }

    /// True when `who` is its requester or one of its partners.
    pub fn involves(&self, who: &Address) -> bool {
        &self.requester == who || self.partners.contains(who)
    }

    /// True when `who` may read it: it is in it, or it was asked for `who`.
    pub fn visible_to(&self, who: &Address) -> bool {
        self.involves(who) || self.on_behalf_of.as_ref() == Some(who)
    }

    /// Where `who`'s task events go: the channel of a group or hybrid task,
    /// else the other side (the partner for the requester, the requester for a partner).
    pub fn audience_for(&self, who: &Address) -> Option<Address> {
        if let Some(channel) = &self.channel {
            return Some(Address::local(crate::ids::address::Entity::Channel(
                channel.clone(),
            )));
        }
        if who == &self.requester {
            self.partners.first().cloned()
        } else {
            Some(self.requester.clone())
        }
    }

    /// Moves to `to` as `who` asks, or says why not. A partner's `completed`
    /// from `working` passes through `awaiting-completion` unless the
    /// requester confirms itself.
    pub fn advance(
        &mut self,
        who: &Address,
        to: TaskState,
        now: Timestamp,
    ) -> Result<(), TaskError> {
        let leader = who == &self.requester;
        let allowed = match to {
            TaskState::Canceled => true,
            TaskState::Completed => leader || !self.confirm,
            TaskState::Working => {
                !leader
                    || matches!(
                        self.state,
                        TaskState::AwaitingInput | TaskState::AwaitingCompletion
                    )
            }
            _ => !leader,
        };
        if !allowed {
            return Err(TaskError::NotYours { state: to });
        }
        let through_completion = to == TaskState::Completed
            && !self.confirm
            && self.state == TaskState::Working
            && !leader;
        if through_completion {
            self.state.check(TaskState::AwaitingCompletion)?;
            TaskState::AwaitingCompletion.check(to)?;
        } else {
            self.state.check(to)?;
        }
        self.state = to;
        self.updated_at = now;
        Ok(())
    }

    /// Adds a message to the history, dropping the oldest beyond [`MAX_HISTORY`].
    pub fn record(&mut self, message: TaskMessage) {
        self.updated_at = self.updated_at.max(message.at);
        self.history.push(message);
        if self.history.len() > MAX_HISTORY {
            let extra = self.history.len() - MAX_HISTORY;
            self.history.drain(..extra);
        }
    }
}

/// Why a task operation is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    /// AIP does not allow this transition.
    #[error("a task cannot go from {} to {}", from.as_str(), to.as_str())]
    Transition {
        /// The current state.
        from: TaskState,
        /// The state asked for.
        to: TaskState,
    },
    /// The sender's side of the task may not set this state.
    #[error("only the task's partner sets {}", state.as_str())]
    NotYours {
        /// The state asked for.
        state: TaskState,
    },
}

impl Coded for TaskError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::Transition { .. } => ErrorCode::InvalidTransition,
            Self::NotYours { .. } => ErrorCode::Forbidden,
        }
    }
}

#[cfg(test)]
mod tests;
