//! Who is there: presence, profile news and typing.

use crate::ids::address::Address;
use crate::model::membership::Presence;
use crate::model::profile::Profile;
use serde::{Deserialize, Serialize};

/// `workspace.presence.changed`: `address` came (`online`) or went
/// (`offline`). `mod/workspace` emits it to `agent:broadcast`; a member
/// may send it only about itself, with a word of its own (`away`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresenceChanged {
    /// Who came or went.
    pub address: Address,
    /// `online` or `offline` from the network; a member's own word otherwise.
    pub status: String,
}

impl PresenceChanged {
    /// The network's news that `address` is now `presence`.
    pub fn of(address: Address, presence: Presence) -> Self {
        Self {
            address,
            status: presence.as_str().to_owned(),
        }
    }

    /// The presence the status names, when it is the network's word.
    pub fn presence(&self) -> Option<Presence> {
        match self.status.as_str() {
            "online" => Some(Presence::Online),
            "offline" => Some(Presence::Offline),
            _ => None,
        }
    }
}

/// `workspace.member.updated`: a member's new profile, from the network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberUpdated {
    /// The member.
    pub address: Address,
    /// Its profile now.
    pub profile: Profile,
}

/// `workspace.typing`: `{}`, to the conversation the sender types in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypingNotice {}
