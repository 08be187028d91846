//! Time as the protocol writes it: [`Timestamp`], milliseconds since the
//! Unix epoch (what `timestamp`, `expires_at` and the network's `now` are).
//! The host passes the time in; the core never reads a clock.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A moment: milliseconds since the Unix epoch. Written as a bare number.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "number"))]
pub struct Timestamp(u64);

impl Timestamp {
    /// The epoch itself: what a moment never set reads as.
    pub const EPOCH: Self = Self(0);

    /// The moment `ms` milliseconds after the epoch.
    pub const fn from_millis(ms: u64) -> Self {
        Self(ms)
    }

    /// Milliseconds since the epoch.
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// `ms` milliseconds later (the last moment a `u64` holds at most).
    pub const fn plus_millis(self, ms: u64) -> Self {
        Self(self.0.saturating_add(ms))
    }

    /// `ms` milliseconds earlier (the epoch at the earliest).
    pub const fn minus_millis(self, ms: u64) -> Self {
        Self(self.0.saturating_sub(ms))
    }

    /// `ms` milliseconds earlier, or `None` when that is before the epoch.
    pub const fn checked_minus_millis(self, ms: u64) -> Option<Self> {
        match self.0.checked_sub(ms) {
            Some(earlier) => Some(Self(earlier)),
            None => None,
        }
    }

    /// Whole seconds since the epoch (what JWTs and HTTP signatures write).
    pub const fn as_secs(self) -> u64 {
        self.0 / 1000
    }

    /// Milliseconds from `earlier` to this moment (0 when `earlier` is later).
    pub const fn millis_since(self, earlier: Self) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl From<u64> for Timestamp {
    fn from(ms: u64) -> Self {
        Self(ms)
    }
}

impl From<Timestamp> for u64 {
    fn from(at: Timestamp) -> Self {
        at.0
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn arithmetic_saturates() {
        let at = Timestamp::from_millis(u64::MAX - 1);
        assert_eq!(at.plus_millis(5).as_millis(), u64::MAX);
        assert_eq!(Timestamp::from_millis(3).millis_since(at), 0);
        assert_eq!(at.millis_since(Timestamp::from_millis(3)), u64::MAX - 4);
        assert_eq!(Timestamp::from_millis(3).minus_millis(5), Timestamp::EPOCH);
        assert_eq!(at.minus_millis(u64::MAX - 3).as_millis(), 2);
        assert_eq!(Timestamp::from_millis(3).checked_minus_millis(4), None);
        assert_eq!(
            Timestamp::from_millis(3).checked_minus_millis(3),
            Some(Timestamp::EPOCH)
        );
        assert_eq!(Timestamp::from_millis(12_999).as_secs(), 12);
        assert_eq!(Timestamp::default(), Timestamp::EPOCH);
    }

    proptest! {
        #[test]
        fn written_as_a_bare_number(ms in any::<u64>()) {
            let at = Timestamp::from_millis(ms);
            let json = serde_json::to_string(&at).unwrap();
            prop_assert_eq!(&json, &ms.to_string());
            prop_assert_eq!(serde_json::from_str::<Timestamp>(&json).unwrap(), at);
            prop_assert_eq!(at.to_string(), ms.to_string());
        }
    }
}
