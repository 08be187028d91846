//! Event ids: ULIDs made from time and randomness the host passes in.
//!
//! A ULID is 48 bits of unix milliseconds followed by 80 random bits,
//! written as 26 characters of Crockford base32. [`UlidGenerator`] is
//! monotonic: ids made within the same millisecond increase, so sorting ids
//! sorts creation order even inside one host tick.

use super::time::Timestamp;
use crate::error::{Coded, ErrorCode};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const ULID_LEN: usize = 26;
const MAX_TIMESTAMP: u64 = (1 << 48) - 1;

/// Why a string is not a ULID.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UlidError {
    /// The string is not 26 characters long.
    #[error("a ULID has 26 characters, got {0}")]
    Length(usize),
    /// A character is outside Crockford base32.
    #[error("character {0:?} is not Crockford base32")]
    Character(char),
    /// The first character makes the value exceed 128 bits.
    #[error("ULID overflows 128 bits (first character must be 0-7)")]
    Overflow,
}

impl Coded for UlidError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidEventId
    }
}

/// A 128-bit ULID event id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
pub struct EventId(u128);

impl EventId {
    /// Builds a ULID from a millisecond timestamp and 80 random bits.
    pub fn from_parts(timestamp_ms: u64, random: u128) -> Self {
        let time = u128::from(timestamp_ms.min(MAX_TIMESTAMP));
        Self((time << 80) | (random & ((1u128 << 80) - 1)))
    }

    /// The millisecond timestamp encoded in the id.
    pub fn timestamp_ms(self) -> u64 {
        // The shift leaves at most 48 bits, which always fit in u64.
        u64::try_from(self.0 >> 80).unwrap_or(MAX_TIMESTAMP)
    }

    /// The raw 128-bit value.
    pub fn to_u128(self) -> u128 {
        self.0
    }
}

fn decode_char(c: char) -> Result<u128, UlidError> {
    let upper = c.to_ascii_uppercase();
    let canonical = match upper {
        'O' => '0',
        'I' | 'L' => '1',
        other => other,
    };
    ALPHABET
        .iter()
        .position(|&a| char::from(a) == canonical)
        .map(|p| p as u128)
        .ok_or(UlidError::Character(c))
}

impl FromStr for EventId {
    type Err = UlidError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let count = s.chars().count();
        if count != ULID_LEN {
            return Err(UlidError::Length(count));
        }
        let mut value: u128 = 0;
        for (i, c) in s.chars().enumerate() {
            let digit = decode_char(c)?;
            if i == 0 && digit > 7 {
                return Err(UlidError::Overflow);
            }
            value = (value << 5) | digit;
        }
        Ok(Self(value))
    }
}

impl EventId {
    /// The 26 ASCII base-32 digits of the id.
    pub(crate) fn digits(&self) -> [u8; ULID_LEN] {
        // 26 base-32 digits of 5 bits each, worked on two 64-bit words to avoid
        // slow 128-bit shifts: digits 14..26 are bits 0..60, digit 13 is bits
        // 60..65 and digits 0..13 are bits 65..128.
        let mut out = [0u8; ULID_LEN];
        let mut low = self.0 as u64;
        for slot in out[14..].iter_mut().rev() {
            *slot = ALPHABET[(low & 0x1f) as usize];
            low >>= 5;
        }
        let bit_64 = ((self.0 >> 64) & 1) as u64;
        out[13] = ALPHABET[(low | (bit_64 << 4)) as usize];
        let mut high = (self.0 >> 65) as u64;
        for slot in out[..13].iter_mut().rev() {
            *slot = ALPHABET[(high & 0x1f) as usize];
            high >>= 5;
        }
        out
    }

    /// The id as a JSON string, written straight from its digits (acks carry
    /// it twice for every event).
    pub fn to_json(&self) -> serde_json::Value {
        let digits = self.digits();
        serde_json::Value::String(
            std::str::from_utf8(&digits)
                .map(str::to_owned)
                .unwrap_or_default(),
        )
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The alphabet is ASCII, so this is always valid UTF-8.
        f.write_str(std::str::from_utf8(&self.digits()).map_err(|_| fmt::Error)?)
    }
}

