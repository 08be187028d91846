//! Approvals asked of a person through their MCP client: `elicitation/create`.
//!
//! When `workspace.approval.requested` ([`crate::mods::workspace::approvals`])
//! is asked of a person — by the rule notifications follow
//! ([`crate::webpush::recipients`]: the approvers it names; naming none, the
//! person it was sent to directly, else the network's masters) — and that
//! person holds a legacy MCP session whose client declared the
//! `elicitation` capability in form mode at `initialize` ([`supports`];
//! revisions 2025-06-18 and 2025-11-25), the server sends `elicitation/create`
//! on that session's newest `GET` stream ([`asks`]). Its message says who
//! asks, the summary, what the step acts on and its detail; its form is flat:
//! `decision` (`approve` or `deny`), an optional `reason`, and an optional
//! edit of the step (`arguments`, a JSON object as text, for a tool call;
//! `text` for a task or a message).
//!
//! The request's id names the approval, who asked and where the request went
//! ([`Asked`]), so an answer finds its way without the server remembering
//! anything, even after a restart; [`super::elicit_answer`] turns it into the
//! member's decision, which the network checks like any other (an approver,
//! once, in time, where the request went: a forged id is only refused). Once
//! the approval is decided or expires, the host cancels the requests it sent
//! that are still out ([`cancelled`]).
//!
//! A person whose client was away when an approval was asked is asked when
//! it opens its stream ([`still_open`], [`asks_on`]), while the approval is open.
//!
//! 2025-03-26 has no elicitation, and a 2026-07-28 server asks for input only
//! within the client's own request (`InputRequiredResult`): those clients,
//! and clients without the capability, get nothing new.

use super::revision::Revision;
use super::streams::Streams;
use crate::bindings::jsonrpc::{Call, Id, notification};
use crate::ids::time::Timestamp;
use crate::mods::workspace::saved_approvals;
use crate::vocabulary::approvals::{ActionKind, ApprovalDecision, ApprovalRequest};
use crate::vocabulary::event_types::{APPROVAL_DECIDED, APPROVAL_REQUESTED};
use crate::webpush::recipients::{Reason, notices};
use crate::{Address, Event, EventId, Network};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The method that asks the client's user.
pub const METHOD: &str = "elicitation/create";
/// How a request id of an approval's elicitation starts.
pub const ID_PREFIX: &str = "agentnet.approval";
/// The most characters of a step's detail the message shows.
pub const MAX_DETAIL_SHOWN: usize = 2_000;

/// Whether a client that sent `capabilities` at `initialize` in `revision`
/// takes `elicitation/create` in form mode (an empty `elicitation` object
/// means form mode; from 2025-11-25 `{form}` says so and `{url}` alone does not).
pub fn supports(revision: Revision, capabilities: Option<&Value>) -> bool {
    if !revision.elicits_in_sessions() {
        return false;
    }
    let Some(Value::Object(modes)) = capabilities.and_then(|c| c.get("elicitation")) else {
        return false;
    };
    !revision.elicitation_modes() || modes.contains_key("form") || !modes.contains_key("url")
}

/// The approval an elicitation asks about, as its request id carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    /// The request's event id.
    pub approval: EventId,
    /// Who asked.
    pub requester: Address,
    /// Where the request went (a decision goes back by
    /// [`crate::mods::workspace::approvals::decision_target`]).
    pub place: Address,
}

impl Asked {
    /// The approval `event` asks, if it is a `workspace.approval.requested`.
    pub fn of_request(event: &Event) -> Option<Self> {
        (event.event_type.as_str() == APPROVAL_REQUESTED).then(|| Self {
            approval: event.id,
            requester: event.source.clone(),
            place: event.target.clone(),
        })
    }

    /// The request id of its elicitation.
    pub fn id(&self) -> Id {
        Id::Text(format!(
            "{ID_PREFIX} {} {} {}",
            self.approval, self.requester, self.place
        ))
    }

    /// The approval a response's id names, if it names one.
    pub fn from_id(id: &Id) -> Option<Self> {
        let Id::Text(text) = id else {
            return None;
        };
        let mut parts = text.split(' ');
        if parts.next() != Some(ID_PREFIX) {
            return None;
        }
        let asked = Self {
            approval: parts.next()?.parse().ok()?,
            requester: parts.next()?.parse().ok()?,
            place: parts.next()?.parse().ok()?,
        };
        parts.next().is_none().then_some(asked)
    }
}

