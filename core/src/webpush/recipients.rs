//! Who is notified of which event: the one rule Web Push (and any other
//! way of reaching a person away from the page) follows. Pure: an event
//! and what the network knows ([`Facts`]) in, [`Notice`]s out.
//!
//! * `workspace.approval.requested` `{approvers, action: {summary, …}}`
//!   ([`crate::mods::workspace::approvals`]): each approver named; naming
//!   none, the person it was sent to directly, or the network's masters.
//! * `task.update` from a task's partner to `awaiting-input`,
//!   `awaiting-completion`, `completed`, `failed` or `rejected`: the person
//!   who started the task (its requester).
//! * `workspace.message.posted` from an agent: each person it is for — the
//!   other side of a direct message, everyone it mentions
//!   (`metadata.mentions` or `@address` in its text), and the author of the
//!   message it answers (`payload.answers`, else `metadata.in_reply_to`).
//!
//! Nobody is notified of their own event, and a person is named once per
//! event. Messages notify people (`human:` addresses) only: agents read
//! the network itself.

use crate::event::Event;
use crate::ids::address::{Address, Entity};
use crate::ids::ulid::EventId;
use crate::model::task::TaskState;
use crate::vocabulary::event_types::{APPROVAL_REQUESTED, MESSAGE_POSTED};
use serde_json::Value;

/// A task's partner changing its state.
pub const TASK_UPDATE: &str = "task.update";
/// The longest body a notice carries, in characters.
pub const MAX_BODY: usize = 180;

/// What the rule needs to know of the network.
pub trait Facts {
    /// The network's id (for links into its workspace).
    fn network(&self) -> String;
    /// The network's masters.
    fn masters(&self) -> Vec<Address>;
    /// Who started task `id`, when the network has it.
    fn task_requester(&self, id: &str) -> Option<Address>;
    /// Who wrote message `id`, when the network remembers it.
    fn author_of(&self, id: &EventId) -> Option<Address>;
}

/// Why someone is notified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// An approval is asked of them.
    Approval,
    /// A task they started needs their input.
    TaskInput,
    /// A task they started ended (done, failed or refused) or awaits their confirmation.
    TaskDone,
    /// An agent answered them, wrote to them or mentioned them.
    Answer,
}

/// One notification for one person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// Who is notified.
    pub to: Address,
    /// Why.
    pub reason: Reason,
    /// The title: who, and what.
    pub title: String,
    /// The text: an excerpt of what was said or asked.
    pub body: String,
    /// Notifications with the same tag replace each other (the event's id,
    /// so the page's own notification and the pushed one are shown once).
    pub tag: String,
    /// Where a click opens the workspace: a path under `/n/{network}`.
    pub path: String,
}

impl Notice {
    /// The JSON the service worker receives (`www/sw.js`).
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "title": self.title,
            "body": self.body,
            "tag": self.tag,
            "url": self.path,
        })
    }
}

/// Whether events of this type may notify anyone (a host need not keep others for [`notices`]).
pub fn may_notify(event_type: &str) -> bool {
    [APPROVAL_REQUESTED, TASK_UPDATE, MESSAGE_POSTED].contains(&event_type)
}

/// The notices `event` (accepted by the network) gives.
pub fn notices(facts: &dyn Facts, event: &Event) -> Vec<Notice> {
    let mut out = match event.event_type.as_str() {
        APPROVAL_REQUESTED => approval(facts, event),
        TASK_UPDATE => task(facts, event),
        MESSAGE_POSTED => answer(facts, event),
        _ => Vec::new(),
    };
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|n| n.to != event.source && seen.insert(n.to.clone()));
    out
}

/// At most [`MAX_BODY`] characters of `text` on one line.
fn excerpt(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= MAX_BODY {
        return flat;
    }
    let mut cut: String = flat.chars().take(MAX_BODY - 1).collect();
    cut.push('…');
    cut
}

