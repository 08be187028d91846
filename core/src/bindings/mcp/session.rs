//! MCP sessions of the legacy revisions, and the host I/O they need.
//!
//! `initialize` (authenticated as a member) makes a [`Session`]: its id goes
//! back in `Mcp-Session-Id`, and every later request of the session must
//! send it with a bearer token of the same member. The host stores sessions
//! ([`McpHost`]) so they outlive the object's memory; `DELETE` ends one.
//! Revision 2026-07-28 has no sessions: each request stands alone.

use super::envelope::VERSION_HEADER;
use super::outcome::bad;
use super::revision::Revision;
use crate::Address;
use crate::bindings::jsonrpc::Code;
use crate::bindings::message::Request;
use crate::bindings::oauth::grants::OAuthHost;
use crate::bindings::step::Step;
use crate::crypto::to_hex;
use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;

/// The header that carries a session's id.
pub const SESSION_HEADER: &str = "Mcp-Session-Id";
/// Sessions one member keeps at most; the host drops the oldest beyond it.
pub const MAX_SESSIONS_PER_MEMBER: usize = 32;

/// One legacy MCP session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// Its id (64 hex characters).
    pub id: String,
    /// The member it acts as.
    pub member: Address,
    /// The revision `initialize` agreed on.
    pub revision: Revision,
    /// When it began.
    pub created: Timestamp,
    /// The client's `clientInfo`, as sent.
    #[serde(default)]
    pub client: Value,
    /// The resource URIs it subscribed to (`resources/subscribe`).
    #[serde(default)]
    pub subscriptions: BTreeSet<String>,
    /// Its client declared the `elicitation` capability in form mode, in a
    /// revision that has it ([`super::elicit::supports`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub elicits: bool,
    /// Its recent `tools/call`s, for retries ([`super::retries`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Call>,
}

impl Session {
    /// A new session of `member` with an id made from `seed`.
    pub fn new(
        seed: &[u8; 32],
        member: Address,
        revision: Revision,
        client: Value,
        now: Timestamp,
    ) -> Self {
        Self {
            id: to_hex(seed),
            member,
            revision,
            created: now,
            client,
            subscriptions: BTreeSet::new(),
            elicits: false,
            calls: Vec::new(),
        }
    }
}

/// What a session remembers of one `tools/call`, for retries ([`super::retries`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Call {
    /// The request id, as sent.
    pub request: Value,
    /// The SHA-256 (hex) of its params in RFC 8785 form: a retry is the same request.
    #[serde(default)]
    pub params: String,
    /// When it came.
    pub at: Timestamp,
    /// The tool invocation it waits for (event id, tool address), while running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoked: Option<(String, String)>,
    /// Its result, once answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// It answered with a result too large to keep.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dropped: bool,
}

impl Call {
    /// The bytes its kept result takes.
    pub(super) fn size(&self) -> usize {
        self.result.as_ref().map_or(0, |r| r.to_string().len())
    }
}

/// What MCP needs from a host besides [`OAuthHost`] (access tokens, and
/// through it [`BindingHost`](crate::bindings::BindingHost)): the session table.
pub trait McpHost: OAuthHost {
    /// The session with this id, if it exists.
    fn mcp_session(&mut self, id: &str) -> Result<Option<Session>, Self::Error>;
    /// Stores a session (new or changed), keeping at most
    /// [`MAX_SESSIONS_PER_MEMBER`] per member.
    fn save_mcp_session(&mut self, session: &Session) -> Result<(), Self::Error>;
    /// Ends a session; whether it existed.
    fn end_mcp_session(&mut self, id: &str) -> Result<bool, Self::Error>;
}

/// The legacy session a request names, or the answer that refuses it.
pub fn session_of<H: McpHost>(
    host: &mut H,
    req: &Request,
    member: &Address,
) -> Result<Step<Session>, H::Error> {
    let Some(id) = req.header(SESSION_HEADER).map(str::trim) else {
        return Ok(Step::Answer(bad(
            400,
            Code::InvalidRequest,
            "Bad Request: Mcp-Session-Id header is required",
        )));
    };
    let session = host.mcp_session(id)?.filter(|s| &s.member == member);
    let Some(session) = session else {
        return Ok(Step::Answer(bad(
            404,
            Code::InvalidRequest,
            "Session not found",
        )));
    };
    if let Some(header) = req.header(VERSION_HEADER).map(str::trim)
        && header != session.revision.as_str()
    {
        let message = format!(
            "Bad Request: MCP-Protocol-Version {header} is not this session's {}",
            session.revision
        );
        return Ok(Step::Answer(bad(400, Code::InvalidRequest, message)));
    }
    Ok(Step::Go(session))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_session_round_trips_as_stored() {
        let mut session = Session::new(
            &[0xab; 32],
            "agent:claude".parse().unwrap(),
            Revision::V2025_06_18,
            json!({"name": "c", "version": "1"}),
            Timestamp::from(5),
        );
        session
            .subscriptions
            .insert("openagents://n/resource/file/a.md".into());
        assert_eq!(session.id.len(), 64);
        assert!(session.id.bytes().all(|b| (0x21..=0x7e).contains(&b)));
        let stored = serde_json::to_string(&session).unwrap();
        assert_eq!(serde_json::from_str::<Session>(&stored).unwrap(), session);
    }
}