/// What a step acts on and its detail, as the message shows them.
fn describe(kind: ActionKind, subject: &str, detail: &Value) -> (String, String) {
    let shown = match detail {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    let shown = match shown.char_indices().nth(MAX_DETAIL_SHOWN) {
        Some((cut, _)) => format!("{}…", &shown[..cut]),
        None => shown,
    };
    match kind {
        ActionKind::ToolCall => (
            format!("Tool call: {subject}"),
            format!("Arguments: {shown}"),
        ),
        ActionKind::Task => (
            format!("Task for: {subject}"),
            format!("Instructions: {shown}"),
        ),
        ActionKind::Message => (format!("Message to: {subject}"), format!("Text: {shown}")),
    }
}

/// How long until `expires_at`, in words.
fn remaining(expires_at: Timestamp, now: Timestamp) -> String {
    let minutes = expires_at.millis_since(now).div_ceil(60_000);
    match minutes {
        0..=1 => "a minute".into(),
        2..=119 => format!("{minutes} minutes"),
        120..=2_879 => format!("{} hours", minutes / 60),
        _ => format!("{} days", minutes / 1_440),
    }
}

/// The form: a decision, a reason, and the edit the step's kind allows.
pub fn requested_schema(revision: Revision, kind: ActionKind) -> Value {
    let mut decision = json!({
        "type": "string",
        "title": "Decision",
        "description": "Approve the step, or deny it",
    });
    if revision.elicitation_modes() {
        decision["oneOf"] = json!([
            {"const": "approve", "title": "Approve"},
            {"const": "deny", "title": "Deny"},
        ]);
    } else {
        decision["enum"] = json!(["approve", "deny"]);
        decision["enumNames"] = json!(["Approve", "Deny"]);
    }
    let mut properties = Map::new();
    properties.insert("decision".into(), decision);
    properties.insert(
        "reason".into(),
        json!({"type": "string", "title": "Reason", "description": "Why, in words (optional)"}),
    );
    let (field, title, description) = match kind {
        ActionKind::ToolCall => (
            "arguments",
            "Edited arguments",
            "To approve with other arguments: all of them, as a JSON object. Leave empty to approve them as asked",
        ),
        ActionKind::Task => (
            "text",
            "Edited instructions",
            "To approve other instructions: the whole text. Leave empty to approve them as asked",
        ),
        ActionKind::Message => (
            "text",
            "Edited text",
            "To approve another text: the whole text. Leave empty to approve it as asked",
        ),
    };
    properties.insert(
        field.into(),
        json!({"type": "string", "title": title, "description": description}),
    );
    json!({"type": "object", "properties": properties, "required": ["decision"]})
}

/// The `elicitation/create` request that asks about the approval `event`
/// requests (`None` for any other event, or one that does not read as a request).
pub fn ask(revision: Revision, event: &Event, now: Timestamp) -> Option<Value> {
    let asked = Asked::of_request(event)?;
    let request: ApprovalRequest = serde_json::from_value(event.payload.clone()).ok()?;
    let action = &request.action;
    let (subject, detail) = describe(action.kind, &action.subject, &action.detail);
    let message = format!(
        "{} asks for your approval: {}\n{subject}\n{detail}\nIt expires in {}.",
        event.source,
        action.summary.trim(),
        remaining(request.expires_at, now),
    );
    let mut params = json!({
        "message": message,
        "requestedSchema": requested_schema(revision, action.kind),
    });
    if revision.elicitation_modes() {
        params["mode"] = json!("form");
    }
    Some(Call::new(asked.id(), METHOD, params).to_value())
}

/// The elicitations an accepted `event` gives: for each person it asks
/// (never its sender), on each stream of theirs that takes them, the stream,
/// the request's id and the request.
pub fn asks(
    network: &Network,
    streams: &Streams,
    event: &Event,
    now: Timestamp,
) -> Vec<(String, Id, Value)> {
    let Some(asked) = Asked::of_request(event) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for notice in notices(network, event) {
        if notice.reason != Reason::Approval {
            continue;
        }
        for (stream, revision) in streams.elicitable(&notice.to) {
            if let Some(request) = ask(revision, event, now) {
                out.push((stream, asked.id(), request));
            }
        }
    }
    out
}

/// The most open approvals asked again of a client that connects ([`still_open`]).
pub const MAX_ASKED_ON_CONNECT: usize = 50;

/// The approvals still open at `now` (undecided, unexpired), oldest first, at
/// most the newest [`MAX_ASKED_ON_CONNECT`]: a person whose client was away
/// when one was asked is asked on the stream it opens later ([`asks_on`]).
pub fn still_open(network: &Network, now: Timestamp) -> Vec<EventId> {
    let open: Vec<EventId> = saved_approvals(network.state())
        .into_iter()
        .filter(|(_, a)| a.decided.is_none() && a.expires_at > now)
        .map(|(id, _)| id)
        .collect();
    open[open.len().saturating_sub(MAX_ASKED_ON_CONNECT)..].to_vec()
}

/// The elicitation of the approval `request` for the stream `stream` alone
/// (a client that has just opened it), when its person is asked and the
/// stream takes elicitations.
pub fn asks_on(
    network: &Network,
    streams: &Streams,
    stream: &str,
    request: &Event,
    now: Timestamp,
) -> Option<(Id, Value)> {
    asks(network, streams, request, now)
        .into_iter()
        .find(|(on, _, _)| on == stream)
        .map(|(_, id, request)| (id, request))
}

/// The approval an accepted `workspace.approval.decided` closes (decided or expired).
pub fn closed(event: &Event) -> Option<(EventId, String)> {
    if event.event_type.as_str() != APPROVAL_DECIDED {
        return None;
    }
    let decided = ApprovalDecision::deserialize(&event.payload).ok()?;
    // The decision as its payload words it (`approved`, `denied`, `expired`).
    let decision = serde_json::to_value(decided.decision).ok()?;
    Some((decided.approval, decision.as_str()?.to_owned()))
}

/// `notifications/cancelled` for an elicitation whose approval closed
/// (`decision`: approved, denied or expired).
pub fn cancelled(request: &Id, decision: &str) -> Value {
    notification(
        "notifications/cancelled",
        json!({"requestId": request.to_value(), "reason": format!("the approval was {decision}")}),
    )
}
