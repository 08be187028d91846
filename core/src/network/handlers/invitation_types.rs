//! The Workspace invitation event types ([`super::invitations`]).

/// A member invites (to `core`): `{invitee?, ttl_ms?, max_uses?}`; the ack carries the code.
pub const CREATED: &str = "workspace.invitation.created";
/// The network tells the inviter its invitation was used: `{invitee, expires_at}`.
pub const ACCEPTED: &str = "workspace.invitation.accepted";
/// The network tells the inviter its invitation was declined: `{invitee?, expires_at}`.
pub const REJECTED: &str = "workspace.invitation.rejected";
