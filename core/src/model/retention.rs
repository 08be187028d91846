//! How long a network keeps what it stores: its `retention` configuration.
//!
//! Storage would otherwise only grow. Three things are kept for a time:
//!
//! * **Undelivered events.** Without `mod/persistence` the log holds an event
//!   only until every member it is owed to has acknowledged it; one still owed
//!   (its member offline) is kept at most [`Retention::undelivered_ms`]
//!   (7 days by default), then that member's catch-up goes on without it.
//! * **History.** With `mod/persistence` events are history, kept for
//!   [`Retention::history_ms`] and at most [`Retention::history_events`]
//!   (both unbounded by default), and never before they are delivered or
//!   their undelivered time is over.
//! * **Idle members.** A member offline for [`Retention::idle_member_ms`]
//!   (90 days by default) that holds nothing (no master role, resource,
//!   channel it created, group, invitation, task, A2A remote) is removed and its
//!   address is free again, but only once nothing addressed to it can be left
//!   in the log: never while history is kept without a time limit.
//!
//! Expired invitations are removed too. The network's engine decides what to
//! prune (`crate::network::log::retention`); hosts delete what it names.

use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};

/// One day, in milliseconds.
pub const DAY_MS: u64 = 24 * 3600 * 1000;
/// The default [`Retention::undelivered_ms`]: 7 days.
pub const DEFAULT_UNDELIVERED_MS: u64 = 7 * DAY_MS;
/// The default [`Retention::idle_member_ms`]: 90 days.
pub const DEFAULT_IDLE_MEMBER_MS: u64 = 90 * DAY_MS;
/// The shortest window a network may set (tests use short ones).
pub const MIN_WINDOW_MS: u64 = 1_000;

fn default_undelivered() -> u64 {
    DEFAULT_UNDELIVERED_MS
}

fn default_idle_member() -> Option<u64> {
    Some(DEFAULT_IDLE_MEMBER_MS)
}

/// A network's retention (the `retention` object of its configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retention {
    /// History (`mod/persistence`) is kept this long; `None`: for ever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_ms: Option<u64>,
    /// At most this many events of history are kept, the newest; `None`: no cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_events: Option<u64>,
    /// An event still owed to a member is kept this long at most.
    #[serde(default = "default_undelivered")]
    pub undelivered_ms: u64,
    /// A member offline this long that holds nothing is removed; `None`: never.
    #[serde(default = "default_idle_member")]
    pub idle_member_ms: Option<u64>,
}

impl Default for Retention {
    fn default() -> Self {
        Self {
            history_ms: None,
            history_events: None,
            undelivered_ms: DEFAULT_UNDELIVERED_MS,
            idle_member_ms: default_idle_member(),
        }
    }
}

impl Retention {
    /// The same retention with every window at least [`MIN_WINDOW_MS`] and
    /// the history cap at least one event.
    pub fn clamped(self) -> Self {
        Self {
            history_ms: self.history_ms.map(|ms| ms.max(MIN_WINDOW_MS)),
            history_events: self.history_events.map(|n| n.max(1)),
            undelivered_ms: self.undelivered_ms.max(MIN_WINDOW_MS),
            idle_member_ms: self.idle_member_ms.map(|ms| ms.max(MIN_WINDOW_MS)),
        }
    }

    /// The longest an event of the log can stay, when it is bounded:
    /// undelivered time, and the history window when history is kept.
    pub fn longest_event_stay(&self, keeps_history: bool) -> Option<u64> {
        if keeps_history {
            // A capped history with no time limit can keep an event for ever.
            self.history_ms.map(|h| h.max(self.undelivered_ms))
        } else {
            Some(self.undelivered_ms)
        }
    }

    /// How long an idle member waits before it is removed, when it ever is:
    /// its idle time, and never less than an event addressed to it can stay.
    pub fn member_removal_after(&self, keeps_history: bool) -> Option<u64> {
        let idle = self.idle_member_ms?;
        Some(idle.max(self.longest_event_stay(keeps_history)?))
    }

    /// How often the network prunes: an eighth of its shortest window,
    /// between one second and one hour.
    pub fn prune_every_ms(&self) -> u64 {
        [
            Some(self.undelivered_ms),
            self.history_ms,
            self.idle_member_ms,
        ]
        .into_iter()
        .flatten()
        .min()
        .map_or(3_600_000, |w| w / 8)
        .clamp(MIN_WINDOW_MS, 3_600_000)
    }
}

/// Marks kept at most: older ones are thinned out, which only prunes later.
pub const MAX_MARKS: usize = 256;

/// What the network knows of its log's age and how far it has pruned it,
/// kept as one row: `(time, seq)` marks taken at each pruning run, so the
/// `seq` below which every event is older than a window is known without
/// reading the log.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogMarks {
    /// `(time, last seq then)`, oldest first.
    pub marks: Vec<(Timestamp, u64)>,
    /// Events without history up to this `seq` are gone.
    pub transient_through: u64,
    /// History up to this `seq` is gone.
    pub history_through: u64,
    /// When pruning last ran (the epoch: never).
    pub last_run: Timestamp,
}

