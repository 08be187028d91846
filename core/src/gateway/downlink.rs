//! What a gateway has already taken of its network object's requests, so a
//! request the network sends again (its answer was lost on the way, or came
//! too late) is applied once.
//!
//! The network numbers the messages to each gateway from 1 in the life of
//! one instance of its object (`instance`, a random number it draws when it
//! starts; a wake from hibernation starts a new one) and says where each
//! request's first message stands (`first`). A gateway remembers the last
//! position it took per instance; a request of the same instance that starts
//! at or before it carries messages already applied, which are skipped. A
//! request from another instance, or one the gateway cannot place (instance
//! 0: an older network object), is taken whole. The gateway keeps this in
//! memory only: one evicted between a request and its resend takes it again,
//! which costs its clients a repeated frame, not a repeated event (replicas
//! drop a `seq` they hold).

/// The last message a gateway took from its network object, and in which of
/// its instances.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Taken {
    instance: u64,
    last: u64,
}

impl Taken {
    /// How many of the `count` messages of a request from `instance`, the first
    /// at position `first`, were taken before (they lead the request); the
    /// rest are taken now.
    pub fn already(&mut self, instance: u64, first: u64, count: usize) -> usize {
        let count_u64 = u64::try_from(count).unwrap_or(u64::MAX);
        let end = first.saturating_add(count_u64).saturating_sub(1);
        if instance == 0 || first == 0 {
            // Not numbered: nothing to compare with.
            *self = Self::default();
            return 0;
        }
        if instance != self.instance {
            *self = Self {
                instance,
                last: end,
            };
            return 0;
        }
        let skipped = self
            .last
            .saturating_add(1)
            .saturating_sub(first)
            .min(count_u64);
        self.last = self.last.max(end);
        usize::try_from(skipped).unwrap_or(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests `(instance, first, count)` in turn, each with how many of its
    /// messages should be found taken before.
    fn requests(steps: &[(u64, u64, usize, usize)]) {
        let mut taken = Taken::default();
        for (i, &(instance, first, count, already)) in steps.iter().enumerate() {
            assert_eq!(
                taken.already(instance, first, count),
                already,
                "request {i}: {instance}, {first}, {count}"
            );
        }
    }

    #[test]
    fn requests_in_order_are_taken_whole() {
        requests(&[(7, 1, 3, 0), (7, 4, 2, 0), (7, 6, 1, 0)]);
    }

    #[test]
    fn a_request_sent_again_is_skipped_and_one_that_grew_keeps_only_its_new_messages() {
        // The answer was lost: the same request again; then again with what piled
        // up meanwhile (positions 4 and 5); then the next.
        requests(&[(7, 1, 3, 0), (7, 1, 3, 3), (7, 1, 5, 3), (7, 6, 1, 0)]);
    }

    #[test]
    fn another_instance_of_the_network_starts_counting_again() {
        // The object woke as a new instance (9): its positions start from 1 again.
        // An older network object numbers nothing (0): always taken whole.
        requests(&[
            (7, 1, 40, 0),
            (9, 1, 2, 0),
            (9, 1, 2, 2),
            (0, 0, 2, 0),
            (0, 0, 2, 0),
        ]);
    }

    #[test]
    fn extreme_positions_do_not_overflow() {
        requests(&[
            (1, u64::MAX - 1, 1, 0),
            (1, u64::MAX - 1, 1, 1),
            (1, u64::MAX, usize::MAX, 0),
            (1, 1, 0, 0),
        ]);
    }
}
