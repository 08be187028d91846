//! IOA messages in the workspace (IOA v0.1, docs/protocols.md): an `ioa.message` event, or any
//! event with `metadata.refs`, read into what the conversation shows — its
//! parents (a thread), its recipients, and the app protocol its
//! `content_type` names: a checkpoint (a card whose options are buttons that
//! post the reply `{option, feedback}` linked by refs), a handoff and a
//! swarm with their recipients, a team message with its team. The card is
//! [`card::IoaCard`].

pub mod card;

use crate::bidi::isolate;
use agentnet_core::bindings::ioa::wire::MESSAGE_TYPE;
use agentnet_core::event::metadata::ProtocolMetadata;
use agentnet_core::{Address, Event, EventId, EventType};
use serde_json::{Map, Value, json};

/// What an IOA message is, by its `content_type`.
#[derive(Clone, Debug, PartialEq)]
pub enum IoaKind {
    /// `checkpoint`: a question for a person, with options.
    Checkpoint {
        /// Its title.
        title: String,
        /// Its body.
        body: String,
        /// Its status, if given.
        status: Option<String>,
        /// The options a reviewer picks from.
        options: Vec<String>,
    },
    /// The reply to a checkpoint: the option picked and feedback.
    Answer {
        /// The option.
        option: String,
        /// Free-form feedback.
        feedback: String,
    },
    /// `handoff`: work passed to the recipients.
    Handoff {
        /// Its title.
        title: String,
        /// The context.
        message: String,
    },
    /// `swarm`: a goal fanned out to targets.
    Swarm {
        /// The goal.
        content: String,
        /// The operational targets.
        targets: Vec<String>,
        /// All idle nodes start working.
        task: bool,
    },
    /// `team`: a message to a named group.
    Team {
        /// The team.
        team: String,
        /// The message.
        text: String,
    },
    /// Anything else: its text, or its content as JSON.
    Plain(String),
}

/// An IOA message as the conversation shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct IoaMessage {
    /// What it is.
    pub kind: IoaKind,
    /// Its parents (`refs.messages`).
    pub parents: Vec<EventId>,
    /// Its recipients (`refs.nodes`).
    pub recipients: Vec<String>,
}

