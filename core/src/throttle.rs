//! Token buckets keyed by whoever is throttled, with idle buckets forgotten.
//!
//! A [`Rate`] lets a key spend `burst` tokens at once and earns it
//! `per_second` more every second, never more than `burst`. A bucket that has
//! filled up again holds nothing a fresh bucket would not, so [`Buckets`]
//! forgets it (at most once per refill period, see [`Buckets::prune`]):
//! memory follows the keys active within one refill period, not every key
//! ever seen. Time is passed in (unix milliseconds); nothing reads a clock.

use crate::ids::time::Timestamp;
use std::collections::BTreeMap;

/// How many tokens a key may spend at once, and how fast they come back.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Tokens a full bucket holds.
    pub burst: u32,
    /// Tokens earned per second (none when zero or less).
    pub per_second: f64,
}

impl Rate {
    /// `burst` at once, `per_second` more every second.
    pub const fn new(burst: u32, per_second: f64) -> Self {
        Self { burst, per_second }
    }

    /// Milliseconds an empty bucket takes to fill; `None` when it never refills.
    pub fn refill_ms(&self) -> Option<u64> {
        (self.per_second > 0.0)
            .then(|| (f64::from(self.burst) * 1000.0 / self.per_second).ceil() as u64)
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Timestamp,
}

/// One token bucket per key.
#[derive(Debug, Clone)]
pub struct Buckets<K> {
    rate: Rate,
    buckets: BTreeMap<K, Bucket>,
    /// When full buckets are next looked for.
    next_prune: Timestamp,
}

/// Full buckets are looked for at most this often, however fast they refill.
const MIN_PRUNE_INTERVAL_MS: u64 = 1_000;

impl<K: Ord + Clone> Buckets<K> {
    /// No buckets yet; each key starts full.
    pub fn new(rate: Rate) -> Self {
        Self {
            rate,
            buckets: BTreeMap::new(),
            next_prune: Timestamp::from_millis(0),
        }
    }

    /// The rate every bucket follows.
    pub fn rate(&self) -> Rate {
        self.rate
    }

    /// The tokens `bucket` holds at `now`.
    fn refilled(&self, bucket: &Bucket, now: Timestamp) -> f64 {
        let elapsed_s = now.millis_since(bucket.updated) as f64 / 1000.0;
        (bucket.tokens + elapsed_s * self.rate.per_second.max(0.0)).min(f64::from(self.rate.burst))
    }

    /// True when `key` could spend a token at `now` (nothing is spent).
    pub fn has_token(&self, key: &K, now: Timestamp) -> bool {
        self.buckets
            .get(key)
            .map_or(self.rate.burst >= 1, |b| self.refilled(b, now) >= 1.0)
    }

    /// Spends one of `key`'s tokens; `false`, spending nothing, when it has none.
    pub fn take(&mut self, key: &K, now: Timestamp) -> bool {
        self.prune_if_due(now);
        let tokens = match self.buckets.get(key) {
            Some(bucket) => self.refilled(bucket, now),
            None => f64::from(self.rate.burst),
        };
        let (tokens, taken) = if tokens >= 1.0 {
            (tokens - 1.0, true)
        } else {
            (tokens, false)
        };
        let updated = self.buckets.get(key).map_or(now, |b| now.max(b.updated));
        self.buckets.insert(key.clone(), Bucket { tokens, updated });
        taken
    }

    /// Forgets `key`'s bucket (it starts full again).
    pub fn forget(&mut self, key: &K) {
        self.buckets.remove(key);
    }

    /// Forgets every bucket that is full at `now`.
    pub fn prune(&mut self, now: Timestamp) {
        let burst = f64::from(self.rate.burst);
        let rate = self.rate;
        let full = |b: &Bucket| {
            let elapsed_s = now.millis_since(b.updated) as f64 / 1000.0;
            b.tokens + elapsed_s * rate.per_second.max(0.0) >= burst
        };
        self.buckets.retain(|_, b| !full(b));
    }

    /// Prunes once per refill period (at least [`MIN_PRUNE_INTERVAL_MS`]):
    /// each search is paid for by the takes of a whole period.
    fn prune_if_due(&mut self, now: Timestamp) {
        let Some(refill) = self.rate.refill_ms() else {
            return;
        };
        if now >= self.next_prune {
            self.prune(now);
            self.next_prune = now.plus_millis(refill.max(MIN_PRUNE_INTERVAL_MS));
        }
    }

    /// How many keys have a bucket.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// True when no key has a bucket.
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_spends_its_burst_then_earns_tokens_back_with_time() {
        let mut buckets = Buckets::new(Rate::new(3, 2.0));
        for _ in 0..3 {
            assert!(buckets.take(&"a", Timestamp::from(1_000)));
        }
        assert!(!buckets.take(&"a", Timestamp::from(1_000)));
        assert!(!buckets.has_token(&"a", Timestamp::from(1_400)));
        // Half a second earns one token.
        assert!(buckets.has_token(&"a", Timestamp::from(1_500)));
        assert!(buckets.take(&"a", Timestamp::from(1_500)));
        assert!(!buckets.take(&"a", Timestamp::from(1_500)));
        // Another key has its own bucket.
        assert!(buckets.take(&"b", Timestamp::from(1_500)));
        // A clock that goes back earns nothing and breaks nothing.
        assert!(!buckets.take(&"a", Timestamp::from(900)));
    }

    #[test]
    fn full_buckets_are_forgotten_so_memory_follows_active_keys() {
        let mut buckets = Buckets::new(Rate::new(2, 1.0));
        for key in 0..1_000u32 {
            buckets.take(&key, Timestamp::from(10_000));
        }
        assert_eq!(buckets.len(), 1_000);
        // Two seconds later every bucket is full: the next take forgets them all.
        buckets.take(&5_000, Timestamp::from(12_000));
        assert_eq!(buckets.len(), 1);
        // A bucket still refilling is kept, and keeps its debt.
        let mut buckets = Buckets::new(Rate::new(2, 1.0));
        assert!(
            buckets.take(&"busy", Timestamp::from(0)) && buckets.take(&"busy", Timestamp::from(0))
        );
        buckets.prune(Timestamp::from(1_500));
        assert_eq!(buckets.len(), 1);
        assert!(buckets.take(&"busy", Timestamp::from(1_500)));
        assert!(!buckets.take(&"busy", Timestamp::from(1_500)));
    }

    #[test]
    fn a_rate_without_refill_never_forgets_and_never_refills() {
        let mut buckets = Buckets::new(Rate::new(1, 0.0));
        assert_eq!(buckets.rate().refill_ms(), None);
        assert!(buckets.take(&"a", Timestamp::from(0)));
        assert!(!buckets.take(&"a", Timestamp::from(u64::MAX)));
        buckets.prune(Timestamp::from(u64::MAX));
        assert_eq!(buckets.len(), 1);
        buckets.forget(&"a");
        assert!(buckets.is_empty());
        assert!(!Buckets::<u8>::new(Rate::new(0, 1.0)).has_token(&1, Timestamp::from(0)));
    }
}
