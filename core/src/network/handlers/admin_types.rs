//! The `network.admin.*` event types ([`super::admin`]).

/// Pause: only reads, leaves and admin events are accepted.
pub const PAUSE: &str = "network.admin.pause";
/// Back to active.
pub const RESUME: &str = "network.admin.resume";
/// Read-only for good: no joins, no new events.
pub const ARCHIVE: &str = "network.admin.archive";
/// Load a standard mod or install an agent as a mod.
pub const MOD_LOAD: &str = "network.admin.mod.load";
/// Unload a mod.
pub const MOD_UNLOAD: &str = "network.admin.mod.unload";
/// Change a loaded mod's settings or priority.
pub const MOD_CONFIGURE: &str = "network.admin.mod.configure";
/// A new network token or admin token.
pub const TOKEN_ROTATE: &str = "network.admin.token.rotate";
/// Void an invitation.
pub const INVITATION_REVOKE: &str = "network.admin.invitation.revoke";
/// Remove a member.
pub const MEMBER_REMOVE: &str = "network.admin.member.remove";
/// Remove a member and refuse its joins.
pub const MEMBER_BAN: &str = "network.admin.member.ban";
/// Lift a ban.
pub const MEMBER_UNBAN: &str = "network.admin.member.unban";
/// Presence timeout, limits, public listing, name, description.
pub const SETTINGS: &str = "network.admin.settings.update";
/// Add or change an agent the network hosts (`crate::agent::hosted`).
pub const AGENT_HOST: &str = "network.admin.agent.host";
/// Stop hosting an agent: it leaves the network.
pub const AGENT_UNHOST: &str = "network.admin.agent.unhost";
/// Read the configuration (not logged).
pub const CONFIG: &str = "network.admin.config";
/// Every admin type starts with this.
pub const PREFIX: &str = "network.admin.";
