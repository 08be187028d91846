//! The queue of push notifications (`crate::model::push`) as the host sees
//! it: what is due, and what became of each attempt.
//!
//! [`secrets`], in this folder, keeps a `task.push`'s token and credentials
//! apart from every mod.

pub(super) mod secrets;

use crate::ids::time::Timestamp;
use crate::model::push::{PendingPush, Settled};
use crate::model::state::{Row, RowKind};
use crate::network::effects::Effect;
use crate::network::engine::Network;

impl Network {
    /// When the next queued notification is due, if any.
    pub(crate) fn next_push(&self) -> Option<Timestamp> {
        self.state.pushes.values().map(|p| p.next_at).min()
    }

    /// The notifications due at `now`, held back from another attempt for
    /// [`IN_FLIGHT_MS`](crate::model::push::IN_FLIGHT_MS) while the host sends them; with the rows to store.
    /// The host reports each outcome with the notification as taken here.
    pub fn take_due_pushes(&mut self, now: Timestamp) -> (Vec<PendingPush>, Vec<Effect>) {
        let mut due = Vec::new();
        let mut effects = Vec::new();
        for pending in self.state.pushes.values_mut().filter(|p| p.next_at <= now) {
            pending.take(now);
            due.push(pending.clone());
            effects.push(Effect::Store(Row::Push(pending.clone())));
        }
        (due, effects)
    }

    /// True while `sent` (as [`Self::take_due_pushes`] gave it) may still go
    /// out at `now` ([`PendingPush::holds`]).
    pub fn push_held(&self, sent: &PendingPush, now: Timestamp) -> bool {
        self.state
            .pushes
            .get(&sent.key)
            .is_some_and(|pending| pending.holds(sent, now))
    }

    /// The notification `sent` (as [`Self::take_due_pushes`] gave it) was
    /// delivered at `now` (or can never be: its task or target is gone).
    /// A change queued while it was sent stays, and is due now.
    pub fn push_done(&mut self, sent: &PendingPush, now: Timestamp) -> Vec<Effect> {
        self.push_settled(sent, true, now)
    }

    /// The notification `sent` failed at `now`: it is tried again after the
    /// backoff, or dropped after [`MAX_ATTEMPTS`](crate::model::push::MAX_ATTEMPTS); a change queued while it
    /// was sent is due now instead.
    pub fn push_failed(&mut self, sent: &PendingPush, now: Timestamp) -> Vec<Effect> {
        self.push_settled(sent, false, now)
    }

    fn push_settled(&mut self, sent: &PendingPush, delivered: bool, now: Timestamp) -> Vec<Effect> {
        let Some(pending) = self.state.pushes.get_mut(&sent.key) else {
            return Vec::new();
        };
        match pending.settle(sent, delivered, now) {
            Settled::Done => {
                self.state.pushes.remove(&sent.key);
                vec![Effect::Remove {
                    kind: RowKind::Push,
                    key: sent.key.clone(),
                }]
            }
            Settled::Changed => vec![Effect::Store(Row::Push(pending.clone()))],
            Settled::Unchanged => Vec::new(),
        }
    }
}
