//! Stable error codes shared by every host.
//!
//! Each failure the core can report has an [`ErrorCode`] whose string form
//! (`ErrorCode::as_str`) is part of the wire protocol: it travels in the
//! payload of `network.event.error` events and in HTTP error bodies, so it
//! never changes once released. Human-readable detail lives in the message.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Every stable error code the protocol defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ErrorCode {
    /// A frame or body is not valid JSON or not an event envelope.
    MalformedEvent,
    /// An address failed to parse.
    InvalidAddress,
    /// An event type failed to parse.
    InvalidEventType,
    /// An event id is not a ULID.
    InvalidEventId,
    /// A network id failed to parse.
    InvalidNetworkId,
    /// The payload, metadata or type exceeds the network's limits.
    TooLarge,
    /// The sender has not joined the network on this connection.
    NotJoined,
    /// The HTTP session has expired (unused too long, or too old): join again.
    SessionExpired,
    /// The event's `source` is not the authenticated member's address.
    SourceMismatch,
    /// The sender may not emit this event type (reserved `network.*` responses).
    ReservedType,
    /// The event names a different network than the one it was sent to.
    WrongNetwork,
    /// The target does not exist in this network.
    UnknownTarget,
    /// The target lives in another network and no bridge is configured.
    CrossNetwork,
    /// Joining was refused by the access policy or credentials.
    AccessDenied,
    /// The member's role does not allow the operation (e.g. observers emitting).
    Forbidden,
    /// The network is paused or archived.
    NetworkUnavailable,
    /// The network does not exist.
    NotFound,
    /// A request's payload is missing fields or has wrong values.
    InvalidRequest,
    /// The thing to create exists already.
    AlreadyExists,
    /// The address is held by a member: rejoining it needs that member's
    /// credential (`credentials.member_secret`, a key proof or the admin token).
    AddressInUse,
    /// The owner of the resource is not connected.
    OwnerOffline,
    /// The source sends faster than the network allows.
    RateLimited,
    /// A member holds as many of something as the network allows one member
    /// (open event streams, sessions of one document); it must close one first.
    LimitReached,
    /// A key proof failed: bad signature, unknown, expired or reused nonce.
    VerificationFailed,
    /// The network does not offer this feature (e.g. history without mod/persistence).
    NotSupported,
    /// No answer arrived in time (request/reply correlation).
    Timeout,
    /// The HTTP method is not one the route takes.
    MethodNotAllowed,
    /// The route takes only a WebSocket upgrade.
    UpgradeRequired,
    /// A task cannot make this state change (ACPs AIP's transitions).
    InvalidTransition,
    /// An `allowed_origins` entry is not `*` or a web origin (`https://host[:port]`).
    InvalidOrigin,
    /// A `refs.messages` parent is not a message of the event's channel.
    UnknownParent,
    /// A `refs.nodes` recipient is not a member of the network.
    UnknownRecipient,
    /// The host failed on its side (storage, a missing answer); nothing the caller sent is at fault.
    Internal,
    /// A master banned this address from the network: it may not join again.
    Banned,
    /// A guard mod written by a developer (an agent installed as a mod) rejected the event.
    RejectedByMod,
    /// An agent installed as a fail-closed mod was offline or gave no verdict in time.
    ModUnavailable,
    /// The task's partner said it takes no tasks (its profile's `tasks` is false).
    TakesNoTasks,
    /// A search text is empty, too long, has too many words or a control
    /// character (`network.events.query`'s `text`).
    InvalidSearch,
    /// The network's file storage is full (its quota): nothing more is
    /// stored until files are deleted or the quota is raised.
    StorageFull,
}

impl ErrorCode {
    /// The stable wire form of this code.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::MalformedEvent => "malformed_event",
            Self::InvalidAddress => "invalid_address",
            Self::InvalidEventType => "invalid_event_type",
            Self::InvalidEventId => "invalid_event_id",
            Self::InvalidNetworkId => "invalid_network_id",
            Self::TooLarge => "too_large",
            Self::NotJoined => "not_joined",
            Self::SessionExpired => "session_expired",
            Self::SourceMismatch => "source_mismatch",
            Self::ReservedType => "reserved_type",
            Self::WrongNetwork => "wrong_network",
            Self::UnknownTarget => "unknown_target",
            Self::CrossNetwork => "cross_network",
            Self::AccessDenied => "access_denied",
            Self::Forbidden => "forbidden",
            Self::NetworkUnavailable => "network_unavailable",
            Self::NotFound => "not_found",
            Self::InvalidRequest => "invalid_request",
            Self::AlreadyExists => "already_exists",
            Self::AddressInUse => "address_in_use",
            Self::OwnerOffline => "owner_offline",
            Self::RateLimited => "rate_limited",
            Self::LimitReached => "limit_reached",
            Self::VerificationFailed => "verification_failed",
            Self::NotSupported => "not_supported",
            Self::Timeout => "timeout",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::UpgradeRequired => "upgrade_required",
            Self::InvalidTransition => "invalid_transition",
            Self::InvalidOrigin => "invalid_origin",
            Self::UnknownParent => "unknown_parent",
            Self::UnknownRecipient => "unknown_recipient",
            Self::Internal => "internal",
            Self::Banned => "banned",
            Self::RejectedByMod => "rejected_by_mod",
            Self::ModUnavailable => "mod_unavailable",
            Self::TakesNoTasks => "takes_no_tasks",
            Self::InvalidSearch => "invalid_search",
            Self::StorageFull => "storage_full",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Anything in the core that can carry a stable code.
pub trait Coded {
    /// The stable code for this error.
    fn code(&self) -> ErrorCode;
}

/// A protocol-level rejection: a code and a message for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{code}: {message}")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Rejection {
    /// Stable machine-readable code.
    pub code: ErrorCode,
    /// Explanation for people.
    pub message: String,
}

impl Rejection {
    /// A rejection with the given code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

impl Rejection {
    /// Reads `{code, message}` from a `network.event.error` payload; an unknown
    /// code reads as `malformed_event` so a newer network never breaks a client.
    pub fn from_error_payload(payload: &serde_json::Value) -> Self {
        let code = payload
            .get("code")
            .cloned()
            .and_then(|c| serde_json::from_value::<ErrorCode>(c).ok())
            .unwrap_or(ErrorCode::MalformedEvent);
        let message = payload
            .get("message")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("");
        Self::new(code, message)
    }
}

impl<E: Coded + fmt::Display> From<&E> for Rejection {
    fn from(err: &E) -> Self {
        Self::new(err.code(), err.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_form_equals_as_str() {
        for code in [
            ErrorCode::MalformedEvent,
            ErrorCode::SourceMismatch,
            ErrorCode::SessionExpired,
            ErrorCode::CrossNetwork,
            ErrorCode::NetworkUnavailable,
            ErrorCode::MethodNotAllowed,
            ErrorCode::UpgradeRequired,
            ErrorCode::LimitReached,
            ErrorCode::InvalidOrigin,
            ErrorCode::Internal,
            ErrorCode::InvalidSearch,
            ErrorCode::StorageFull,
        ] {
            let json = serde_json::to_string(&code).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }
}
