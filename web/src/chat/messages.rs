//! Messages as the conversation shows them: the line model (posts and status
//! updates, threads by `in_reply_to`, `@` mentions), built from an event by
//! one function ([`line_from`]) wherever it comes from — the log, the outbox,
//! the composer or another tab. The component for one line is in
//! [`crate::chat::pane`].

use crate::chat::conversations::conversation_of;
use crate::ioa::IoaMessage;
use agentnet_core::bindings::ioa::wire::MESSAGE_TYPE as IOA_MESSAGE;
use agentnet_core::event::metadata::ProtocolMetadata;
use agentnet_core::replica::{OutboxState, Replica};
use agentnet_core::vocabulary::event_types::{
    MESSAGE_DELETED, MESSAGE_EDITED, MESSAGE_POSTED, MESSAGE_STATUS,
};
use agentnet_core::{Address, Event, EventId};

/// One message as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Event id.
    pub id: EventId,
    /// Sender address.
    pub source: String,
    /// The conversation it belongs to (see [`conversation_of`]).
    pub conversation: String,
    /// Message text.
    pub content: String,
    /// When it was posted (the event's timestamp, ms since the epoch).
    pub at: u64,
    /// Delivery state of the person's own messages.
    pub state: LineState,
    /// The message this one answers (a thread).
    pub in_reply_to: Option<EventId>,
    /// A thread reply its sender did not also send to the conversation:
    /// shown in its thread only ([`thread_only`]).
    pub thread_only: bool,
    /// A status update (`workspace.message.status`) rather than a post.
    pub status: bool,
    /// An IOA message: its protocol, parents and recipients ([`crate::ioa`]).
    pub ioa: Option<IoaMessage>,
    /// Who delegated the question this answers (`metadata.delegation.from`,
    /// written by `mod/workspace` on a delegate's answer routed back).
    pub delegated_by: Option<String>,
    /// Its author changed its text ([`crate::chat::changes::edits`]).
    pub edited: bool,
    /// It was deleted: the list shows a placeholder.
    pub deleted: bool,
    /// Why the network refused the person's last change to it (an edit,
    /// a deletion, a reaction), shown beside it until a change goes through.
    pub change_refused: Option<String>,
    /// The files it carries (`payload.attachments`; none when malformed).
    pub attachments: Vec<crate::chat::files::attach::Attached>,
    /// The message an agent's answer answers (`payload.answers`).
    pub answers: Option<EventId>,
    /// The tools an agent used for it (`payload.steps`, [`crate::chat::agents::steps`]).
    pub steps: Vec<crate::chat::agents::steps::Step>,
}

/// True for the events the conversation shows: posts, status updates, IOA
/// messages, and any other event (not the network's own `network.*`) whose
/// payload has `content` text — what an agent meant as a message. Edits and
/// deletions change a message rather than being one ([`crate::chat::changes::edits`]).
pub fn is_conversation_event(event: &Event) -> bool {
    let kind = event.event_type.as_str();
    matches!(kind, MESSAGE_POSTED | MESSAGE_STATUS | IOA_MESSAGE)
        || (!kind.starts_with("network.")
            && !matches!(kind, MESSAGE_EDITED | MESSAGE_DELETED)
            && event
                .payload
                .get("content")
                .is_some_and(serde_json::Value::is_string))
}

/// The addresses mentioned as `@address` in a text, canonical and once each.
pub fn mentions_in(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let Some(candidate) = word.strip_prefix('@') else {
            continue;
        };
        let candidate = candidate.trim_end_matches([',', '.', '!', '?', ';', ')']);
        if let Ok(address) = candidate.parse::<Address>()
            && !found.contains(&address.to_string())
        {
            found.push(address.to_string());
        }
    }
    found
}

/// Whether a message is confirmed by the network.
#[derive(Clone, Debug, PartialEq)]
pub enum LineState {
    /// Received from someone else.
    Received,
    /// Sent, waiting for the network's ack.
    Pending,
    /// Acked by the network.
    Sent,
    /// Rejected, with the network's reason.
    Rejected(String),
}

/// The line for `event` in `state`, as seen by `me`: the only way a line is made.
pub fn line_from(event: &Event, state: LineState, me: &str) -> Line {
    let source = event.source.to_string();
    let status = event.event_type.as_str() == MESSAGE_STATUS;
    let text = |key: &str| event.payload.get(key).and_then(|c| c.as_str());
    let ioa = crate::ioa::read(event);
    // A message answers its `in_reply_to`, else its first IOA parent (`refs.messages`).
    let parent = event.in_reply_to().or_else(|| {
        ProtocolMetadata::read(&event.metadata)
            .ok()
            .and_then(|m| m.refs.messages.first().copied())
    });
    Line {
        id: event.id,
        conversation: conversation_of(&event.target.to_string(), &source, me),
        source,
        at: event.timestamp.as_millis(),
        content: match &ioa {
            Some(ioa) => ioa.summary(),
            None if status => text("status")
                .or_else(|| text("content"))
                .unwrap_or("")
                .to_owned(),
            None => text("content").unwrap_or("").to_owned(),
        },
        state,
        in_reply_to: parent,
        thread_only: thread_only(event),
        status,
        ioa,
        delegated_by: event
            .metadata
            .get("delegation")
            .and_then(|d| d.get("from"))
            .and_then(|f| f.as_str())
            .map(str::to_owned),
        edited: false,
        deleted: false,
        change_refused: None,
        attachments: crate::chat::files::attach::Attached::all_in(&event.payload),
        answers: text("answers").and_then(|a| a.parse().ok()),
        steps: crate::chat::agents::steps::read(&event.payload),
    }
}

