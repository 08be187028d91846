//! Workspace sessions (threads, ONM §12) in the chat, the model: what
//! each session channel is called and where it stands, folded from the
//! `workspace.session.created` / `updated` events the person received or
//! sent ([`Sessions::apply`], tested below), the sidebar's names for them,
//! and the update the header's form sends ([`update_payload`]; the header
//! is [`crate::chat::sessions::header`]).

use crate::bidi::isolate;
use agentnet_core::Event;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// A new session.
pub const CREATED: &str = "workspace.session.created";
/// A session renamed, its status or master changed.
pub const UPDATED: &str = "workspace.session.updated";

/// What the page knows of one session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionInfo {
    /// Its title, when it has one.
    pub title: Option<String>,
    /// `open`, `closed` or `archived`.
    pub status: String,
    /// The agent that answers first in it.
    pub master: Option<String>,
}

/// The sessions, by channel address (`channel/session-{id}`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sessions(pub BTreeMap<String, SessionInfo>);

impl Sessions {
    /// Folds one event in: a session created or updated (by the network's
    /// account: `payload.channel` is the one `mod/workspace` wrote).
    pub fn apply(&mut self, event: &Event) {
        let kind = event.event_type.as_str();
        if kind == CREATED || kind == UPDATED {
            self.apply_payload(&event.payload);
        }
    }

    /// Folds in a session event's payload (the person's own, once accepted).
    pub fn apply_payload(&mut self, payload: &Value) {
        let Some(channel) = payload.get("channel").and_then(Value::as_str) else {
            return;
        };
        let text = |key: &str| payload.get(key).and_then(Value::as_str).map(str::to_owned);
        let info = self
            .0
            .entry(channel.to_owned())
            .or_insert_with(|| SessionInfo {
                status: "open".into(),
                ..SessionInfo::default()
            });
        if let Some(title) = text("title") {
            info.title = Some(title);
        }
        if let Some(status) = text("status") {
            info.status = status;
        }
        match payload.get("master") {
            Some(Value::String(master)) => info.master = Some(master.clone()),
            Some(Value::Null) => info.master = None,
            _ => {}
        }
    }

    /// How the sidebar names a session channel: its title and status, when known.
    pub fn title_of(&self, conversation: &str) -> Option<String> {
        let info = self.0.get(conversation)?;
        let title = info
            .title
            .clone()
            .unwrap_or_else(|| conversation.trim_start_matches("channel/").to_owned());
        let title = isolate(&title);
        Some(if info.status == "open" {
            format!("# {title}")
        } else {
            format!("# {title} · {}", isolate(&info.status))
        })
    }
}

/// The payload of an update from the form: the session and what changed.
pub fn update_payload(
    channel: &str,
    title: &str,
    status: &str,
    current: &SessionInfo,
) -> Option<Value> {
    let mut changes = Map::new();
    let title = title.trim();
    if !title.is_empty() && Some(title) != current.title.as_deref() {
        changes.insert("title".into(), json!(title));
    }
    if !status.is_empty() && status != current.status {
        changes.insert("status".into(), json!(status));
    }
    if changes.is_empty() {
        return None;
    }
    changes.insert("session".into(), json!(channel));
    Some(Value::Object(changes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: &str, payload: Value) -> Event {
        serde_json::from_value(json!({
            "id": agentnet_core::EventId::from_parts(1, 1).to_string(), "type": kind,
            "source": "human:ann", "target": "agent:broadcast", "payload": payload, "timestamp": 1
        }))
        .unwrap()
    }

    #[test]
    fn sessions_fold_from_their_events_and_name_their_channels() {
        let mut sessions = Sessions::default();
        sessions.apply(&event(CREATED, json!({"session": "p", "channel": "channel/session-p", "title": "Plan", "status": "open", "master": null})));
        assert_eq!(
            sessions.title_of("channel/session-p").as_deref(),
            Some("# Plan")
        );
        sessions.apply(&event(UPDATED, json!({"session": "p", "channel": "channel/session-p", "status": "closed", "master": "agent:lead"})));
        let info = &sessions.0["channel/session-p"];
        assert_eq!(
            (
                info.title.as_deref(),
                info.status.as_str(),
                info.master.as_deref()
            ),
            (Some("Plan"), "closed", Some("agent:lead"))
        );
        assert_eq!(
            sessions.title_of("channel/session-p").as_deref(),
            Some("# Plan · closed")
        );
        // Not a session, or a session event without the network's channel: nothing.
        sessions.apply(&event(
            "workspace.message.posted",
            json!({"channel": "channel/x"}),
        ));
        sessions.apply(&event(UPDATED, json!({"session": "q", "title": "Q"})));
        assert_eq!(sessions.0.len(), 1);
        assert_eq!(sessions.title_of("channel/general"), None);
    }

    #[test]
    fn the_form_sends_only_what_changed() {
        let current = SessionInfo {
            title: Some("Plan".into()),
            status: "open".into(),
            master: None,
        };
        assert_eq!(
            update_payload("channel/session-p", " Plan ", "open", &current),
            None
        );
        assert_eq!(
            update_payload("channel/session-p", "Launch", "closed", &current),
            Some(json!({"session": "channel/session-p", "title": "Launch", "status": "closed"}))
        );
    }
}
