//! The event types of the workspace module (`mod/workspace`) that the page
//! posts and shows: chat messages, status updates and presence changes. A
//! leaf, so every feature names them without depending on the page.

/// The event type of a chat message.
pub const MESSAGE_POSTED: &str = "workspace.message.posted";
/// The event type of a status update (working, thinking, done…).
pub const MESSAGE_STATUS: &str = "workspace.message.status";
/// A message's new text, from its author (`{message, content}`).
pub const MESSAGE_EDITED: &str = "workspace.message.edited";
/// A message taken back by its author or a master (`{message}`).
pub const MESSAGE_DELETED: &str = "workspace.message.deleted";
/// A reaction to a message (`{message, emoji}`), where its conversation is.
pub const REACTION_ADDED: &str = "workspace.reaction.added";
/// A reaction taken back (`{message, emoji}`).
pub const REACTION_REMOVED: &str = "workspace.reaction.removed";
/// The event `mod/workspace` emits when someone comes or goes.
pub const PRESENCE_CHANGED: &str = "workspace.presence.changed";
/// The event `mod/workspace` emits when a member changed its profile
/// (`{address, profile}`): its display name or picture.
pub const MEMBER_UPDATED: &str = "workspace.member.updated";
/// What an agent is doing about a message (`{state, message, thread?, tool?,
/// text?}`), sent to the conversation; each replaces the agent's previous one
/// for the same message ([`crate::chat::agents::activity`]).
pub const AGENT_ACTIVITY: &str = "workspace.agent.activity";
/// The person who asked tells an agent to stop answering (`{message}`),
/// sent to the agent's address.
pub const AGENT_STOP: &str = "workspace.agent.stop";
/// A member invites (to `core`): `{invitee?, ttl_ms?, max_uses?}`; the ack
/// carries the code, its expiry and how many it admits.
pub const INVITATION_CREATED: &str = "workspace.invitation.created";
/// Someone is typing in a conversation (`{}`, to it): delivered live, never
/// stored by the network ([`crate::chat::composer::typing`]).
pub const TYPING: &str = "workspace.typing";
