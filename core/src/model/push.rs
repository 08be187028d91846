//! Push notifications of task changes (A2A's `PushNotificationConfig`):
//! where a task's requester wants them, and the ones waiting to be sent.
//!
//! A change of a task with push targets queues one [`PendingPush`] per
//! target (a newer change replaces a queued one: the notification carries
//! the task as it is when sent). The host sends what is due from its alarm;
//! a failure is retried after [`backoff`] until [`MAX_ATTEMPTS`].

use crate::ids::address::Address;
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
    /// When to try (Unix ms).
    pub next_at: u64,
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
}
