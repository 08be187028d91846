//! Single-use nonces with an expiry: remembered until a replay could no
//! longer pass the timestamp window, bounded in number (the oldest go first).

use crate::ids::time::Timestamp;
use std::collections::{BTreeMap, BTreeSet};

/// Most nonces remembered at once.
pub const MAX_NONCES: usize = 50_000;

/// Nonces seen, each until its expiry.
#[derive(Debug, Clone, Default)]
pub struct NonceCache {
    until: BTreeMap<String, Timestamp>,
    by_expiry: BTreeSet<(Timestamp, String)>,
}

impl NonceCache {
    /// True when `nonce` was recorded and has not expired.
    pub fn seen(&self, nonce: &str, now: Timestamp) -> bool {
        self.until.get(nonce).is_some_and(|until| *until > now)
    }

    /// Records `nonce` until `until`, dropping expired ones (and the
    /// soonest-expiring beyond [`MAX_NONCES`]).
    pub fn insert(&mut self, nonce: String, until: Timestamp, now: Timestamp) {
        while let Some(first) = self.by_expiry.first().cloned() {
            if first.0 > now && self.until.len() < MAX_NONCES {
                break;
            }
            self.by_expiry.remove(&first);
            self.until.remove(&first.1);
        }
        if let Some(old) = self.until.insert(nonce.clone(), until) {
            self.by_expiry.remove(&(old, nonce.clone()));
        }
        self.by_expiry.insert((until, nonce));
    }

    /// How many are remembered.
    pub fn len(&self) -> usize {
        self.until.len()
    }

    /// True when none are.
    pub fn is_empty(&self) -> bool {
        self.until.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_are_remembered_until_they_expire_and_bounded() {
        let mut cache = NonceCache::default();
        cache.insert("a".into(), Timestamp::from(100), Timestamp::from(0));
        assert!(cache.seen("a", Timestamp::from(99)));
        assert!(!cache.seen("a", Timestamp::from(100)));
        cache.insert("b".into(), Timestamp::from(300), Timestamp::from(200));
        assert_eq!(cache.len(), 1, "a expired and was dropped");
        for n in 0..MAX_NONCES + 10 {
            cache.insert(
                format!("n{n}"),
                Timestamp::from(1_000 + n as u64),
                Timestamp::from(200),
            );
        }
        assert_eq!(cache.len(), MAX_NONCES);
        assert!(cache.seen(&format!("n{}", MAX_NONCES + 9), Timestamp::from(500)));
    }
}
