//! Push notifications of task changes (A2A's `PushNotificationConfig`):
//! where a task's requester wants them, and the ones waiting to be sent.
//!
//! A change of a task with push targets queues one [`PendingPush`] per
//! target (a newer change replaces a queued one: the notification carries
//! the task as it is when sent). The host sends what is due from its alarm;
//! a failure is retried after [`backoff`] until [`MAX_ATTEMPTS`].
//!
//! Each notification names the change it carries ([`PendingPush::generation`])
//! and the one being sent ([`PendingPush::sending`]), so an outcome the host
//! reports is the outcome of that send: a newer change queued meanwhile is
//! neither removed by an older send's success nor sent before that send
//! ends (a target gets the task's versions in order, the last one at least
//! once).

use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};

/// Most push targets one task has.
pub const MAX_TARGETS: usize = 4;
/// Attempts before a notification is dropped.
pub const MAX_ATTEMPTS: u32 = 6;
/// How long a notification being sent is held back from another attempt.
pub const IN_FLIGHT_MS: u64 = 30_000;

/// Where to send a task's notifications.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushTarget {
    /// Its id within the task.
    pub id: String,
    /// The URL notifications are POSTed to.
    pub url: String,
    /// The client's token: sent back as `X-A2A-Notification-Token` and the
    /// key of the body's HMAC-SHA256 signature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// `Authorization: {scheme} {credentials}` for the receiver, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
    /// See `scheme`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credentials: Option<String>,
    /// The A2A generation of the body: `1.0` or `0.3`.
    pub version: String,
    /// Who set it.
    pub owner: Address,
}

/// A notification waiting to be sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingPush {
    /// `{task}/{target}`.
    pub key: String,
    /// The task.
    pub task: String,
    /// The target's id.
    pub target: String,
    /// Failed attempts so far.
    pub attempts: u32,
    /// When to try; while it is being sent, when the host's send counts as
    /// lost and it is tried again.
    pub next_at: Timestamp,
    /// The change it carries: the `seq` of the task's change that queued it,
    /// above every earlier notification of the target's.
    #[serde(default)]
    pub generation: u64,
    /// The generation the host is sending, until its outcome or `next_at`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sending: Option<u64>,
}

impl PendingPush {
    /// A notification of change `generation` of `task` to `target`, due at `now`.
    pub fn new(task: &str, target: &str, generation: u64, now: Timestamp) -> Self {
        Self {
            key: format!("{task}/{target}"),
            task: task.to_owned(),
            target: target.to_owned(),
            attempts: 0,
            next_at: now,
            generation,
            sending: None,
        }
    }

    /// Replaced by change `generation` at `now`: due at once with no failed
    /// attempt, unless an earlier change is being sent — then when that send
    /// ends (or counts as lost), so it cannot overtake it.
    pub fn replace(&mut self, generation: u64, now: Timestamp) {
        self.generation = generation.max(self.generation.saturating_add(1));
        self.attempts = 0;
        if self.sending.is_none() {
            self.next_at = now;
        }
    }

    /// Taken by the host at `now` to be sent: held for [`IN_FLIGHT_MS`].
    pub fn take(&mut self, now: Timestamp) {
        self.sending = Some(self.generation);
        self.next_at = now.plus_millis(IN_FLIGHT_MS);
    }

    /// True while the send of `sent` (as the host took it) is the one this
    /// notification waits for at `now`: its hold has not ended. A host that
    /// sends one after another checks it before each, so a send that
    /// counted as lost never goes out late, after a newer one.
    pub fn holds(&self, sent: &PendingPush, now: Timestamp) -> bool {
        self.sending == Some(sent.generation) && now < self.next_at
    }

    /// What the outcome of sending `sent` (as the host took it) at `now`
    /// leaves of this notification.
    pub fn settle(&mut self, sent: &PendingPush, delivered: bool, now: Timestamp) -> Settled {
        let current = sent.generation == self.generation;
        if delivered && current {
            return Settled::Done;
        }
        if self.sending != Some(sent.generation) {
            // A send that counted as lost: another was taken since.
            return Settled::Unchanged;
        }
        self.sending = None;
        if !current {
            // A newer change waited for this send: its turn now.
            self.next_at = now;
            return Settled::Changed;
        }
        self.attempts += 1;
        if self.attempts >= MAX_ATTEMPTS {
            return Settled::Done;
        }
        self.next_at = now.plus_millis(backoff(self.attempts - 1));
        Settled::Changed
    }
}

