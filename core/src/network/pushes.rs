//! The queue of push notifications (`crate::model::push`) as the host sees
//! it: what is due, and what became of each attempt.

use crate::model::push::{IN_FLIGHT_MS, MAX_ATTEMPTS, PendingPush, backoff};
use crate::model::state::{Row, RowKind};
use crate::network::effects::Effect;
use crate::network::engine::Network;

impl Network {
    /// When the next queued notification is due, if any.
    pub(crate) fn next_push(&self) -> Option<u64> {
        self.state.pushes.values().map(|p| p.next_at).min()
    }

    /// The notifications due at `now`, held back from another attempt for
    /// [`IN_FLIGHT_MS`] while the host sends them; with the rows to store.
    pub fn take_due_pushes(&mut self, now: u64) -> (Vec<PendingPush>, Vec<Effect>) {
        let mut due = Vec::new();
        let mut effects = Vec::new();
        for pending in self.state.pushes.values_mut().filter(|p| p.next_at <= now) {
            due.push(pending.clone());
            pending.next_at = now.saturating_add(IN_FLIGHT_MS);
            effects.push(Effect::Store(Row::Push(pending.clone())));
        }
        (due, effects)
    }

    /// A notification was delivered (or can never be: its task or target is gone).
    pub fn push_done(&mut self, key: &str) -> Vec<Effect> {
        match self.state.pushes.remove(key) {
            Some(_) => vec![Effect::Remove {
                kind: RowKind::Push,
                key: key.to_owned(),
            }],
            None => Vec::new(),
        }
    }

    /// A notification failed at `now`: it is tried again after the backoff,
    /// or dropped after [`MAX_ATTEMPTS`].
    pub fn push_failed(&mut self, key: &str, now: u64) -> Vec<Effect> {
        let Some(pending) = self.state.pushes.get_mut(key) else {
            return Vec::new();
        };
        pending.attempts += 1;
        if pending.attempts >= MAX_ATTEMPTS {
            return self.push_done(key);
        }
        pending.next_at = now.saturating_add(backoff(pending.attempts - 1));
        vec![Effect::Store(Row::Push(pending.clone()))]
    }
}
