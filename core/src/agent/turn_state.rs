//! A turn under way in one conversation: what the model has been told,
//! the call and tools it waits for, and the steps taken.

use crate::agent::chat::{Entry, ToolCall};
use crate::agent::effects::{RequestId, Step};
use crate::agent::providers::Decoder;
use crate::agent::sse::SseReader;
use crate::ids::ulid::EventId;

/// A turn under way in one conversation.
#[derive(Debug)]
pub(crate) struct Turn {
    pub(super) entries: Vec<Entry>,
    pub(super) rounds: u32,
    pub(super) request: Option<RequestId>,
    pub(super) reader: SseReader,
    /// Bytes of the current stream read so far.
    pub(super) received: usize,
    pub(super) decoder: Option<Decoder>,
    pub(super) pending: Vec<ToolCall>,
    /// The tools called so far, shown under the answer.
    pub(super) steps: Vec<Step>,
    /// The message the turn answers (none for a task).
    pub(super) trigger: Option<EventId>,
    /// A message addressed to the agent that arrived during the turn.
    pub(super) again: Option<EventId>,
}

impl Turn {
    /// A turn that starts from `entries`, answering `trigger`.
    pub(super) fn new(entries: Vec<Entry>, trigger: Option<EventId>) -> Self {
        Self {
            entries,
            rounds: 0,
            request: None,
            reader: SseReader::default(),
            received: 0,
            decoder: None,
            pending: Vec::new(),
            steps: Vec::new(),
            trigger,
            again: None,
        }
    }
}