/// The text under `key`, when there is text there.
fn optional_text(content: &Map<String, Value>, key: &str) -> Option<String> {
    content.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The text under `key`, empty when there is none.
fn text(content: &Map<String, Value>, key: &str) -> String {
    optional_text(content, key).unwrap_or_default()
}

/// The texts in the list under `key`; anything not text is left out.
fn texts(content: &Map<String, Value>, key: &str) -> Vec<String> {
    content
        .get(key)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The IOA view of `event`: an `ioa.message`, or `None`.
pub fn read(event: &Event) -> Option<IoaMessage> {
    if event.event_type.as_str() != MESSAGE_TYPE {
        return None;
    }
    let refs = ProtocolMetadata::read(&event.metadata)
        .map(|m| m.refs)
        .unwrap_or_default();
    let empty = Map::new();
    let content = event
        .payload
        .get("content")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let kind = match event.payload.get("content_type").and_then(Value::as_str) {
        Some("checkpoint") => IoaKind::Checkpoint {
            title: text(content, "title"),
            body: text(content, "content"),
            status: optional_text(content, "status"),
            options: texts(content, "options"),
        },
        Some("handoff") => IoaKind::Handoff {
            title: text(content, "title"),
            message: text(content, "message"),
        },
        Some("swarm") => IoaKind::Swarm {
            content: text(content, "content"),
            targets: texts(content, "targets"),
            task: content.get("task") == Some(&Value::Bool(true)),
        },
        Some("team") => IoaKind::Team {
            team: text(content, "team"),
            text: text(content, "text"),
        },
        _ if content.contains_key("option") => IoaKind::Answer {
            option: text(content, "option"),
            feedback: text(content, "feedback"),
        },
        _ => IoaKind::Plain(match content.get("text").and_then(Value::as_str) {
            Some(text) => text.to_owned(),
            None => Value::Object(content.clone()).to_string(),
        }),
    };
    Some(IoaMessage {
        kind,
        parents: refs.messages,
        recipients: refs.nodes.iter().map(ToString::to_string).collect(),
    })
}

impl IoaMessage {
    /// One line of text for excerpts and thread markers.
    pub fn summary(&self) -> String {
        match &self.kind {
            IoaKind::Checkpoint { title, .. } => format!("Checkpoint: {}", isolate(title)),
            IoaKind::Answer { option, feedback } if feedback.is_empty() => option.clone(),
            IoaKind::Answer { option, feedback } => {
                format!("{}: {}", isolate(option), isolate(feedback))
            }
            IoaKind::Handoff { title, .. } => format!("Handoff: {}", isolate(title)),
            IoaKind::Swarm { content, .. } => format!("Swarm: {}", isolate(content)),
            IoaKind::Team { team, text } => format!("[{}] {}", isolate(team), isolate(text)),
            IoaKind::Plain(text) => text.clone(),
        }
    }
}

/// The reply to checkpoint `checkpoint` in `channel`: `(type, target, payload, metadata)`,
/// as IOA's checkpoint protocol says (no content_type; linked by `refs.messages`).
pub fn answer(
    channel: &Address,
    checkpoint: EventId,
    option: &str,
) -> Option<(EventType, Address, Value, Map<String, Value>)> {
    let kind = MESSAGE_TYPE.parse().ok()?;
    let payload = json!({"content": {"option": option, "feedback": ""}});
    let mut metadata = Map::new();
    metadata.insert(
        "refs".into(),
        json!({"messages": [checkpoint.to_string()], "nodes": []}),
    );
    Some((kind, channel.clone(), payload, metadata))
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentnet_core::Limits;

    fn event(payload: Value, refs: Value) -> Event {
        let value = json!({
            "id": EventId::from_parts(1, 7).to_string(), "type": MESSAGE_TYPE,
            "source": "agent:bot", "target": "channel/ops", "payload": payload, "timestamp": 1,
            "metadata": {"refs": refs},
        });
        Event::from_value(value, &Limits::default()).unwrap()
    }

    #[test]
    fn protocols_read_by_content_type() {
        let cp = read(&event(
            json!({"content_type": "checkpoint", "content": {"id": "c", "title": "Deploy?", "options": ["Approve", "Reject"]}}),
            json!({"messages": [], "nodes": ["human:ann"]}),
        ))
        .unwrap();
        assert_eq!(cp.recipients, ["human:ann"]);
        assert!(
            matches!(&cp.kind, IoaKind::Checkpoint { options, .. } if options == &["Approve", "Reject"])
        );
        assert_eq!(cp.summary(), "Checkpoint: Deploy?");
        let parent = EventId::from_parts(1, 3);
        let reply = read(&event(
            json!({"content": {"option": "Approve", "feedback": ""}}),
            json!({"messages": [parent.to_string()]}),
        ))
        .unwrap();
        assert_eq!(reply.parents, [parent]);
        assert_eq!(reply.summary(), "Approve");
        let swarm = read(&event(json!({"content_type": "swarm", "content": {"content": "scan", "targets": ["a"], "task": true}}), json!({}))).unwrap();
        assert_eq!(
            swarm.kind,
            IoaKind::Swarm {
                content: "scan".into(),
                targets: vec!["a".into()],
                task: true
            }
        );
    }

    #[test]
    fn the_answer_is_linked_by_refs() {
        let channel: Address = "channel/ops".parse().unwrap();
        let (kind, target, payload, metadata) =
            answer(&channel, EventId::from_parts(1, 3), "Reject").unwrap();
        assert_eq!(kind.as_str(), MESSAGE_TYPE);
        assert_eq!(target, channel);
        assert_eq!(payload["content"]["option"], "Reject");
        assert_eq!(
            metadata["refs"]["messages"][0],
            EventId::from_parts(1, 3).to_string()
        );
    }
}
