//! The acks a gateway takes from its sockets, held as one cursor per member
//! until they go to the network: with the next request that goes anyway, or
//! once the oldest has waited [`CURSOR_DELAY_MS`].
//!
//! The receivers of one broadcast ack it over a few milliseconds (each
//! replica waits for more deliveries first), so sending the cursors as soon
//! as each ack arrives cost the network object one request per few acks —
//! 8 per broadcast to 100 members on one gateway, 69 to 1,000 on four
//! (BENCHMARKS.md, "p99 from 1,000 broadcasts"), a load that grew with the
//! audience again. Held a little, they are one request per gateway.

use super::messages::ToNetwork;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use std::collections::BTreeMap;

/// How long a gateway may hold an ack before it sends it to the network
/// (when nothing else goes sooner). Far below the network's redelivery
/// timeout and small against its in-flight bound: a member keeps receiving
/// meanwhile.
pub const CURSOR_DELAY_MS: u64 = 10;

/// The acks not yet sent.
#[derive(Debug, Clone, Default)]
pub(super) struct PendingCursors {
    /// The highest acked `seq` per member and the epoch that bound its socket.
    acked: BTreeMap<(Address, u64), u64>,
    /// When the oldest of them was taken.
    since: Option<Timestamp>,
}

impl PendingCursors {
    /// `member` (bound in `epoch`) acknowledged everything through `seq` at `now`.
    pub(super) fn take(&mut self, member: &(Address, u64), seq: u64, now: Timestamp) {
        let acked = self.acked.entry(member.clone()).or_default();
        *acked = (*acked).max(seq);
        self.since.get_or_insert(now);
    }

    /// When they are due to be sent on their own, if any are held.
    pub(super) fn due(&self) -> Option<Timestamp> {
        self.since.map(|since| since.plus_millis(CURSOR_DELAY_MS))
    }

    /// Every cursor held, as one message, when a request goes anyway
    /// (`riding`) or they are due at `now`; else none.
    pub(super) fn take_to_send(&mut self, now: Timestamp, riding: bool) -> Option<ToNetwork> {
        let due = self.due()?;
        if riding || due <= now {
            self.flush()
        } else {
            None
        }
    }

    /// Every cursor held, as one message (none when nothing is held).
    fn flush(&mut self) -> Option<ToNetwork> {
        self.since = None;
        if self.acked.is_empty() {
            return None;
        }
        let cursors = std::mem::take(&mut self.acked)
            .into_iter()
            .map(|((member, epoch), seq)| (member, seq, epoch))
            .collect();
        Some(ToNetwork::Cursors { cursors })
    }

    /// Forgets them (the network restarted: they are of its old instance).
    pub(super) fn clear(&mut self) {
        self.acked.clear();
        self.since = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `name` (of epoch 1) acknowledged `seq` at `at`.
    fn ack(pending: &mut PendingCursors, name: &str, seq: u64, at: u64) {
        let member: Address = name.parse().expect("an address");
        pending.take(&(member, 1), seq, Timestamp::from(at));
    }

    /// When the held cursors are due, in milliseconds.
    fn due_ms(pending: &PendingCursors) -> Option<u64> {
        pending.due().map(Timestamp::as_millis)
    }

    #[test]
    fn cursors_are_due_a_delay_after_the_oldest_ack_not_the_newest() {
        let mut pending = PendingCursors::default();
        assert_eq!(due_ms(&pending), None);
        ack(&mut pending, "agent:a", 4, 100);
        ack(&mut pending, "agent:b", 9, 107);
        assert_eq!(due_ms(&pending), Some(100 + CURSOR_DELAY_MS));
    }

    #[test]
    fn a_flush_sends_each_members_highest_ack_once_and_starts_over() {
        let mut pending = PendingCursors::default();
        ack(&mut pending, "agent:a", 4, 100);
        ack(&mut pending, "agent:a", 3, 101);
        ack(&mut pending, "agent:b", 9, 102);
        let Some(ToNetwork::Cursors { cursors }) = pending.flush() else {
            panic!("cursors");
        };
        let names: Vec<(String, u64)> = cursors
            .iter()
            .map(|(m, seq, _)| (m.to_string(), *seq))
            .collect();
        assert_eq!(names, [("agent:a".into(), 4), ("agent:b".into(), 9)]);
        assert_eq!(due_ms(&pending), None);
        assert!(pending.flush().is_none());
        ack(&mut pending, "agent:a", 5, 300);
        assert_eq!(due_ms(&pending), Some(300 + CURSOR_DELAY_MS));
    }

    #[test]
    fn held_acks_go_early_only_with_a_request_that_goes_anyway() {
        let mut pending = PendingCursors::default();
        assert!(
            pending
                .take_to_send(Timestamp::from(u64::MAX), true)
                .is_none(),
            "nothing held"
        );
        ack(&mut pending, "agent:a", 4, 100);
        assert!(
            pending
                .take_to_send(Timestamp::from(100 + CURSOR_DELAY_MS - 1), false)
                .is_none()
        );
        assert!(
            pending.take_to_send(Timestamp::from(101), true).is_some(),
            "riding: at once"
        );
        ack(&mut pending, "agent:a", 5, 200);
        assert!(
            pending
                .take_to_send(Timestamp::from(200 + CURSOR_DELAY_MS), false)
                .is_some(),
            "due"
        );
        assert_eq!(due_ms(&pending), None);
    }

    #[test]
    fn cleared_cursors_are_gone_and_not_due() {
        let mut pending = PendingCursors::default();
        ack(&mut pending, "agent:a", 4, 100);
        pending.clear();
        assert_eq!(due_ms(&pending), None);
        assert!(pending.flush().is_none());
    }
}