/// What an outcome leaves of a queued notification ([`PendingPush::settle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// Nothing more to send: delivered, or dropped after [`MAX_ATTEMPTS`].
    Done,
    /// Changed: it is stored again.
    Changed,
    /// The outcome changes nothing.
    Unchanged,
}

/// The wait after `attempts` failures: 1 s, doubling, at most 5 minutes.
pub const fn backoff(attempts: u32) -> u64 {
    let shift = if attempts > 9 { 9 } else { attempts };
    let wait = 1_000u64 << shift;
    if wait > 300_000 { 300_000 } else { wait }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_five_minutes() {
        let waits: Vec<u64> = (0..12).map(backoff).collect();
        assert_eq!(&waits[..4], &[1_000, 2_000, 4_000, 8_000]);
        assert!(waits.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(waits[11], 300_000);
    }

    /// Generation 5 queued at 0 and taken at 10; generation 7 queued at 20.
    fn replaced_while_sending() -> (PendingPush, PendingPush) {
        let mut pending = PendingPush::new("t", "hook", 5, Timestamp::from(0));
        pending.take(Timestamp::from(10));
        let sent = pending.clone();
        pending.replace(7, Timestamp::from(20));
        (pending, sent)
    }

    #[test]
    fn a_change_queued_while_sending_waits_for_the_send_and_outlives_its_success() {
        let (mut pending, sent) = replaced_while_sending();
        assert_eq!(
            pending.next_at,
            Timestamp::from(10 + IN_FLIGHT_MS),
            "not before the send ends"
        );
        assert_eq!(
            pending.settle(&sent, true, Timestamp::from(30)),
            Settled::Changed
        );
        assert_eq!(
            (pending.generation, pending.next_at),
            (7, Timestamp::from(30))
        );
        pending.take(Timestamp::from(30));
        let newer = pending.clone();
        assert_eq!(
            pending.settle(&newer, true, Timestamp::from(40)),
            Settled::Done
        );
    }

    #[test]
    fn an_older_sends_failure_makes_the_newer_change_due_with_no_attempt_counted() {
        let (mut pending, sent) = replaced_while_sending();
        assert_eq!(
            pending.settle(&sent, false, Timestamp::from(30)),
            Settled::Changed
        );
        assert_eq!(
            (pending.attempts, pending.next_at, pending.sending),
            (0, Timestamp::from(30), None)
        );
    }

    #[test]
    fn the_outcome_of_a_send_that_counted_as_lost_changes_nothing() {
        let (mut pending, sent) = replaced_while_sending();
        // The first send's hold ends: the newer change is taken.
        pending.take(Timestamp::from(10 + IN_FLIGHT_MS));
        let kept = pending.clone();
        assert!(
            !pending.holds(&sent, Timestamp::from(10 + IN_FLIGHT_MS)),
            "not sent late"
        );
        assert!(pending.holds(&pending.clone(), Timestamp::from(10 + IN_FLIGHT_MS)));
        for delivered in [true, false] {
            assert_eq!(
                pending.settle(&sent, delivered, Timestamp::from(50_000)),
                Settled::Unchanged
            );
        }
        assert_eq!(pending, kept);
    }

    #[test]
    fn failures_of_the_current_change_back_off_then_drop_it() {
        let mut pending = PendingPush::new("t", "hook", 1, Timestamp::from(0));
        for attempt in 1..MAX_ATTEMPTS {
            pending.take(Timestamp::from(0));
            let sent = pending.clone();
            assert_eq!(
                pending.settle(&sent, false, Timestamp::from(0)),
                Settled::Changed
            );
            assert_eq!(
                (pending.attempts, pending.next_at),
                (attempt, Timestamp::from(backoff(attempt - 1)))
            );
        }
        pending.take(Timestamp::from(0));
        let sent = pending.clone();
        assert_eq!(
            pending.settle(&sent, false, Timestamp::from(0)),
            Settled::Done
        );
    }
}
