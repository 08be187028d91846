//! Workspace sessions (threads, ONM §12): `workspace.session.created`
//! makes one, `workspace.session.updated` renames it, changes its status or
//! its master. What their payloads must hold, who may change a session, and
//! the record `mod/workspace` keeps of each.
//!
//! A session `{id}` is the channel `channel/session-{id}`; its participants
//! are that channel's members. A session is updated by a participant, its
//! master or a master of the network; an archived session changes no more.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::{Address, Entity, Name};
use crate::ids::session_id::{
    MAX_SESSION_ID_LEN, SESSION_CHANNEL_PREFIX, SessionId, is_session_id_char,
};
use crate::ids::standing::Role;
use crate::model::requests::field::{AsSent, read};
use crate::model::requests::sessions::SessionRequest;
use crate::mods::api::Context;
use crate::vocabulary::sessions::{Session, SessionStatus};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Longest title, in characters.
pub const MAX_TITLE: usize = 200;
/// Most sessions a network keeps records of.
pub const MAX_SESSIONS: usize = 2000;

/// A validated change to a session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Change {
    /// A new title.
    pub title: Option<String>,
    /// A new status.
    pub status: Option<SessionStatus>,
    /// A new master (`Some(None)`: none).
    pub master: Option<Option<Address>>,
}

fn invalid(message: impl Into<String>) -> Rejection {
    Rejection::new(ErrorCode::InvalidRequest, message)
}

/// The id a `workspace.session.created` gives its session: `payload.session`
/// with the characters a channel name allows, else the event's id.
pub fn id_for_new(event: &Event) -> SessionId {
    let given = read::<SessionRequest>(&event.payload)
        .session
        .given()
        .unwrap_or_default();
    let cleaned: String = given
        .strip_prefix("session-")
        .unwrap_or(&given)
        .chars()
        .filter(|c| is_session_id_char(*c))
        .take(MAX_SESSION_ID_LEN)
        .collect();
    cleaned
        .parse()
        .unwrap_or_else(|_| SessionId::from(event.id))
}

fn title(value: AsSent<String>) -> Result<String, Rejection> {
    let value = value.given();
    let text = value.as_deref().map(str::trim).unwrap_or("");
    if text.is_empty() || text.chars().count() > MAX_TITLE || text.chars().any(char::is_control) {
        return Err(invalid(format!(
            "title is a text of 1 to {MAX_TITLE} characters, without control characters"
        )));
    }
    Ok(text.to_owned())
}

fn status(value: AsSent<SessionStatus>) -> Result<SessionStatus, Rejection> {
    value
        .given()
        .ok_or_else(|| invalid("status is open, closed or archived"))
}

fn master(cx: &Context<'_>, value: AsSent<String>) -> Result<Option<Address>, Rejection> {
    let Some(text) = value.checked(|| invalid("master is a member's address, or null for none"))?
    else {
        return Ok(None);
    };
    let address: Address = text
        .parse()
        .map_err(|e| Rejection::new(ErrorCode::InvalidAddress, format!("master: {e}")))?;
    if !address.is_local() || !address.entity().is_participant() {
        return Err(invalid(format!(
            "master {address} is not an agent or a person"
        )));
    }
    if !cx.state.members.contains_key(&address) {
        return Err(invalid(format!("master {address} is not a member")));
    }
    Ok(Some(address))
}

/// The session records, by id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sessions {
    /// Each session, by id.
    pub by_id: BTreeMap<SessionId, Session>,
}

impl Sessions {
    /// The session of a channel address, when it is one.
    pub fn of_channel(&self, target: &Address) -> Option<(&SessionId, &Session)> {
        let Entity::Channel(name) = target.entity() else {
            return None;
        };
        let id = name.as_str().strip_prefix(SESSION_CHANNEL_PREFIX)?;
        if !target.is_local() {
            return None;
        }
        self.by_id.get_key_value(id)
    }

    /// Checks a `workspace.session.created`: its title, status and master.
    pub fn check_created(&self, cx: &Context<'_>, event: &Event) -> Result<(), Rejection> {
        if !event.payload.is_object() {
            return Err(invalid("payload is an object"));
        }
        change_of(cx, read(&event.payload))?;
        let id = id_for_new(event);
        if self.by_id.contains_key(&id) {
            return Err(Rejection::new(
                ErrorCode::AlreadyExists,
                format!("session {id} exists: workspace.session.updated changes it"),
            ));
        }
        if self.by_id.len() >= MAX_SESSIONS {
            return Err(Rejection::new(
                ErrorCode::LimitReached,
                format!("this network keeps at most {MAX_SESSIONS} sessions"),
            ));
        }
        Ok(())
    }

    /// Checks a `workspace.session.updated`: the session exists, its sender
    /// may change it, and the change is valid. Answers the session's id and the change.
    pub fn check_updated(
        &self,
        cx: &Context<'_>,
        event: &Event,
    ) -> Result<(SessionId, Change), Rejection> {
        if !event.payload.is_object() {
            return Err(invalid("payload is an object"));
        }
        let request = read::<SessionRequest>(&event.payload);
        let id = request
            .session
            .as_text()
            .and_then(|text| SessionId::named_by(text).ok())
            .ok_or_else(|| {
                invalid("session names the session: {id}, session-{id} or channel/session-{id}")
            })?;
        let session = self
            .by_id
            .get(&id)
            .ok_or_else(|| Rejection::new(ErrorCode::NotFound, format!("no session {id}")))?;
        let who = &event.source;
        let participant = id
            .channel_name()
            .parse::<Name>()
            .ok()
            .and_then(|name| cx.state.channels.get(&name))
            .is_some_and(|channel| channel.members.contains(who));
        let allowed = participant
            || session.master.as_ref() == Some(who)
            || cx.state.role_of(who) == Some(Role::Master);
        if !allowed {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!("{who} is not a participant of session {id}, its master or a master"),
            ));
        }
        let change = change_of(cx, request)?;
        if change == Change::default() {
            return Err(invalid("an update changes title, status or master"));
        }
        if session.status == SessionStatus::Archived {
            return Err(Rejection::new(
                ErrorCode::InvalidTransition,
                format!("session {id} is archived: it changes no more"),
            ));
        }
        Ok((id, change))
    }

    /// Records a new session (after the event was accepted).
    pub fn create(&mut self, id: SessionId, event: &Event, master: Option<Address>) {
        let title = read::<SessionRequest>(&event.payload)
            .title
            .if_sent()
            .and_then(|t| title(t).ok());
        self.by_id.insert(
            id,
            Session {
                title,
                status: SessionStatus::Open,
                master,
                created_by: event.source.clone(),
            },
        );
    }

    /// Applies an accepted change.
    pub fn update(&mut self, id: &SessionId, change: Change) {
        if let Some(session) = self.by_id.get_mut(id) {
            if let Some(title) = change.title {
                session.title = Some(title);
            }
            if let Some(status) = change.status {
                session.status = status;
            }
            if let Some(master) = change.master {
                session.master = master;
            }
        }
    }
}

/// The change `request` asks for, each field it sends checked in turn.
fn change_of(cx: &Context<'_>, request: SessionRequest) -> Result<Change, Rejection> {
    Ok(Change {
        title: request.title.if_sent().map(title).transpose()?,
        status: request.status.if_sent().map(status).transpose()?,
        master: request
            .master
            .if_sent()
            .map(|m| master(cx, m))
            .transpose()?,
    })
}
