//! Workspace sessions (threads, ONM §12): a session `{id}` is the channel
//! `channel/session-{id}`, with a title, a status and a master.

use crate::ids::address::Address;
use crate::ids::session_id::SessionId;
use serde::{Deserialize, Deserializer, Serialize};

/// Where a session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SessionStatus {
    /// In use (a new session is open).
    Open,
    /// Done for now; may be opened again.
    Closed,
    /// Done for good: no update changes it.
    Archived,
}

impl SessionStatus {
    /// The status as written on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
            Self::Archived => "archived",
        }
    }
}

/// What is known of a session: what `mod/workspace` keeps, and what a
/// workspace folds from the session's events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// Its title, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Open, closed or archived.
    pub status: SessionStatus,
    /// The agent that answers first in it (ONM §12: a thread-level attribute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub master: Option<Address>,
    /// Who created it.
    pub created_by: Address,
}

impl Session {
    /// A new open session, created by `created_by`.
    pub fn open(created_by: Address) -> Self {
        Self {
            title: None,
            status: SessionStatus::Open,
            master: None,
            created_by,
        }
    }

    /// Applies what a session event says (`title`, `status`, `master`).
    pub fn apply(&mut self, news: &SessionUpdated) {
        if let Some(title) = &news.title {
            self.title = Some(title.clone());
        }
        if let Some(status) = news.status {
            self.status = status;
        }
        if let Some(master) = &news.master {
            self.master = master.clone();
        }
    }
}

/// `Some(value)` for a field that is there, `null` included (`Some(None)`).
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// `workspace.session.created` as the network delivers it (it writes
/// `session`, `channel`, `status` and `master`; the sender gives `session`,
/// `title` and `master`, each optional).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionCreated {
    /// Its channel: `channel/session-{id}`.
    pub channel: String,
    /// Its master (`null`: none).
    pub master: Option<Address>,
    /// Its id.
    pub session: SessionId,
    /// `open`.
    pub status: SessionStatus,
    /// Its title, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// `workspace.session.updated`: what changed. Sent with `session` naming it
/// (`{id}`, `session-{id}` or `channel/session-{id}`); the network delivers
/// it with the plain id and `channel`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionUpdated {
    /// Its channel (written by the network).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// A new master: `Some(None)` (`null`) for none, `None` (absent) unchanged.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub master: Option<Option<Address>>,
    /// The session, as the sender named it.
    pub session: String,
    /// A new status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<SessionStatus>,
    /// A new title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl From<&SessionCreated> for SessionUpdated {
    /// A new session's payload, as the change it makes to nothing.
    fn from(created: &SessionCreated) -> Self {
        Self {
            channel: Some(created.channel.clone()),
            master: Some(created.master.clone()),
            session: created.session.to_string(),
            status: Some(created.status),
            title: created.title.clone(),
        }
    }
}
