//! The payloads of `mod/workspace`'s session requests:
//! `workspace.session.created` and `workspace.session.updated`.

use super::field::request_types;
use crate::vocabulary::sessions::SessionStatus;

request_types! {
    /// `{session?, title?, status?, master?}`: a new session's, or a change to one.
    pub struct SessionRequest {
        /// The session: its id (`{id}`, `session-{id}`, `channel/session-{id}`).
        session: String,
        /// Its title.
        title: String,
        /// Its status.
        status: SessionStatus,
        /// Its master's address (`null`: none).
        master: String,
    }
}
