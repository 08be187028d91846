//! The workspace's event types: one constant per type, and
//! [`WorkspaceEventType`], the same list as an enum for code that wants a
//! typed value (an [`EventType`] that cannot fail to parse, an exhaustive
//! `match`).

use crate::ids::event_type::EventType;
use std::fmt;

/// A chat message (`{content, attachments?, answers?, steps?, failed?}`).
pub const MESSAGE_POSTED: &str = "workspace.message.posted";
/// A status update under a message (working, thinking, done…).
pub const MESSAGE_STATUS: &str = "workspace.message.status";
/// A message's new text, from its author (`{message, content}`).
pub const MESSAGE_EDITED: &str = "workspace.message.edited";
/// A message taken back by its author or a master (`{message}`).
pub const MESSAGE_DELETED: &str = "workspace.message.deleted";
/// A message handed to another member to answer (`{message, content?, note?}`).
pub const MESSAGE_DELEGATED: &str = "workspace.message.delegated";
/// A reaction to a message (`{message, emoji}`), where its conversation is.
pub const REACTION_ADDED: &str = "workspace.reaction.added";
/// A reaction taken back (`{message, emoji}`).
pub const REACTION_REMOVED: &str = "workspace.reaction.removed";
/// Someone came or went (`{address, status}`), from `mod/workspace`.
pub const PRESENCE_CHANGED: &str = "workspace.presence.changed";
/// A member changed its profile (`{address, profile}`): only the network emits it.
pub const MEMBER_UPDATED: &str = "workspace.member.updated";
/// What an agent is doing about a message (`{state, message, thread?, tool?, text?}`).
pub const AGENT_ACTIVITY: &str = "workspace.agent.activity";
/// The person who asked tells an agent to stop answering (`{message}`).
pub const AGENT_STOP: &str = "workspace.agent.stop";
/// A member invites (to `core`): `{invitee?, ttl_ms?, max_uses?}`; the ack carries the code.
pub const INVITATION_CREATED: &str = "workspace.invitation.created";
/// The network tells the inviter its invitation was used: `{invitee, expires_at}`.
pub const INVITATION_ACCEPTED: &str = "workspace.invitation.accepted";
/// The network tells the inviter its invitation was declined: `{invitee?, expires_at}`.
pub const INVITATION_REJECTED: &str = "workspace.invitation.rejected";
/// A new session (`{session?, title?, master?}`; the network adds `channel` and `status`).
pub const SESSION_CREATED: &str = "workspace.session.created";
/// A session renamed, its status or master changed (`{session, title?, status?, master?}`).
pub const SESSION_UPDATED: &str = "workspace.session.updated";
/// An agent asks a person before a step (`{approvers?, action, expires_at}`).
pub const APPROVAL_REQUESTED: &str = "workspace.approval.requested";
/// An approver decided, or the requester saw the request expire.
pub const APPROVAL_DECIDED: &str = "workspace.approval.decided";
/// Someone is typing in a conversation (`{}`): delivered live, never stored.
pub const TYPING: &str = "workspace.typing";

/// Declares [`WorkspaceEventType`] from the constants above, once.
macro_rules! workspace_event_types {
    ($($variant:ident => $name:ident,)*) => {
        /// A workspace event type, typed: its [`EventType`] cannot fail to parse.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum WorkspaceEventType {
            $(
                #[doc = concat!("[`", stringify!($name), "`]")]
                $variant,
            )*
        }

        impl WorkspaceEventType {
            /// Every workspace event type.
            pub const ALL: &'static [Self] = &[$(Self::$variant),*];

            /// The type as written on the wire.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $name,)*
                }
            }
        }
    };
}

workspace_event_types! {
    MessagePosted => MESSAGE_POSTED,
    MessageStatus => MESSAGE_STATUS,
    MessageEdited => MESSAGE_EDITED,
    MessageDeleted => MESSAGE_DELETED,
    MessageDelegated => MESSAGE_DELEGATED,
    ReactionAdded => REACTION_ADDED,
    ReactionRemoved => REACTION_REMOVED,
    PresenceChanged => PRESENCE_CHANGED,
    MemberUpdated => MEMBER_UPDATED,
    AgentActivity => AGENT_ACTIVITY,
    AgentStop => AGENT_STOP,
    InvitationCreated => INVITATION_CREATED,
    InvitationAccepted => INVITATION_ACCEPTED,
    InvitationRejected => INVITATION_REJECTED,
    SessionCreated => SESSION_CREATED,
    SessionUpdated => SESSION_UPDATED,
    ApprovalRequested => APPROVAL_REQUESTED,
    ApprovalDecided => APPROVAL_DECIDED,
    Typing => TYPING,
}

impl WorkspaceEventType {
    /// The validated event type (the names above are valid types: a test checks each).
    pub fn event_type(self) -> EventType {
        EventType::from_static(self.as_str())
    }

    /// The workspace type `event_type` is, when it is one.
    pub fn of(event_type: &EventType) -> Option<Self> {
        Self::named(event_type.as_str())
    }

    /// The workspace type called `name`, when there is one.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.as_str() == name)
    }
}

impl From<WorkspaceEventType> for EventType {
    fn from(kind: WorkspaceEventType) -> Self {
        kind.event_type()
    }
}

impl fmt::Display for WorkspaceEventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_a_valid_distinct_workspace_type() {
        let mut seen = std::collections::BTreeSet::new();
        for kind in WorkspaceEventType::ALL {
            let parsed: EventType = kind.as_str().parse().unwrap();
            assert!(parsed.as_str().starts_with("workspace."));
            assert_eq!(WorkspaceEventType::of(&parsed), Some(*kind));
            assert_eq!(kind.event_type(), parsed);
            assert!(seen.insert(kind.as_str()), "{kind} twice");
        }
        assert_eq!(WorkspaceEventType::named("workspace.nothing"), None);
    }
}
