//! The two A2A generations and their method names.
//!
//! A request's `A2A-Version` header (or `?A2A-Version=`) picks the
//! generation: `1.0` (PascalCase methods, ProtoJSON enums, cards with
//! `supportedInterfaces`) or `0.3` (slash-separated methods, `kind`-tagged
//! objects, cards with `url`). An empty or absent version is 0.3, as the
//! specification says (§3.6.2); any other is refused (`-32009`).

use crate::bindings::message::Request;

/// A2A's own JSON-RPC errors (A2A 1.0 §9.5): their codes and the
/// `google.rpc.ErrorInfo` reasons they are sent with ([`super::errors`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A2aError {
    /// `TaskNotFoundError`.
    TaskNotFound,
    /// `TaskNotCancelableError`.
    TaskNotCancelable,
    /// `PushNotificationNotSupportedError`.
    PushNotSupported,
    /// `UnsupportedOperationError`.
    UnsupportedOperation,
    /// `ContentTypeNotSupportedError`.
    ContentTypeNotSupported,
    /// `InvalidAgentResponseError`.
    InvalidAgentResponse,
    /// `ExtendedAgentCardNotConfiguredError`.
    ExtendedCardNotConfigured,
    /// `ExtensionSupportRequiredError`.
    ExtensionSupportRequired,
    /// `VersionNotSupportedError`.
    VersionNotSupported,
}

impl A2aError {
    /// Every A2A error.
    pub const ALL: [Self; 9] = [
        Self::TaskNotFound,
        Self::TaskNotCancelable,
        Self::PushNotSupported,
        Self::UnsupportedOperation,
        Self::ContentTypeNotSupported,
        Self::InvalidAgentResponse,
        Self::ExtendedCardNotConfigured,
        Self::ExtensionSupportRequired,
        Self::VersionNotSupported,
    ];

    /// Its JSON-RPC error code.
    pub const fn code(self) -> i64 {
        match self {
            Self::TaskNotFound => -32001,
            Self::TaskNotCancelable => -32002,
            Self::PushNotSupported => -32003,
            Self::UnsupportedOperation => -32004,
            Self::ContentTypeNotSupported => -32005,
            Self::InvalidAgentResponse => -32006,
            Self::ExtendedCardNotConfigured => -32007,
            Self::ExtensionSupportRequired => -32008,
            Self::VersionNotSupported => -32009,
        }
    }

    /// Its `ErrorInfo` reason: the error type in UPPER_SNAKE_CASE without `Error`.
    pub const fn reason(self) -> &'static str {
        match self {
            Self::TaskNotFound => "TASK_NOT_FOUND",
            Self::TaskNotCancelable => "TASK_NOT_CANCELABLE",
            Self::PushNotSupported => "PUSH_NOTIFICATION_NOT_SUPPORTED",
            Self::UnsupportedOperation => "UNSUPPORTED_OPERATION",
            Self::ContentTypeNotSupported => "CONTENT_TYPE_NOT_SUPPORTED",
            Self::InvalidAgentResponse => "INVALID_AGENT_RESPONSE",
            Self::ExtendedCardNotConfigured => "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
            Self::ExtensionSupportRequired => "EXTENSION_SUPPORT_REQUIRED",
            Self::VersionNotSupported => "VERSION_NOT_SUPPORTED",
        }
    }

    /// The A2A error of `code`, if it is one.
    pub fn of(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.code() == code)
    }
}

impl crate::bindings::jsonrpc::RpcCode for A2aError {
    fn code(self) -> i64 {
        A2aError::code(self)
    }
}

/// An A2A protocol generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// A2A 1.0.
    V1,
    /// A2A 0.3.
    V03,
}

impl Version {
    /// The version a request asks for, or the one it named that is not supported.
    pub fn of(req: &Request) -> Result<Self, String> {
        let asked = req
            .header("A2A-Version")
            .map(str::to_owned)
            .or_else(|| req.query("A2A-Version"))
            .unwrap_or_default();
        let asked = asked.trim();
        match asked {
            "" | "0.3" | "0.3.0" => Ok(Self::V03),
            "1.0" | "1.0.0" => Ok(Self::V1),
            other => Err(other.to_owned()),
        }
    }

    /// `Major.Minor` as written in cards and headers.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V1 => "1.0",
            Self::V03 => "0.3",
        }
    }
}

/// What a JSON-RPC method asks for, in either generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// `SendMessage` / `message/send`.
    Send,
    /// `SendStreamingMessage` / `message/stream`.
    Stream,
    /// `GetTask` / `tasks/get`.
    Get,
    /// `CancelTask` / `tasks/cancel`.
    Cancel,
    /// `ListTasks` (1.0 only).
    List,
    /// `SubscribeToTask` / `tasks/resubscribe`.
    Subscribe,
    /// The push notification configuration methods.
    PushConfig,
    /// `GetExtendedAgentCard` / `agent/getAuthenticatedExtendedCard`.
    ExtendedCard,
}

/// The operation `method` names in `version`, if any.
pub fn operation(version: Version, method: &str) -> Option<Operation> {
    use Operation::*;
    Some(match (version, method) {
        (Version::V1, "SendMessage") | (Version::V03, "message/send") => Send,
        (Version::V1, "SendStreamingMessage") | (Version::V03, "message/stream") => Stream,
        (Version::V1, "GetTask") | (Version::V03, "tasks/get") => Get,
        (Version::V1, "CancelTask") | (Version::V03, "tasks/cancel") => Cancel,
        (Version::V1, "ListTasks") => List,
        (Version::V1, "SubscribeToTask") | (Version::V03, "tasks/resubscribe") => Subscribe,
        (
            Version::V1,
            "CreateTaskPushNotificationConfig"
            | "GetTaskPushNotificationConfig"
            | "ListTaskPushNotificationConfigs"
            | "DeleteTaskPushNotificationConfig",
        ) => PushConfig,
        (Version::V03, m) if m.starts_with("tasks/pushNotificationConfig/") => PushConfig,
        (Version::V1, "GetExtendedAgentCard")
        | (Version::V03, "agent/getAuthenticatedExtendedCard") => ExtendedCard,
        _ => return None,
    })
}
