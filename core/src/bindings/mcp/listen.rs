//! `GET` and `DELETE` on the endpoint (legacy revisions only; 2026-07-28
//! has neither, so they answer `405` there).
//!
//! `GET` opens the session's notification stream — or, with
//! `Last-Event-ID`, resumes the stream that id belongs to: what it sent
//! after that id first, then the rest as it comes. An id of no stream of
//! this session opens a fresh notification stream. `DELETE` ends the
//! session and closes its streams.

use super::envelope::VERSION_HEADER;
use super::outcome::{Outcome, accepts_sse};
use super::revision::Revision;
use super::session::{McpHost, SESSION_HEADER, Session, session_of};
use super::streams::{StreamSpec, Streams, new_id};
use crate::Address;
use crate::bindings::jsonrpc::{self, Code, RpcError};
use crate::bindings::message::{Request, Response};
use crate::bindings::step::go_on;

fn not_allowed(what: &str) -> Outcome {
    let error = RpcError::new(Code::InvalidRequest, format!("Method Not Allowed: {what}"));
    let body = jsonrpc::error(None, &error);
    let mut response = Response::json(body).with_status(405);
    response.headers.push(("Allow".into(), "POST".into()));
    Outcome::Respond(response)
}

fn modern(req: &Request) -> bool {
    req.header(SESSION_HEADER).is_none()
        && req
            .header(VERSION_HEADER)
            .and_then(|v| Revision::parse(v.trim()))
            .is_some_and(Revision::is_modern)
}

/// What a legacy client asks of its session besides a `POST`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// `GET`: the session's notification stream, or a resumed stream.
    Listen,
    /// `DELETE`: the session ends.
    End,
}

/// Answers `ask` of the session `req` names, as `member`: refused in
/// 2026-07-28, which has neither; a `GET` that does not accept
/// `text/event-stream` is refused before its session is looked up.
pub fn answer<H: McpHost>(
    host: &mut H,
    streams: &mut Streams,
    req: &Request,
    member: &Address,
    ask: Ask,
) -> Result<Outcome, H::Error> {
    if modern(req) {
        return Ok(not_allowed(match ask {
            Ask::Listen => "revision 2026-07-28 has no GET stream; use subscriptions/listen",
            Ask::End => "revision 2026-07-28 has no sessions",
        }));
    }
    if ask == Ask::Listen && !accepts_sse(req) {
        let error = RpcError::new(
            Code::InvalidRequest,
            "Not Acceptable: accept text/event-stream",
        );
        let body = jsonrpc::error(None, &error);
        return Ok(Outcome::Respond(Response::json(body).with_status(406)));
    }
    let session = go_on!(session_of(host, req, member), Outcome::Respond);
    match ask {
        Ask::Listen => Ok(listen(host, streams, req, member, &session)),
        Ask::End => {
            host.end_mcp_session(&session.id)?;
            Ok(Outcome::Ended {
                streams: streams.end_session(&session.id),
                response: Response::text(""),
            })
        }
    }
}

/// The session's notification stream, or the stream `Last-Event-ID` resumes.
fn listen<H: McpHost>(
    host: &mut H,
    streams: &mut Streams,
    req: &Request,
    member: &Address,
    session: &Session,
) -> Outcome {
    let now = host.now();
    if let Some(resumed) = req
        .header("Last-Event-ID")
        .and_then(|last| streams.resume(&session.id, last, now))
    {
        return Outcome::Stream {
            stream: resumed.stream,
            opening: resumed.records,
            waits: Vec::new(),
            closes: resumed.done,
        };
    }
    let stream = new_id(&host.random_seed());
    let opening = streams.open(&stream, StreamSpec::notifications(session, member), now);
    Outcome::listening(stream, opening)
}
