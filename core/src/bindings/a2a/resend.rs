//! A2A sends are idempotent: a message a member sends again under the same
//! `messageId`, naming the same things, is the message it sent before, and
//! its answer is the task that message went in. A message is keyed by its
//! sender, its `messageId` and what it names: the task (`taskId`), or —
//! starting a task — the agent it goes to and the `contextId`, when named.
//! A `messageId` used before with other names is a new message; a resend
//! is never answered with a task other than the one it names.

use crate::Address;
use crate::ids::task_id::TaskId;
use crate::model::task::Task;
use crate::network::Network;

/// True when `member` already sent `message_id` in `task` (the task its
/// resend names).
pub(super) fn sent_in(task: &Task, member: &Address, message_id: &str) -> bool {
    task.history
        .iter()
        .any(|m| &m.from == member && m.client_id.as_deref() == Some(message_id))
}

/// The task `member`'s message `message_id` started with `agent`, in
/// `context` when one is named; the message naming no task that was sent
/// before.
pub(super) fn started(
    network: &Network,
    member: &Address,
    agent: &Address,
    context: Option<&str>,
    message_id: &str,
) -> Option<TaskId> {
    network
        .state()
        .tasks
        .values()
        .filter(|t| &t.requester == member && t.partners.contains(agent))
        .filter(|t| context.is_none_or(|c| t.context_text() == c))
        .find(|t| {
            // The message a task was started by carries the task's id.
            t.history.iter().any(|m| {
                m.id == t.id.as_str()
                    && &m.from == member
                    && m.client_id.as_deref() == Some(message_id)
            })
        })
        .map(|t| t.id.clone())
}
