//! A member's standing: its role and its verification level (ONM §3, §5).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A member's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Role {
    /// Coordinating agent; may administer the network.
    Master,
    /// Ordinary participant: sends and receives.
    Member,
    /// Receives but never emits.
    Observer,
}

impl Role {
    /// The role as written on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Master => "master",
            Self::Member => "member",
            Self::Observer => "observer",
        }
    }
}

impl FromStr for Role {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "master" => Ok(Self::Master),
            "member" => Ok(Self::Member),
            "observer" => Ok(Self::Observer),
            _ => Err(()),
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A verification level 0–3 (ONM §5).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(try_from = "u8", into = "u8")]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "VerificationLevel", type = "0 | 1 | 2 | 3")
)]
pub struct Verification(u8);

impl Verification {
    /// Level 0: anonymous, a claimed name.
    pub const ANONYMOUS: Self = Self(0);
    /// Level 1: proved control of a registered key by challenge-response.
    pub const KEY_PROOF: Self = Self(1);
    /// Level 2: a signed JWT from an identity service.
    pub const TOKEN: Self = Self(2);
    /// Level 3: a W3C DID document.
    pub const DID: Self = Self(3);

    /// The numeric level.
    pub const fn level(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Verification {
    type Error = String;
    fn try_from(level: u8) -> Result<Self, String> {
        if level <= 3 {
            Ok(Self(level))
        } else {
            Err(format!("verification level must be 0-3, got {level}"))
        }
    }
}

impl From<Verification> for u8 {
    fn from(v: Verification) -> u8 {
        v.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verification_levels_are_bounded() {
        assert_eq!(Verification::try_from(3), Ok(Verification::DID));
        assert!(Verification::try_from(4).is_err());
        assert!(serde_json::from_str::<Verification>("7").is_err());
        assert_eq!(
            serde_json::to_string(&Verification::KEY_PROOF).unwrap(),
            "1"
        );
    }
}
