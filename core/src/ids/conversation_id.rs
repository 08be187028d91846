//! Conversation ids: what tasks of one conversation share (A2A's
//! `contextId`, a task's `payload.context`): any non-empty text. The network
//! has always taken a requester's context as it came (its length is bounded
//! by the event's), so the id checks only that there is one; an empty
//! context is no conversation id ([`crate::model::task::Task::context`] is
//! then `None`, written `""`).

use super::text_id::text_id;
use crate::error::{Coded, ErrorCode};

/// Why a string is not a conversation id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConversationIdError {
    /// Empty string.
    #[error("conversation id is empty")]
    Empty,
}

impl Coded for ConversationIdError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidRequest
    }
}

fn check(s: &str) -> Result<(), ConversationIdError> {
    if s.is_empty() {
        Err(ConversationIdError::Empty)
    } else {
        Ok(())
    }
}

text_id!(
    /// A validated conversation id.
    ConversationId,
    ConversationIdError,
    check
);

/// Serde for an `Option<ConversationId>` written as text, `""` for none
/// (`#[serde(with = "crate::ids::conversation_id::or_empty")]`): every text
/// reads, so what was written always reads back.
pub mod or_empty {
    use super::ConversationId;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the id, or `""`.
    pub fn serialize<S: Serializer>(
        context: &Option<ConversationId>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        context
            .as_ref()
            .map_or("", ConversationId::as_str)
            .serialize(serializer)
    }

    /// Reads text: `""` is none.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<ConversationId>, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Ok(text.parse().ok())
    }
}

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
        // What a requester has always been able to name a context with.
        for taken in ["ctx-1 · plan", "a\nb", " ", &"x".repeat(300)] {
            assert_eq!(taken.parse::<ConversationId>().unwrap().as_str(), taken);
        }
    }

    proptest! {
        #[test]
        fn parse_and_serialize_round_trip(s in "\\PC{0,40}|[\\x00-\\x1f a-z]{1,8}") {
            prop_assert_eq!(s.parse::<ConversationId>().is_ok(), !s.is_empty());
            crate::ids::text_id::round_trips::<ConversationId>(&s)?;
        }
    }
}