impl LogMarks {
    /// Records that the log reached `last_seq` at `now` (once per new `seq`).
    pub fn mark(&mut self, now: Timestamp, last_seq: u64) {
        if self.marks.last().is_some_and(|&(_, seq)| seq >= last_seq) {
            return;
        }
        self.marks.push((now, last_seq));
        if self.marks.len() > MAX_MARKS {
            // Thin the older half: every other mark goes.
            let half = self.marks.len() / 2;
            let mut index = 0;
            self.marks.retain(|_| {
                index += 1;
                index > half || index % 2 == 1
            });
        }
    }

    /// The highest `seq` logged at or before `time` (0 when none is known to be).
    pub fn seq_at_or_before(&self, time: Timestamp) -> u64 {
        self.marks
            .iter()
            .take_while(|&&(at, _)| at <= time)
            .last()
            .map_or(0, |&(_, seq)| seq)
    }

    /// Forgets marks older than `time` but the newest of them, which still
    /// answers [`Self::seq_at_or_before`] for any later time.
    pub fn forget_before(&mut self, time: Timestamp) {
        let older = self.marks.iter().take_while(|&&(at, _)| at < time).count();
        if older > 1 {
            self.marks.drain(..older - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_tell_which_seq_is_older_than_a_time() {
        let at = Timestamp::from_millis;
        let mut marks = LogMarks::default();
        marks.mark(at(1_000), 5);
        marks.mark(at(2_000), 5); // no new seq: no mark
        marks.mark(at(3_000), 9);
        assert_eq!(marks.marks, vec![(at(1_000), 5), (at(3_000), 9)]);
        assert_eq!(marks.seq_at_or_before(at(999)), 0);
        assert_eq!(marks.seq_at_or_before(at(2_999)), 5);
        assert_eq!(marks.seq_at_or_before(at(5_000)), 9);
        marks.forget_before(at(4_000));
        assert_eq!(marks.marks, vec![(at(3_000), 9)]);
        assert_eq!(marks.seq_at_or_before(at(5_000)), 9);
    }

    #[test]
    fn thinning_keeps_marks_bounded_and_only_ever_answers_lower() {
        let at = Timestamp::from_millis;
        let mut marks = LogMarks::default();
        let mut full = LogMarks::default();
        for i in 1..=2_000u64 {
            marks.mark(at(i * 10), i);
            full.marks.push((at(i * 10), i));
        }
        assert!(marks.marks.len() <= MAX_MARKS);
        assert_eq!(marks.marks.last(), Some(&(at(20_000), 2_000)));
        for time in (0..21_000).step_by(77) {
            assert!(marks.seq_at_or_before(at(time)) <= full.seq_at_or_before(at(time)));
        }
    }

    #[test]
    fn a_missing_retention_keeps_history_for_ever_and_undelivered_a_week() {
        let retention: Retention = serde_json::from_str("{}").unwrap();
        assert_eq!(retention, Retention::default());
        assert_eq!(retention.undelivered_ms, 7 * DAY_MS);
        assert_eq!(retention.history_ms, None);
        assert_eq!(retention.longest_event_stay(true), None);
        assert_eq!(retention.longest_event_stay(false), Some(7 * DAY_MS));
    }

    #[test]
    fn members_are_never_removed_while_history_is_kept_for_ever() {
        let retention = Retention::default();
        assert_eq!(retention.member_removal_after(true), None);
        assert_eq!(retention.member_removal_after(false), Some(90 * DAY_MS));
        let explicit: Retention = serde_json::from_str(r#"{"idle_member_ms": null}"#).unwrap();
        assert_eq!(explicit.member_removal_after(false), None);
    }

    #[test]
    fn a_member_outlives_every_event_addressed_to_it() {
        let retention = Retention {
            history_ms: Some(200 * DAY_MS),
            ..Retention::default()
        };
        assert_eq!(retention.member_removal_after(true), Some(200 * DAY_MS));
        assert_eq!(retention.member_removal_after(false), Some(90 * DAY_MS));
    }

    #[test]
    fn windows_are_clamped_and_pruning_runs_often_enough() {
        let tiny = Retention {
            history_ms: Some(1),
            history_events: Some(0),
            undelivered_ms: 0,
            idle_member_ms: Some(5),
        }
        .clamped();
        assert_eq!(tiny.history_ms, Some(MIN_WINDOW_MS));
        assert_eq!(tiny.history_events, Some(1));
        assert_eq!(tiny.undelivered_ms, MIN_WINDOW_MS);
        assert_eq!(tiny.prune_every_ms(), MIN_WINDOW_MS);
        assert_eq!(Retention::default().prune_every_ms(), 3_600_000);
        let short = Retention {
            undelivered_ms: 16_000,
            ..Retention::default()
        };
        assert_eq!(short.prune_every_ms(), 2_000);
    }
}