fn text<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// The workspace path of the conversation `event` is in, seen by `me`, at the event.
fn conversation_path(network: &str, me: &Address, event: &Event) -> String {
    let base = format!("/n/{network}");
    let place = match event.target.entity() {
        Entity::Channel(name) => format!("{base}/channel/{name}"),
        Entity::Broadcast => base,
        _ if &event.target == me => format!("{base}/with/{}", event.source),
        _ => format!("{base}/with/{}", event.target),
    };
    format!("{place}?message={}", event.id)
}

fn approval(facts: &dyn Facts, event: &Event) -> Vec<Notice> {
    let named: Vec<Address> = event
        .payload
        .get("approvers")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .filter_map(|a| a.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let approvers = if !named.is_empty() {
        named
    } else if event.target.entity().is_participant() {
        vec![event.target.clone()]
    } else {
        facts.masters()
    };
    let summary = event
        .payload
        .get("action")
        .and_then(|a| a.get("summary"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let id = event.id.to_string();
    let network = facts.network();
    approvers
        .into_iter()
        .map(|to| Notice {
            title: format!("{} asks for your approval", event.source),
            body: excerpt(summary),
            tag: format!("approval:{}", excerpt(&id)),
            path: conversation_path(&network, &to, event),
            reason: Reason::Approval,
            to,
        })
        .collect()
}

fn task(facts: &dyn Facts, event: &Event) -> Vec<Notice> {
    let Some(id) = text(&event.payload, "task") else {
        return Vec::new();
    };
    let Some(state) = text(&event.payload, "state").and_then(TaskState::parse) else {
        return Vec::new();
    };
    let Some(requester) = facts.task_requester(id) else {
        return Vec::new();
    };
    let (reason, what) = match state {
        TaskState::AwaitingInput => (Reason::TaskInput, "needs your input on a task"),
        TaskState::AwaitingCompletion => (Reason::TaskDone, "asks you to confirm a task is done"),
        TaskState::Completed => (Reason::TaskDone, "finished your task"),
        TaskState::Failed => (Reason::TaskDone, "could not do your task"),
        TaskState::Rejected => (Reason::TaskDone, "turned down your task"),
        TaskState::Accepted | TaskState::Working | TaskState::Canceled => return Vec::new(),
    };
    let said = event
        .payload
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|part| text(part, "text"))
        .collect::<Vec<_>>()
        .join(" ");
    let body = match said.trim() {
        "" => format!("Task {id}: {}", state.as_str()),
        said => said.to_owned(),
    };
    vec![Notice {
        to: requester,
        reason,
        title: format!("{} {what}", event.source),
        body: excerpt(&body),
        tag: format!("task:{}:{}", excerpt(id), state.as_str()),
        path: format!("/n/{}/tasks/{id}", facts.network()),
    }]
}

fn answer(facts: &dyn Facts, event: &Event) -> Vec<Notice> {
    if matches!(event.source.entity(), Entity::Human(_)) {
        return Vec::new();
    }
    let mut people: Vec<Address> = Vec::new();
    if matches!(event.target.entity(), Entity::Human(_)) {
        people.push(event.target.clone());
    }
    let mentioned = event
        .metadata
        .get(crate::mods::workspace::threads::MENTIONS)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter_map(|a| a.parse::<Address>().ok())
        .chain(crate::agent::rules::mentions_in(
            crate::agent::rules::content_of(event),
        ));
    people.extend(mentioned);
    let question = text(&event.payload, "answers")
        .and_then(|id| id.parse::<EventId>().ok())
        .or_else(|| event.in_reply_to());
    let asker = question.and_then(|id| facts.author_of(&id));
    people.extend(asker.clone());
    let network = facts.network();
    let content = crate::agent::rules::content_of(event);
    people
        .into_iter()
        .filter(|to| matches!(to.entity(), Entity::Human(_)))
        .map(|to| {
            let title = if asker.as_ref() == Some(&to) {
                format!("{} answered you", event.source)
            } else if event.target == to {
                format!("{} wrote to you", event.source)
            } else {
                format!("{} mentioned you", event.source)
            };
            Notice {
                reason: Reason::Answer,
                title,
                body: excerpt(content),
                tag: event.id.to_string(),
                path: conversation_path(&network, &to, event),
                to,
            }
        })
        .collect()
}
