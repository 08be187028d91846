//! Tasks given to the agent (AIP `task.create`, A2A `message/send`): the
//! task's message becomes the prompt of a turn in the task's own
//! conversation ([`Place::task`]); the answer completes the task (the host
//! makes it an artifact), a failure fails it, and the model's `ask_user`
//! calls become `input-required` questions ([`crate::agent::ask`]).

use crate::agent::chat::Entry;
use crate::agent::effects::AgentEffect;
use crate::agent::rules::Place;
use crate::agent::turn::{Agent, Turn};
use crate::ids::address::Address;
use crate::ids::time::Timestamp;

/// The longest task message sent to the model, in characters.
const MAX_TASK_TEXT: usize = 32 * 1024;

impl Agent {
    /// The task `task` from `requester` with the message `text`: starts a
    /// turn for it, unless one is under way for the same task.
    pub fn handle_task(
        &mut self,
        task: &str,
        requester: &Address,
        text: &str,
        now: Timestamp,
    ) -> Vec<AgentEffect> {
        let place = Place::task(requester.clone(), task.to_owned());
        if self.turns.contains_key(&place) {
            return Vec::new();
        }
        let text: String = text.chars().take(MAX_TASK_TEXT).collect();
        let entries = vec![Entry::User {
            text: format!("{requester}: {text}"),
        }];
        self.turns.insert(place.clone(), Turn::new(entries, None));
        self.call_model(place, now)
    }
}
