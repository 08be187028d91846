//! Conversation ids: what tasks of one conversation share (A2A's
//! `contextId`): 1 to [`MAX_CONVERSATION_ID_LEN`] bytes of text without
//! control characters.

use super::text_id::{first_outside, text_id};
use crate::error::{Coded, ErrorCode};

/// Longest conversation id, in bytes.
pub const MAX_CONVERSATION_ID_LEN: usize = 256;

/// Why a string is not a conversation id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConversationIdError {
    /// Empty string.
    #[error("conversation id is empty")]
    Empty,
    /// Longer than [`MAX_CONVERSATION_ID_LEN`].
    #[error("conversation id is longer than {MAX_CONVERSATION_ID_LEN} bytes")]
    TooLong,
    /// A control character.
    #[error("conversation id has a control character {0:?}")]
    Character(char),
}

impl Coded for ConversationIdError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidRequest
    }
}

fn check(s: &str) -> Result<(), ConversationIdError> {
    if s.is_empty() {
        return Err(ConversationIdError::Empty);
    }
    if s.len() > MAX_CONVERSATION_ID_LEN {
        return Err(ConversationIdError::TooLong);
    }
    match first_outside(s, |c| !c.is_control()) {
        Some(bad) => Err(ConversationIdError::Character(bad)),
        None => Ok(()),
    }
}

text_id!(
    /// A validated conversation id.
    ConversationId,
    ConversationIdError,
    check
);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rejects_with_reason() {
        assert_eq!(
            "".parse::<ConversationId>(),
            Err(ConversationIdError::Empty)
        );
        assert_eq!(
            "a\nb".parse::<ConversationId>(),
            Err(ConversationIdError::Character('\n'))
        );
        assert_eq!(
            "x".repeat(257).parse::<ConversationId>(),
            Err(ConversationIdError::TooLong)
        );
        assert!("ctx-1 · plan".parse::<ConversationId>().is_ok());
    }

    proptest! {
        #[test]
        fn parse_and_serialize_round_trip(s in "\\PC{0,40}|[\\x00-\\x1f a-z]{1,8}") {
            match s.parse::<ConversationId>() {
                Ok(id) => {
                    prop_assert_eq!(id.to_string(), s.clone());
                    let json = serde_json::to_string(&id).unwrap();
                    prop_assert_eq!(serde_json::from_str::<ConversationId>(&json).unwrap(), id);
                }
                Err(_) => {
                    let json = serde_json::to_string(&s).unwrap();
                    prop_assert!(serde_json::from_str::<ConversationId>(&json).is_err());
                }
            }
        }
    }
}
