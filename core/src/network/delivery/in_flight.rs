//! What one member has been sent and not acknowledged, counted in deliveries
//! and in bytes, and the bounds on both.
//!
//! A member that never acknowledges costs the network at most
//! [`MAX_IN_FLIGHT`] deliveries and [`MAX_IN_FLIGHT_BYTES`] of them, however
//! long the log and however large its events: past either bound, what comes
//! next for it waits in the log and is read for it as it acknowledges
//! (`crate::network::delivery::tracker`). The count is high enough for a busy batched
//! link: a receiver that acknowledges each burst after reading it is a few
//! bursts of up to [`MAX_BATCH_EVENTS`] behind, and at 512 (the bound before)
//! nearly every event on such a link went through the log (BENCHMARKS.md,
//! "where the sustained rate went"). The bytes keep that count cheap for large events.

use crate::event::batch::MAX_BATCH_EVENTS;
use std::collections::VecDeque;

/// Most deliveries one member may have unacknowledged.
pub const MAX_IN_FLIGHT: usize = 8 * MAX_BATCH_EVENTS;
/// Bytes of encoded events past which a member gets no more until it
/// acknowledges (the delivery that crosses the bound is the last).
pub const MAX_IN_FLIGHT_BYTES: usize = 4 * 1024 * 1024;
/// Deliveries counted together: the accounting is exact to within one batch,
/// in a few words per member whatever the bound.
pub(crate) const BATCH: u32 = 32;

/// The deliveries to one member it has not acknowledged, as batches
/// `(seq of the batch's last delivery, deliveries in it, their bytes)`.
///
/// A batch counts until an ack covers its last delivery, so [`InFlight::count`]
/// and the bytes may count up to one batch more than is really
/// unacknowledged, never less.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct InFlight {
    pub(crate) batches: VecDeque<(u64, u32, usize)>,
    total: usize,
    bytes: usize,
}

impl InFlight {
    /// Counts a delivery of `seq`, `bytes` long (deliveries come in `seq` order).
    pub(crate) fn push(&mut self, seq: u64, bytes: usize) {
        match self.batches.back_mut() {
            Some((last, count, size)) if *count < BATCH => {
                *last = seq;
                *count += 1;
                *size += bytes;
            }
            _ => self.batches.push_back((seq, 1, bytes)),
        }
        self.total += 1;
        self.bytes += bytes;
    }

    /// Everything up to `cursor` is acknowledged.
    pub(crate) fn acknowledge(&mut self, cursor: u64) {
        while let Some(&(last, count, size)) = self.batches.front() {
            if last > cursor {
                break;
            }
            self.batches.pop_front();
            self.total = self.total.saturating_sub(count as usize);
            self.bytes = self.bytes.saturating_sub(size);
        }
    }

    /// Unacknowledged deliveries (an upper bound, see [`InFlight`]).
    pub fn count(&self) -> usize {
        self.total
    }

    /// Whether another delivery may go out before an ack: under both bounds.
    pub fn has_room(&self) -> bool {
        self.has_room_for(1)
    }

    /// Whether `deliveries` more fit under the count, with the bytes still
    /// under theirs (a catch-up page asks for a page's worth at once).
    pub fn has_room_for(&self, deliveries: usize) -> bool {
        MAX_IN_FLIGHT.saturating_sub(self.total) >= deliveries && self.bytes < MAX_IN_FLIGHT_BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_until_an_ack_covers_a_whole_batch() {
        let mut in_flight = InFlight::default();
        for seq in 1..=100 {
            in_flight.push(seq * 2, 10);
        }
        assert_eq!((in_flight.count(), in_flight.bytes), (100, 1000));
        // Seqs 2..=64 are the first batch; 100 is inside the second.
        in_flight.acknowledge(100);
        assert_eq!(in_flight.count(), 100 - BATCH as usize);
        assert_eq!(in_flight.bytes, 1000 - 10 * BATCH as usize);
        in_flight.acknowledge(200);
        assert_eq!((in_flight.count(), in_flight.bytes), (0, 0));
        assert!(in_flight.batches.is_empty());
    }

    #[test]
    fn room_ends_at_either_bound() {
        let mut by_count = InFlight::default();
        for seq in 1..MAX_IN_FLIGHT as u64 {
            by_count.push(seq, 100);
        }
        assert!(by_count.has_room());
        by_count.push(MAX_IN_FLIGHT as u64, 100);
        assert!(!by_count.has_room());

        let mut by_bytes = InFlight::default();
        by_bytes.push(1, MAX_IN_FLIGHT_BYTES - 1);
        assert!(by_bytes.has_room());
        by_bytes.push(2, 1);
        assert!(!by_bytes.has_room(), "{} bytes", by_bytes.bytes);
        by_bytes.acknowledge(2);
        assert!(by_bytes.has_room());
    }
}