/// The lines a restored replica already holds: its log's messages, then its outbox.
pub fn restored_lines(replica: &Replica, me: &Address) -> Vec<Line> {
    let mut lines: Vec<Line> = replica
        .log()
        .values()
        .filter(|e| is_conversation_event(e))
        .map(|e| {
            let state = if &e.source == me {
                LineState::Sent
            } else {
                LineState::Received
            };
            line_from(e, state, &me.to_string())
        })
        .collect();
    lines.extend(
        replica
            .outbox()
            .filter(|entry| is_conversation_event(&entry.event))
            .map(|entry| {
                let state = match &entry.state {
                    OutboxState::Rejected { rejection } => {
                        LineState::Rejected(rejection.message.clone())
                    }
                    _ => LineState::Pending,
                };
                line_from(&entry.event, state, &me.to_string())
            }),
    );
    lines
}

/// The metadata flag of a thread reply its sender also sent to the
/// conversation ("also send to the conversation" in the thread's composer).
pub const ALSO_IN_CONVERSATION: &str = "also_in_conversation";

/// True for a thread reply (`metadata.in_reply_to`) that stays in its
/// thread: its sender did not tick "also send to the conversation"
/// ([`ALSO_IN_CONVERSATION`]). IOA answers (`refs.messages`) show in the conversation.
pub fn thread_only(event: &Event) -> bool {
    event.in_reply_to().is_some()
        && event
            .metadata
            .get(ALSO_IN_CONVERSATION)
            .and_then(serde_json::Value::as_bool)
            != Some(true)
}

/// A short excerpt of a message as it reads (its Markdown rendered to
/// plain text, [`crate::chat::text::plain`]), for quotes and labels.
pub fn excerpt_of(content: &str) -> String {
    let content = crate::chat::text::plain::plain_text(content);
    let mut excerpt: String = content.chars().take(40).collect();
    if content.chars().count() > 40 {
        excerpt.push('…');
    }
    excerpt
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentnet_core::Limits;
    use serde_json::json;

    fn event(kind: &str, source: &str, target: &str, payload: serde_json::Value) -> Event {
        let mut value = json!({
            "id": EventId::from_parts(1, 7).to_string(), "type": kind,
            "source": source, "target": target, "payload": payload, "timestamp": 1,
        });
        value["metadata"] = json!({"in_reply_to": EventId::from_parts(1, 3).to_string()});
        Event::from_value(value, &Limits::default()).unwrap()
    }

    #[test]
    fn a_line_keeps_its_thread_conversation_and_kind() {
        let me = "human:ann";
        let reply = event(MESSAGE_POSTED, "agent:bob", me, json!({"content": "yes"}));
        let line = line_from(&reply, LineState::Received, me);
        assert_eq!(
            line.conversation, "agent:bob",
            "a direct message is the other person's"
        );
        assert_eq!(line.in_reply_to, Some(EventId::from_parts(1, 3)));
        assert!(line.thread_only, "a thread reply stays in its thread");
        let mut also = reply.clone();
        also.metadata
            .insert(ALSO_IN_CONVERSATION.into(), json!(true));
        assert!(!line_from(&also, LineState::Received, me).thread_only);
        assert_eq!(line.content, "yes");
        assert!(!line.status);
        let status = event(
            MESSAGE_STATUS,
            "agent:bob",
            "agent:broadcast",
            json!({"status": "thinking"}),
        );
        let line = line_from(&status, LineState::Received, me);
        assert!(line.status);
        assert_eq!(line.content, "thinking");
        assert_eq!(line.conversation, "agent:broadcast");
        assert_eq!(line.delegated_by, None);
        // A delegate's answer routed back names who delegated the question.
        let mut answer = event(
            MESSAGE_POSTED,
            "agent:expert",
            "channel/session-q",
            json!({"content": "42"}),
        );
        answer.metadata.insert(
            "delegation".into(),
            json!({"id": EventId::from_parts(1, 5).to_string(), "from": "agent:lead"}),
        );
        let line = line_from(&answer, LineState::Received, me);
        assert_eq!(line.delegated_by.as_deref(), Some("agent:lead"));
        assert_eq!(line.conversation, "channel/session-q");
    }

    #[test]
    fn any_event_with_content_text_is_shown_but_not_the_networks_own() {
        let shown = |kind: &str, payload| {
            is_conversation_event(&event(kind, "agent:x", "human:ann", payload))
        };
        assert!(shown(MESSAGE_POSTED, json!({"content": "hi"})));
        assert!(shown(
            "chat.reply",
            json!({"content": "an agent's own type"})
        ));
        assert!(!shown("chat.reply", json!({"text": "no content"})));
        assert!(!shown("chat.reply", json!({"content": {"not": "text"}})));
        assert!(!shown(MESSAGE_EDITED, json!({"content": "a change"})));
        // An agent's activity carries its answer so far as `text`: never a line.
        assert!(!shown(
            agentnet_core::vocabulary::event_types::AGENT_ACTIVITY,
            json!({"state": "writing", "message": EventId::from_parts(1, 3).to_string(), "text": "Hel"})
        ));
        assert!(!shown(
            "network.resource.update",
            json!({"content": "a file"})
        ));
    }

    #[test]
    fn mentions_are_valid_addresses_after_an_at_sign() {
        assert_eq!(
            mentions_in("hi @agent:helper, and @human:ann!"),
            ["agent:helper", "human:ann"]
        );
        assert_eq!(
            mentions_in("mail me@example or @ alone or @agent:"),
            Vec::<String>::new()
        );
        assert_eq!(mentions_in("@agent:x @agent:x"), ["agent:x"]);
        assert_eq!(excerpt_of("short"), "short");
        assert_eq!(excerpt_of(&"x".repeat(50)).chars().count(), 41);
    }
}
