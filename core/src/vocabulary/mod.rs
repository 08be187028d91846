//! The workspace's vocabulary: every `workspace.*` event type and the
//! payload each carries, as public types — one place that the network's
//! `mod/workspace`, the hosted agents, the bindings, the web workspace and
//! the npm package all use.
//!
//! * [`event_types`] — the type names (constants, and [`WorkspaceEventType`])
//! * [`messages`] — posted, edited, deleted, delegated; reactions
//! * [`presence`] — presence, a member's new profile, typing
//! * [`agents`] — an agent's activity, and stopping it
//! * [`invitations`] — an invitation made, used or declined
//! * [`sessions`] — sessions (threads) and their changes
//! * [`approvals`] — a person approving an agent's step
//!
//! Each payload implements [`crate::model::payloads::Payload`] (its event
//! type and its JSON, as the answers of `core` do); the table at the end of
//! this module says which event carries which payload. The rules the network
//! checks live with the code that checks them (`crate::mods::workspace`,
//! `crate::network`); the ids they carry are validated types of
//! [`crate::ids`]. Payloads build the JSON that goes out: build a `Value`
//! from one with [`crate::model::payloads::Payload::to_json`], whose keys
//! `serde_json` sorts, so the text on the wire is the same however the
//! struct declares its fields.

use crate::model::payloads::carried_by;

pub mod agents;
pub mod approvals;
pub mod event_types;
pub mod invitations;
pub mod messages;
pub mod presence;
pub mod sessions;

pub use event_types::WorkspaceEventType;

// Which event carries which payload (`.rejected` carries an invitation's
// news too, and `reaction.removed` a reaction, under their own type).
carried_by! {
    agents::AgentActivity => event_types::AGENT_ACTIVITY,
    agents::AgentStop => event_types::AGENT_STOP,
    approvals::ApprovalRequest => event_types::APPROVAL_REQUESTED,
    approvals::ApprovalDecision => event_types::APPROVAL_DECIDED,
    invitations::InvitationCreated => event_types::INVITATION_CREATED,
    invitations::InvitationNews => event_types::INVITATION_ACCEPTED,
    messages::MessagePosted => event_types::MESSAGE_POSTED,
    messages::MessageEdited => event_types::MESSAGE_EDITED,
    messages::MessageDeleted => event_types::MESSAGE_DELETED,
    messages::MessageDelegated => event_types::MESSAGE_DELEGATED,
    messages::Reaction => event_types::REACTION_ADDED,
    presence::PresenceChanged => event_types::PRESENCE_CHANGED,
    presence::MemberUpdated => event_types::MEMBER_UPDATED,
    presence::TypingNotice => event_types::TYPING,
    sessions::SessionCreated => event_types::SESSION_CREATED,
    sessions::SessionUpdated => event_types::SESSION_UPDATED,
}

#[cfg(test)]
mod tests;