impl Serialize for EventId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Straight from the digits: ids are written for every event and ack.
        let digits = self.digits();
        let text = std::str::from_utf8(&digits).map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(text)
    }
}

impl<'de> Deserialize<'de> for EventId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Makes monotonic ULIDs (and other random tokens) from a seed the host supplies once.
///
/// The generator never reads a clock or an OS random source: the caller
/// passes `now` to every call, and randomness comes from a ChaCha20
/// stream seeded with 32 bytes of host entropy, so its outputs (nonces,
/// invitation codes) are unpredictable to anyone who sees earlier ids.
#[derive(Debug, Clone)]
pub struct UlidGenerator {
    rng: ChaCha20Rng,
    last: Option<EventId>,
}

impl UlidGenerator {
    /// A generator seeded with 32 bytes of host randomness.
    pub fn new(seed: [u8; 32]) -> Self {
        Self {
            rng: ChaCha20Rng::from_seed(seed),
            last: None,
        }
    }

    /// 16 fresh random bytes (nonces, invitation codes).
    pub fn random_bytes(&mut self) -> [u8; 16] {
        let mut bytes = [0u8; 16];
        self.rng.fill_bytes(&mut bytes);
        bytes
    }

    /// A new id for time `now`, greater than every id this generator made before.
    pub fn next_id(&mut self, now: Timestamp) -> EventId {
        let candidate =
            EventId::from_parts(now.as_millis(), u128::from_le_bytes(self.random_bytes()));
        let id = match self.last {
            Some(last) if candidate <= last => EventId(last.0.wrapping_add(1)),
            _ => candidate,
        };
        self.last = Some(id);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_encoding() {
        let id = EventId::from_parts(1_709_337_600_000, 0);
        assert_eq!(id.to_string(), "01HQY7BR000000000000000000");
        assert_eq!(id.timestamp_ms(), 1_709_337_600_000);
        assert_eq!(
            id.to_json(),
            serde_json::json!("01HQY7BR000000000000000000")
        );
        assert_eq!(serde_json::to_value(id).unwrap(), id.to_json());
    }

    #[test]
    fn rejects_bad_strings() {
        assert_eq!("abc".parse::<EventId>(), Err(UlidError::Length(3)));
        assert_eq!(
            "01HQV2WA00000000000000000U".parse::<EventId>(),
            Err(UlidError::Character('U'))
        );
        assert_eq!(
            "81HQV2WA000000000000000000".parse::<EventId>(),
            Err(UlidError::Overflow)
        );
    }

    #[test]
    fn lowercase_and_ambiguous_letters_decode() {
        let upper: EventId = "01HQV2WA0000000000000000I0".parse().unwrap_or(EventId(0));
        let lower: EventId = "01hqv2wa0000000000000000i0".parse().unwrap_or(EventId(1));
        assert_eq!(upper, lower);
        assert_eq!(upper.to_string(), "01HQV2WA000000000000000010");
    }

    #[test]
    fn generator_is_monotonic_within_a_millisecond() {
        let mut generator = UlidGenerator::new([7; 32]);
        let mut previous = generator.next_id(Timestamp::from(5));
        for _ in 0..1000 {
            let next = generator.next_id(Timestamp::from(5));
            assert!(next > previous);
            previous = next;
        }
        // Time going backwards still yields increasing ids.
        assert!(generator.next_id(Timestamp::from(1)) > previous);
    }

    proptest! {
        #[test]
        fn display_parse_round_trip(value in any::<u128>()) {
            let id = EventId(value);
            prop_assert_eq!(id.to_string().parse::<EventId>(), Ok(id));
        }

        #[test]
        fn parse_never_panics(s in "\\PC{0,40}") {
            let _ = s.parse::<EventId>();
        }
    }
}
