//! Approvals: the payloads of `workspace.approval.requested` (an agent
//! asks a person before a step) and `.decided`. The rules the network
//! checks are [`crate::mods::workspace::approvals`]'s.

use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the step is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// A tool call: `detail` is its arguments (an object), `subject` the tool.
    ToolCall,
    /// A task to another agent: `detail` is the instructions (text), `subject` the agent.
    Task,
    /// A message: `detail` is its text, `subject` where it goes.
    Message,
}

/// The step an agent asks to take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalAction {
    /// What kind of step.
    pub kind: ActionKind,
    /// What it acts on: the tool, the agent, the channel.
    pub subject: String,
    /// One line for people: what will happen.
    pub summary: String,
    /// What an approver may edit: the tool's arguments, the instructions, the text.
    pub detail: Value,
}

/// The payload of `workspace.approval.requested`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalRequest {
    /// Who decides; none: the person of a direct request, else the network's masters.
    #[serde(default)]
    pub approvers: Vec<Address>,
    /// The step.
    pub action: ApprovalAction,
    /// When it expires.
    pub expires_at: Timestamp,
}

/// A decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Go ahead (with `edited`, as changed).
    Approved,
    /// Do not.
    Denied,
    /// Nobody decided in time.
    Expired,
}

/// The payload of `workspace.approval.decided`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalDecision {
    /// The request's event id.
    pub approval: EventId,
    /// What was decided.
    pub decision: Decision,
    /// The step's detail as the approver edited it (approved only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edited: Option<Value>,
    /// Why, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
