//! The MCP protocol revisions this server speaks, and what differs between them.
//!
//! * 2025-03-26, 2025-06-18 and 2025-11-25 (the *legacy* era) open a session
//!   with `initialize`; the server answers with the requested revision when
//!   it speaks it, else with [`Revision::LATEST_LEGACY`].
//! * 2026-07-28 (the *modern* era) has no handshake and no session: every
//!   request names its revision in `_meta` ([`super::envelope`]).
//!
//! Each revision answers in its own shapes: batches only in 2025-03-26;
//! `title` and `structuredContent` from 2025-06-18; `resultType`, caching
//! hints and any JSON as `structuredContent` from 2026-07-28; a resource
//! that is not there is -32002 up to 2025-11-25 and -32602 after.

use super::errors::McpError;
use crate::bindings::jsonrpc::{Code, RpcCode};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A protocol revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Revision {
    /// 2025-03-26: Streamable HTTP, batches.
    #[serde(rename = "2025-03-26")]
    V2025_03_26,
    /// 2025-06-18: no batches; titles, structured tool output, the protocol-version header.
    #[serde(rename = "2025-06-18")]
    V2025_06_18,
    /// 2025-11-25: icons, SSE polling (priming events).
    #[serde(rename = "2025-11-25")]
    V2025_11_25,
    /// 2026-07-28: stateless, per-request `_meta`, `server/discover`, `subscriptions/listen`.
    #[serde(rename = "2026-07-28")]
    V2026_07_28,
}

impl Revision {
    /// Every revision, newest first.
    pub const ALL: [Revision; 4] = [
        Self::V2026_07_28,
        Self::V2025_11_25,
        Self::V2025_06_18,
        Self::V2025_03_26,
    ];
    /// The newest revision with an `initialize` handshake.
    pub const LATEST_LEGACY: Revision = Self::V2025_11_25;
    /// The revision of a legacy request that names none (the transport's default).
    pub const DEFAULT_LEGACY: Revision = Self::V2025_03_26;

    /// The revision's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V2025_03_26 => "2025-03-26",
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2026_07_28 => "2026-07-28",
        }
    }

    /// The revision named `text`, if this server speaks it.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == text)
    }

    /// The names of every revision, newest first (`supportedVersions`).
    pub fn supported() -> Vec<&'static str> {
        Self::ALL.into_iter().map(Self::as_str).collect()
    }

    /// The revision an `initialize` asking for `requested` gets: that one when
    /// it is a legacy revision this server speaks, else the latest legacy one.
    pub fn negotiate(requested: &str) -> Self {
        match Self::parse(requested) {
            Some(revision) if !revision.is_modern() => revision,
            _ => Self::LATEST_LEGACY,
        }
    }

    /// Stateless, with per-request metadata (2026-07-28 on).
    pub fn is_modern(self) -> bool {
        self >= Self::V2026_07_28
    }

    /// A POST body may be a JSON-RPC batch (2025-03-26 only).
    pub fn allows_batches(self) -> bool {
        self == Self::V2025_03_26
    }

    /// Names may have a display `title`; tool results carry `structuredContent`.
    pub fn has_titles_and_structure(self) -> bool {
        self >= Self::V2025_06_18
    }

    /// `structuredContent` may be any JSON, not only an object.
    pub fn structure_may_be_any_json(self) -> bool {
        self.is_modern()
    }

    /// Results carry `resultType`, server identity in `_meta` and caching hints.
    pub fn marks_results(self) -> bool {
        self.is_modern()
    }

    /// A request's SSE stream starts with an event that has an id and no data.
    pub fn primes_streams(self) -> bool {
        self == Self::V2025_11_25
    }

    /// Streams have event ids and resume with `Last-Event-ID`.
    pub fn resumable(self) -> bool {
        !self.is_modern()
    }

    /// A session may be asked for input with `elicitation/create` on its
    /// `GET` stream (2025-06-18 and 2025-11-25: 2026-07-28 asks only within
    /// the client's own request, and 2025-03-26 has no elicitation).
    pub fn elicits_in_sessions(self) -> bool {
        self >= Self::V2025_06_18 && !self.is_modern()
    }

    /// Elicitation has modes (`form`, `url`), enum options with titles and
    /// field defaults (2025-11-25 on).
    pub fn elicitation_modes(self) -> bool {
        self >= Self::V2025_11_25
    }

    /// The error code of a resource that is not there.
    pub fn resource_not_found(self) -> i64 {
        if self.is_modern() {
            Code::InvalidParams.code()
        } else {
            McpError::ResourceNotFound.code()
        }
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order_by_date() {
        for revision in Revision::ALL {
            assert_eq!(Revision::parse(revision.as_str()), Some(revision));
            let json = serde_json::to_value(revision).unwrap();
            assert_eq!(json, revision.as_str());
        }
        assert!(Revision::V2025_03_26 < Revision::V2026_07_28);
        assert_eq!(Revision::parse("2024-11-05"), None);
        assert_eq!(
            Revision::supported(),
            ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]
        );
    }

    #[test]
    fn initialize_gets_the_asked_legacy_revision_or_the_latest() {
        assert_eq!(Revision::negotiate("2025-06-18"), Revision::V2025_06_18);
        assert_eq!(Revision::negotiate("2025-03-26"), Revision::V2025_03_26);
        assert_eq!(Revision::negotiate("2024-11-05"), Revision::V2025_11_25);
        assert_eq!(Revision::negotiate("2026-07-28"), Revision::V2025_11_25);
        assert_eq!(Revision::negotiate(""), Revision::V2025_11_25);
    }

    #[test]
    fn each_revision_has_its_features() {
        use Revision::*;
        let batches: Vec<_> = Revision::ALL
            .into_iter()
            .filter(|r| r.allows_batches())
            .collect();
        assert_eq!(batches, [V2025_03_26]);
        assert!(!V2025_03_26.has_titles_and_structure() && V2025_06_18.has_titles_and_structure());
        assert!(V2026_07_28.is_modern() && !V2025_11_25.is_modern());
        assert!(V2025_11_25.primes_streams() && !V2025_06_18.primes_streams());
        assert!(!V2026_07_28.resumable() && V2025_03_26.resumable());
        assert_eq!(V2025_11_25.resource_not_found(), -32002);
        assert_eq!(V2026_07_28.resource_not_found(), -32602);
    }
}
