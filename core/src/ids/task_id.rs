//! Task ids: a task's id is the id of the `task.create` event that made it
//! (a ULID); an id from elsewhere (an A2A partner's) is 1 to
//! [`MAX_TASK_ID_LEN`] visible ASCII characters.

use super::text_id::{first_outside, text_id};
use crate::error::{Coded, ErrorCode};
use crate::ids::ulid::EventId;

/// Longest task id, in bytes.
pub const MAX_TASK_ID_LEN: usize = 128;

/// Why a string is not a task id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskIdError {
    /// Empty string.
    #[error("task id is empty")]
    Empty,
    /// Longer than [`MAX_TASK_ID_LEN`].
    #[error("task id is longer than {MAX_TASK_ID_LEN} characters")]
    TooLong,
    /// A space, control or non-ASCII character.
    #[error("task id may contain only visible ASCII characters, found {0:?}")]
    Character(char),
}

impl Coded for TaskIdError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidRequest
    }
}

fn check(s: &str) -> Result<(), TaskIdError> {
    if s.is_empty() {
        return Err(TaskIdError::Empty);
    }
    if s.len() > MAX_TASK_ID_LEN {
        return Err(TaskIdError::TooLong);
    }
    match first_outside(s, |c| c.is_ascii_graphic()) {
        Some(bad) => Err(TaskIdError::Character(bad)),
        None => Ok(()),
    }
}

text_id!(
    /// A validated task id.
    TaskId,
    TaskIdError,
    check
);

impl From<EventId> for TaskId {
    /// The id of the task the `task.create` event `id` made.
    fn from(id: EventId) -> Self {
        Self(std::rc::Rc::from(id.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rejects_with_reason() {
        assert_eq!("".parse::<TaskId>(), Err(TaskIdError::Empty));
        assert_eq!("a b".parse::<TaskId>(), Err(TaskIdError::Character(' ')));
        assert_eq!("é".parse::<TaskId>(), Err(TaskIdError::Character('é')));
        assert_eq!("x".repeat(129).parse::<TaskId>(), Err(TaskIdError::TooLong));
        let id = EventId::from_parts(1, 2);
        assert_eq!(TaskId::from(id).as_str(), id.to_string());
    }

    proptest! {
        #[test]
        fn parse_and_serialize_round_trip(s in "\\PC{0,140}") {
            crate::ids::text_id::round_trips::<TaskId>(&s)?;
        }
    }
}
