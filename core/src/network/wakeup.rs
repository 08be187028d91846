//! When the network next needs its host's alarm, cheap enough to ask after
//! every drain of frames.
//!
//! [`Network::next_wakeup`] is exact but looks at every online member and
//! every member's deliveries, so a host that asks after each drain pays
//! members × drains. [`Network::wakeup_bound`] answers from floors ([`Floor`]) kept
//! as the deadlines are set: a time no later than the next wakeup, at most
//! early. An early alarm costs one [`Network::on_alarm`] that finds little to
//! do and sets the floors exactly again ([`Network::refresh_wakeup`]); a late
//! one would be a member never redelivered to or never marked offline, so
//! the floors are lowered wherever such a deadline is set, and in tests every
//! exact [`Network::next_wakeup`] checks that the bound is not later.

use super::engine::Network;
use super::floor::Floor;
use crate::ids::time::Timestamp;
use crate::network::delivery::tracker::{Tracker, redelivery_at};

impl Tracker {
    /// When the network next needs the host to call `on_alarm`.
    pub fn next_wakeup(&self) -> Option<Timestamp> {
        [self.redelivery_deadline(), self.page_due()]
            .into_iter()
            .flatten()
            .min()
    }

    /// [`Self::next_wakeup`] from the redelivery floor: no later, maybe earlier.
    pub fn wakeup_bound(&self) -> Option<Timestamp> {
        [self.redelivery_floor.get(), self.page_due()]
            .into_iter()
            .flatten()
            .min()
    }

    /// Sets the redelivery floor exactly.
    pub fn refresh_floor(&mut self) {
        self.redelivery_floor = Floor::exact(self.redelivery_deadline());
    }

    fn redelivery_deadline(&self) -> Option<Timestamp> {
        let since = self.progress.values().filter_map(|p| p.unacked_since);
        since.min().map(redelivery_at)
    }

    fn page_due(&self) -> Option<Timestamp> {
        self.catching_up
            .values()
            .filter(|c| !c.reading)
            .filter_map(|c| c.next_read_at)
            .min()
    }
}

impl Network {
    /// A time no later than [`Self::next_wakeup`], without looking at every
    /// member: what a host that asks after every drain should ask. It may be
    /// earlier than needed, never later.
    pub fn wakeup_bound(&self) -> Option<Timestamp> {
        self.earliest_wakeup(self.tracker.wakeup_bound(), self.presence_floor.get())
    }

    /// The earliest of the deliveries' and presence's times (exact, or
    /// bounds) and the network's own timers: pushes, pruning, verdicts due.
    pub(super) fn earliest_wakeup(
        &self,
        deliveries: Option<Timestamp>,
        presence: Option<Timestamp>,
    ) -> Option<Timestamp> {
        [
            deliveries,
            presence,
            self.next_push(),
            self.next_prune(),
            self.next_verdict_due(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Sets the floors exactly (after an alarm, a restore, a new configuration).
    pub(super) fn refresh_wakeup(&mut self) {
        self.tracker.refresh_floor();
        self.presence_floor = Floor::exact(self.presence_deadline());
    }

    /// The earliest time an online member goes offline unless it is heard from.
    pub(super) fn presence_deadline(&self) -> Option<Timestamp> {
        self.state
            .members
            .values()
            .filter(|m| m.is_online())
            .map(|m| m.last_seen.plus_millis(self.config.presence_timeout_ms))
            .min()
    }

    /// A member was seen online at `now`: it goes offline at the presence timeout from then.
    pub(super) fn seen_online(&mut self, now: Timestamp) {
        self.presence_floor
            .lower(now.plus_millis(self.config.presence_timeout_ms));
    }

    /// In tests: the bound is never later than the exact wakeup `exact`.
    #[cfg(test)]
    pub(super) fn check_wakeup_bound(&self, exact: Option<Timestamp>) {
        if let Some(exact) = exact {
            let bound = self.wakeup_bound();
            assert!(
                bound.is_some_and(|bound| bound <= exact),
                "the wakeup bound {bound:?} is later than the next wakeup {exact} \
                 (tracker: bound {:?}, exact {:?}; presence: floor {:?}, exact {:?})",
                self.tracker.wakeup_bound(),
                self.tracker.next_wakeup(),
                self.presence_floor,
                self.presence_deadline()
            );
        }
    }
}
