//! Event types: hierarchical, dot-separated names (`workspace.message.posted`).
//!
//! Segments are lowercase letters, digits, `_` and `-`; a type has at least
//! two segments. The `network.*` namespace is reserved for the model's core
//! events (ONM §6); every other namespace is an extension.

use crate::error::{Coded, ErrorCode};
use crate::ids::text_form::serde_as_text;
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// Hard upper bound on a type's length; networks may set a lower limit.
pub const MAX_EVENT_TYPE_LEN: usize = 255;

/// Why a string is not an event type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventTypeError {
    /// Longer than [`MAX_EVENT_TYPE_LEN`].
    #[error("event type is longer than {MAX_EVENT_TYPE_LEN} characters")]
    TooLong,
    /// Fewer than two segments (`ping`).
    #[error("event type needs at least two dot-separated segments, e.g. myapp.thing")]
    TooFewSegments,
    /// An empty segment (`a..b`, `.a`).
    #[error("event type has an empty segment")]
    EmptySegment,
    /// A character outside `a-z 0-9 _ -`.
    #[error("event type segments may contain only a-z, 0-9, '_' and '-', found {0:?}")]
    Character(char),
}

impl Coded for EventTypeError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidEventType
    }
}

/// A validated event type. The model's own types borrow their static name
/// instead of allocating one for every acknowledgement and notice.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
pub struct EventType(Cow<'static, str>);

impl EventType {
    /// The type as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True for the reserved `network.*` namespace.
    pub fn is_core(&self) -> bool {
        self.0.starts_with("network.")
    }

    /// A type known at compile time to be valid; used for the model's own types.
    pub(crate) fn from_static(s: &'static str) -> Self {
        debug_assert!(s.parse::<EventType>().is_ok(), "invalid static type {s}");
        Self(Cow::Borrowed(s))
    }
}

impl FromStr for EventType {
    type Err = EventTypeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() > MAX_EVENT_TYPE_LEN {
            return Err(EventTypeError::TooLong);
        }
        let mut segments = 0;
        for segment in s.split('.') {
            if segment.is_empty() {
                return Err(EventTypeError::EmptySegment);
            }
            if let Some(bad) = segment
                .chars()
                .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-')))
            {
                return Err(EventTypeError::Character(bad));
            }
            segments += 1;
        }
        if segments < 2 {
            return Err(EventTypeError::TooFewSegments);
        }
        Ok(Self(Cow::Owned(s.to_owned())))
    }
}

impl fmt::Display for EventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

serde_as_text!(EventType);

/// A pattern over event types, as mods and subscribers use them (ONM §7).
///
/// `*` matches every type; `workspace.message.*` matches every type below
/// `workspace.message` (one or more further segments); any other pattern
/// matches exactly that type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventPattern {
    /// `*`
    Any,
    /// `prefix.*`: types strictly below `prefix`.
    Below(String),
    /// One exact type.
    Exact(EventType),
}

impl EventPattern {
    /// True when `event_type` matches this pattern.
    pub fn matches(&self, event_type: &EventType) -> bool {
        match self {
            Self::Any => true,
            Self::Below(prefix) => event_type
                .as_str()
                .strip_prefix(prefix.as_str())
                .is_some_and(|rest| rest.len() > 1 && rest.starts_with('.')),
            Self::Exact(t) => t == event_type,
        }
    }

    /// For `prefix.*`: the types it matches as a range of byte strings,
    /// both ends excluded — above `prefix.` and below `prefix/` (`/` follows
    /// `.`). A host that keeps types in an ordered column reads them as that
    /// range, without a `LIKE` pattern (whose length a host may limit, and
    /// in which `_` is a wildcard).
    pub fn below_range(&self) -> Option<(String, String)> {
        match self {
            Self::Below(prefix) => Some((format!("{prefix}."), format!("{prefix}/"))),
            _ => None,
        }
    }
}

impl FromStr for EventPattern {
    type Err = EventTypeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "*" {
            return Ok(Self::Any);
        }
        if let Some(prefix) = s.strip_suffix(".*") {
            // A prefix is valid when `prefix.x` would be a valid type.
            format!("{prefix}.x").parse::<EventType>()?;
            return Ok(Self::Below(prefix.to_owned()));
        }
        Ok(Self::Exact(s.parse()?))
    }
}

serde_as_text!(EventPattern);

impl fmt::Display for EventPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Any => f.write_str("*"),
            Self::Below(prefix) => write!(f, "{prefix}.*"),
            Self::Exact(t) => write!(f, "{t}"),
        }
    }
}

