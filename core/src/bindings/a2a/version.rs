//! The two A2A generations and their method names.
//!
//! A request's `A2A-Version` header (or `?A2A-Version=`) picks the
//! generation: `1.0` (PascalCase methods, ProtoJSON enums, cards with
//! `supportedInterfaces`) or `0.3` (slash-separated methods, `kind`-tagged
//! objects, cards with `url`). An empty or absent version is 0.3, as the
//! specification says (§3.6.2); any other is refused (`-32009`).

use crate::bindings::message::Request;

/// `VersionNotSupportedError`.
pub const VERSION_NOT_SUPPORTED: i64 = -32009;
/// `TaskNotFoundError`.
pub const TASK_NOT_FOUND: i64 = -32001;
/// `TaskNotCancelableError`.
pub const TASK_NOT_CANCELABLE: i64 = -32002;
/// `PushNotificationNotSupportedError`.
pub const PUSH_NOT_SUPPORTED: i64 = -32003;
/// `UnsupportedOperationError`.
pub const UNSUPPORTED_OPERATION: i64 = -32004;

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
