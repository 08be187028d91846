//! Workspace sessions (threads, ONM §12) in the chat, the model: what
//! each session channel is called and where it stands, folded from the
//! `workspace.session.created` / `updated` events the person received or
//! sent ([`Sessions::apply`], tested below), the sidebar's names for them,
//! and the update the header's form sends ([`update_payload`]; the header
//! is [`crate::chat::sessions::header`]).

use crate::bidi::isolate;
use agentnet_core::vocabulary::WorkspaceEventType;
use agentnet_core::vocabulary::sessions::{Session, SessionStatus, SessionUpdated};
use agentnet_core::{Address, Event};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The sessions, by channel address (`channel/session-{id}`). A session's
/// `created_by` is whoever created it, or — when the page saw only later
/// changes of it — whoever it first saw change it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sessions(pub BTreeMap<String, Session>);

impl Sessions {
    /// Folds one event in: a session created or updated (by the network's
    /// account: `payload.channel` is the one `mod/workspace` wrote).
    pub fn apply(&mut self, event: &Event) {
        if matches!(
            WorkspaceEventType::of(&event.event_type),
            Some(WorkspaceEventType::SessionCreated | WorkspaceEventType::SessionUpdated)
        ) && let Ok(news) = SessionUpdated::deserialize(&event.payload)
        {
            self.fold(&event.source, &news);
        }
    }

    /// Folds in what a session event says, sent by `by` (the person's own
    /// update, once accepted, too); nothing without the network's `channel`.
    pub fn fold(&mut self, by: &Address, news: &SessionUpdated) {
        let Some(channel) = &news.channel else {
            return;
        };
        self.0
            .entry(channel.clone())
            .or_insert_with(|| Session::open(by.clone()))
            .apply(news);
    }

    /// How the sidebar names a session channel: its title and status, when known.
    pub fn title_of(&self, conversation: &str) -> Option<String> {
        let info = self.0.get(conversation)?;
        let title = info
            .title
            .clone()
            .unwrap_or_else(|| conversation.trim_start_matches("channel/").to_owned());
        let title = isolate(&title);
        Some(if info.status == SessionStatus::Open {
            format!("# {title}")
        } else {
            format!("# {title} · {}", info.status.as_str())
        })
    }
}

/// The status the form's `<select>` holds (`open`, `closed`, `archived`).
pub fn status_named(name: &str) -> Option<SessionStatus> {
    SessionStatus::deserialize(serde_json::Value::from(name)).ok()
}

/// The update the form sends: the session and what changed (`None` when nothing did).
pub fn update_payload(
    channel: &str,
    title: &str,
    status: Option<SessionStatus>,
    current: &Session,
) -> Option<SessionUpdated> {
    let title = title.trim();
    let update = SessionUpdated {
        session: channel.to_owned(),
        title: (!title.is_empty() && Some(title) != current.title.as_deref())
            .then(|| title.to_owned()),
        status: status.filter(|s| *s != current.status),
        ..SessionUpdated::default()
    };
    (update.title.is_some() || update.status.is_some()).then_some(update)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentnet_core::model::payloads::Payload;
    use agentnet_core::vocabulary::event_types::{
        SESSION_CREATED as CREATED, SESSION_UPDATED as UPDATED,
    };
    use serde_json::{Value, json};

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
                info.master.as_ref().map(ToString::to_string).as_deref()
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
        let current = Session {
            title: Some("Plan".into()),
            ..Session::open("human:ann".parse().unwrap())
        };
        assert_eq!(
            update_payload(
                "channel/session-p",
                " Plan ",
                status_named("open"),
                &current
            ),
            None
        );
        assert_eq!(
            update_payload(
                "channel/session-p",
                "Launch",
                status_named("closed"),
                &current
            )
            .map(|u| u.to_json()),
            Some(json!({"session": "channel/session-p", "title": "Launch", "status": "closed"}))
        );
        assert_eq!(status_named("gone"), None);
    }
}
