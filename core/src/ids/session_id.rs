//! Session ids: the `{id}` of a workspace session, whose channel is
//! `channel/session-{id}` (1 to [`MAX_SESSION_ID_LEN`] characters of
//! `A-Z a-z 0-9 - _ .`).

use super::text_id::{first_outside, text_id};
use crate::error::{Coded, ErrorCode};
use crate::ids::ulid::EventId;

/// Longest session id, in characters.
pub const MAX_SESSION_ID_LEN: usize = 64;
/// The channel-name prefix of a session's channel.
pub const SESSION_CHANNEL_PREFIX: &str = "session-";

/// Why a string is not a session id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionIdError {
    /// Empty string.
    #[error("session id is empty")]
    Empty,
    /// Longer than [`MAX_SESSION_ID_LEN`].
    #[error("session id is longer than {MAX_SESSION_ID_LEN} characters")]
    TooLong,
    /// A character other than `A-Z a-z 0-9 - _ .`.
    #[error("session id may contain only letters, digits, '-', '_' and '.', found {0:?}")]
    Character(char),
}

impl Coded for SessionIdError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidRequest
    }
}

/// True for the characters a session id (and so a channel name) may hold.
pub fn is_session_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

fn check(s: &str) -> Result<(), SessionIdError> {
    if s.is_empty() {
        return Err(SessionIdError::Empty);
    }
    if s.chars().count() > MAX_SESSION_ID_LEN {
        return Err(SessionIdError::TooLong);
    }
    match first_outside(s, is_session_id_char) {
        Some(bad) => Err(SessionIdError::Character(bad)),
        None => Ok(()),
    }
}

text_id!(
    /// A validated session id.
    SessionId,
    SessionIdError,
    check
);

impl SessionId {
    /// The session `text` names: `{id}`, `session-{id}` or `channel/session-{id}`.
    pub fn named_by(text: &str) -> Result<Self, SessionIdError> {
        let id = text.strip_prefix("channel/").unwrap_or(text);
        id.strip_prefix(SESSION_CHANNEL_PREFIX)
            .unwrap_or(id)
            .parse()
    }

    /// The name of its channel: `session-{id}`.
    pub fn channel_name(&self) -> String {
        format!("{SESSION_CHANNEL_PREFIX}{self}")
    }

    /// The address of its channel: `channel/session-{id}`.
    pub fn channel_address(&self) -> String {
        format!("channel/{SESSION_CHANNEL_PREFIX}{self}")
    }
}

impl From<EventId> for SessionId {
    /// The id a new session takes from its event when it names none: the
    /// event id in lowercase (26 letters and digits, a valid id).
    fn from(id: EventId) -> Self {
        Self(std::rc::Rc::from(id.to_string().to_ascii_lowercase()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rejects_with_reason() {
        assert_eq!("".parse::<SessionId>(), Err(SessionIdError::Empty));
        assert_eq!(
            "a b".parse::<SessionId>(),
            Err(SessionIdError::Character(' '))
        );
        assert_eq!(
            "x".repeat(65).parse::<SessionId>(),
            Err(SessionIdError::TooLong)
        );
        assert!(serde_json::from_str::<SessionId>("\"a/b\"").is_err());
        assert_eq!(
            SessionIdError::Empty.code().as_str(),
            "invalid_request",
            "a bad session id is the invalid request it always was"
        );
    }

    #[test]
    fn a_session_is_named_by_its_id_or_channel() {
        for text in ["plan", "session-plan", "channel/session-plan"] {
            let id = SessionId::named_by(text).unwrap();
            assert_eq!(id.as_str(), "plan");
            assert_eq!(id.channel_address(), "channel/session-plan");
        }
        assert!(SessionId::named_by("channel/session-").is_err());
    }

    proptest! {
        #[test]
        fn parse_and_serialize_round_trip(s in "\\PC{0,70}") {
            crate::ids::text_id::round_trips::<SessionId>(&s)?;
        }

        #[test]
        fn valid_ids_parse(s in "[A-Za-z0-9._-]{1,64}") {
            let id = s.parse::<SessionId>().unwrap();
            prop_assert_eq!(id.as_str(), s.as_str());
        }
    }
}
