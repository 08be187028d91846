//! The payloads of `mod/workspace`'s session requests:
//! `workspace.session.created` and `workspace.session.updated`.

use super::field::AsSent;
use crate::vocabulary::sessions::SessionStatus;
use serde::Deserialize;

/// `{session?, title?, status?, master?}`: a new session's, or a change to one.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct SessionRequest {
    /// The session: its id (`{id}`, `session-{id}`, `channel/session-{id}`).
    pub session: AsSent<String>,
    /// Its title.
    pub title: AsSent<String>,
    /// Its status.
    pub status: AsSent<SessionStatus>,
    /// Its master's address (`null`: none).
    pub master: AsSent<String>,
}
