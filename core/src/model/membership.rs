//! Members of a network: the membership record and presence (ONM §3).

use crate::ids::address::Address;
use crate::ids::standing::{Role, Verification};
use crate::ids::time::Timestamp;
use crate::model::profile::Profile;
use serde::{Deserialize, Serialize};

/// Whether a member is connected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Presence {
    /// Connected (or heartbeating) now.
    Online,
    /// Not connected.
    Offline,
}

impl Presence {
    /// The presence as written on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Online => "online",
            Self::Offline => "offline",
        }
    }
}

/// A membership record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "MemberRecord"))]
pub struct Member {
    /// The member's address in this network.
    pub address: Address,
    /// Its role.
    pub role: Role,
    /// Its verified level in this network.
    pub verification: Verification,
    /// Online or offline.
    pub status: Presence,
    /// The last sign of life.
    #[serde(default)]
    pub last_seen: Timestamp,
    /// SHA-256 (lowercase hex) of the member secret the network issued at the
    /// first join: rejoining this address presents the secret. Stored, never shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub secret_sha256: Option<String>,
    /// The DID its join proved (level 2 tokens name one, level 3 proves one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did: Option<String>,
    /// What the member says about itself.
    #[serde(default, skip_serializing_if = "Profile::is_empty")]
    pub profile: Profile,
}

impl Member {
    /// A new record of `address` as a plain member: no secret, DID or profile yet.
    pub fn new(
        address: Address,
        verification: Verification,
        status: Presence,
        last_seen: Timestamp,
    ) -> Self {
        Self {
            address,
            role: Role::Member,
            verification,
            status,
            last_seen,
            secret_sha256: None,
            did: None,
            profile: Profile::default(),
        }
    }

    /// True when connected.
    pub fn is_online(&self) -> bool {
        self.status == Presence::Online
    }

    /// The record as others (and the member itself) see it: without the secret's hash.
    pub fn public(&self) -> Self {
        Self {
            secret_sha256: None,
            did: None,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_serializes_in_the_seed_shape() {
        let m = Member {
            address: "agent:a".parse().unwrap(),
            role: Role::Observer,
            verification: Verification::ANONYMOUS,
            status: Presence::Online,
            last_seen: Timestamp::from_millis(5),
            secret_sha256: None,
            did: None,
            profile: Profile::default(),
        };
        let v = serde_json::to_value(&m).unwrap();
        assert_eq!(v["role"], "observer");
        assert_eq!(v["status"], "online");
        assert_eq!(v["verification"], 0);
        assert_eq!(serde_json::from_value::<Member>(v).unwrap(), m);
        for p in [Presence::Online, Presence::Offline] {
            assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
        }
    }
}
