//! Invitations to an invite-only network, from the Workspace.

use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};

/// `workspace.invitation.created` (and `network.agent.invite`), to `core`:
/// a new invitation; the ack carries `code`, `expires_at` and `max_uses`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvitationCreated {
    /// The only address that may use it (anyone when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitee: Option<Address>,
    /// How many joins it admits (1 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_uses: Option<u64>,
    /// How long it is valid, in ms (the network's default when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
}

/// `workspace.invitation.accepted` and `.rejected`, from `core` to the
/// inviter: who used (or declined) the invitation, and until when it was valid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvitationNews {
    /// When the invitation expires (expired).
    pub expires_at: Timestamp,
    /// Who used or declined it (`null` when a declined one named nobody).
    pub invitee: Option<Address>,
}