/// The core event types of ONM appendix B, plus the few this network adds
/// (challenges, invitations, groups), all in the reserved `network.*` namespace.
pub mod core_types {
    /// An agent asks to join.
    pub const AGENT_JOIN: &str = "network.agent.join";
    /// An agent leaves.
    pub const AGENT_LEAVE: &str = "network.agent.leave";
    /// An agent asks for the roster.
    pub const AGENT_DISCOVER: &str = "network.agent.discover";
    /// The network's roster answer.
    pub const AGENT_DISCOVER_RESPONSE: &str = "network.agent.discover.response";
    /// An agent announces itself to everyone.
    pub const AGENT_ANNOUNCE: &str = "network.agent.announce";
    /// A member replaces its profile (description, meta, listing opt-in).
    pub const AGENT_PROFILE: &str = "network.agent.profile";
    /// A registered agent asks for a nonce to prove its key (level 1).
    pub const AGENT_CHALLENGE: &str = "network.agent.challenge";
    /// The network's nonce.
    pub const AGENT_CHALLENGE_RESPONSE: &str = "network.agent.challenge.response";
    /// A member asks to be sent again everything after `payload.after` (gap repair).
    pub const AGENT_RESUME: &str = "network.agent.resume";
    /// A member invites someone to an invite-only network.
    pub const AGENT_INVITE: &str = "network.agent.invite";
    /// Create a channel.
    pub const CHANNEL_CREATE: &str = "network.channel.create";
    /// Delete a channel.
    pub const CHANNEL_DELETE: &str = "network.channel.delete";
    /// Join a channel.
    pub const CHANNEL_JOIN: &str = "network.channel.join";
    /// Leave a channel.
    pub const CHANNEL_LEAVE: &str = "network.channel.leave";
    /// Create or replace a group (masters).
    pub const GROUP_UPDATE: &str = "network.group.update";
    /// Delete a group (masters).
    pub const GROUP_DELETE: &str = "network.group.delete";
    /// Sets or clears the bridge to another network (masters only).
    pub const BRIDGE_UPDATE: &str = "network.bridge.update";
    /// Register a shared resource.
    pub const RESOURCE_REGISTER: &str = "network.resource.register";
    /// Remove a shared resource.
    pub const RESOURCE_UNREGISTER: &str = "network.resource.unregister";
    /// List resources.
    pub const RESOURCE_DISCOVER: &str = "network.resource.discover";
    /// The network's resource list.
    pub const RESOURCE_DISCOVER_RESPONSE: &str = "network.resource.discover.response";
    /// Call a tool.
    pub const RESOURCE_INVOKE: &str = "network.resource.invoke";
    /// A tool's result, from its owner.
    pub const RESOURCE_INVOKE_RESULT: &str = "network.resource.invoke.result";
    /// Read a file or context.
    pub const RESOURCE_READ: &str = "network.resource.read";
    /// The network's answer to a read.
    pub const RESOURCE_READ_RESPONSE: &str = "network.resource.read.response";
    /// Update a resource.
    pub const RESOURCE_UPDATE: &str = "network.resource.update";
    /// Health check.
    pub const PING: &str = "network.ping";
    /// Health answer from `core`.
    pub const PONG: &str = "network.pong";
    /// Delivery or acceptance acknowledgement.
    pub const EVENT_ACK: &str = "network.event.ack";
    /// Error notification from `core`.
    pub const EVENT_ERROR: &str = "network.event.error";
    /// Ask for event history.
    pub const EVENTS_QUERY: &str = "network.events.query";
    /// The history answer.
    pub const EVENTS_RESPONSE: &str = "network.events.response";
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn accepts_hierarchical_types() {
        for t in [
            "workspace.message.posted",
            "network.agent.join",
            "acme.billing.invoice.created",
            "a.b",
        ] {
            assert_eq!(t.parse::<EventType>().unwrap().as_str(), t);
        }
        assert!("network.ping".parse::<EventType>().unwrap().is_core());
        assert!(!"networks.ping".parse::<EventType>().unwrap().is_core());
    }

    #[test]
    fn rejects_with_reason() {
        assert_eq!(
            "ping".parse::<EventType>(),
            Err(EventTypeError::TooFewSegments)
        );
        assert_eq!(
            "a..b".parse::<EventType>(),
            Err(EventTypeError::EmptySegment)
        );
        assert_eq!("".parse::<EventType>(), Err(EventTypeError::EmptySegment));
        assert_eq!(
            "A.b".parse::<EventType>(),
            Err(EventTypeError::Character('A'))
        );
        assert_eq!(
            format!("a.{}", "b".repeat(300)).parse::<EventType>(),
            Err(EventTypeError::TooLong)
        );
    }

    #[test]
    fn patterns_match_as_mods_expect() {
        let t = |s: &str| s.parse::<EventType>().unwrap();
        let p = |s: &str| s.parse::<EventPattern>().unwrap();
        assert!(p("*").matches(&t("a.b")));
        assert!(p("workspace.message.*").matches(&t("workspace.message.posted")));
        assert!(p("workspace.message.*").matches(&t("workspace.message.status.changed")));
        assert!(!p("workspace.message.*").matches(&t("workspace.message")));
        assert!(!p("workspace.message.*").matches(&t("workspace.messages.posted")));
        assert!(p("workspace.*").matches(&t("workspace.message")));
        assert!(p("a.b").matches(&t("a.b")));
        assert!(!p("a.b").matches(&t("a.b.c")));
        assert_eq!(
            "bad pattern".parse::<EventPattern>(),
            Err(EventTypeError::Character(' '))
        );
        assert_eq!(p("workspace.message.*").to_string(), "workspace.message.*");
    }

    proptest! {
        /// A type is in a prefix's range exactly when the prefix matches it.
        #[test]
        fn the_range_of_a_prefix_is_what_it_matches(
            prefix in "[a-z_-]{1,3}(\\.[a-z0-9_-]{1,3}){0,2}",
            kind in "[a-z_-]{1,3}(\\.[a-z0-9_/-]{0,3}){1,4}",
        ) {
            let pattern: EventPattern = format!("{prefix}.*").parse().unwrap();
            let (above, below) = pattern.below_range().unwrap();
            if let Ok(kind) = format!("{prefix}{}", &kind[kind.find('.').unwrap_or(0)..]).parse::<EventType>() {
                let in_range = kind.as_str() > above.as_str() && kind.as_str() < below.as_str();
                prop_assert_eq!(in_range, pattern.matches(&kind), "{}", kind);
            }
            if let Ok(other) = kind.parse::<EventType>() {
                let in_range = other.as_str() > above.as_str() && other.as_str() < below.as_str();
                prop_assert_eq!(in_range, pattern.matches(&other), "{}", other);
            }
        }

        #[test]
        fn parse_never_panics_and_round_trips(s in "\\PC{0,40}") {
            if let Ok(t) = s.parse::<EventType>() {
                prop_assert_eq!(t.to_string(), s);
            }
        }
    }
}
