//! Streamable HTTP at `/networks/{id}/mcp`: what each `POST`, `GET` and
//! `DELETE` means, in each revision, and what the host does to answer it.
//!
//! Every request passes the `Origin` check, then the bearer session
//! ([`super::access`]). A `POST` body over the network's frame limit is
//! refused (413) before it is parsed. Then:
//!
//! * **2026-07-28** (an envelope in `_meta`, or that `MCP-Protocol-Version`):
//!   one request per POST, checked by [`super::envelope`]; no session, no
//!   `GET` or `DELETE` (405); an unknown method is `404`;
//!   `subscriptions/listen` opens a notification stream.
//! * **Legacy**: `initialize` makes a session (`Mcp-Session-Id`); every other
//!   request names it (400 without, 404 for one this member does not hold)
//!   and may send `MCP-Protocol-Version`, which must be the session's.
//!   Batches only in 2025-03-26. `GET` opens the session's notification
//!   stream, or resumes a stream after `Last-Event-ID`; `DELETE` ends it.
//!
//! A client's response to the server's `elicitation/create` is its answer to
//! an approval ([`super::elicit_answer`]).
//!
//! A request whose answer waits ([`super::waiting`]) is answered on an SSE
//! stream when the client accepts one, else held as JSON. Notifications and
//! responses are `202`.

use super::access;
use super::caller::{Caller, MethodCall};
use super::envelope;
use super::listen::Ask;
use super::methods;
use super::outcome::{Answered, Outcome, accepted, accepts, answer, assemble, bad};
use super::revision::Revision;
use super::session::{McpHost, SESSION_HEADER, Session, session_of};
use super::streams::{StreamSpec, Streams, new_id};
use super::waiting::Reply;
use super::{elicit, elicit_answer, listen, modern, retries};
use crate::bindings::access::caller::{Caller as RequestCaller, Origins};
use crate::bindings::jsonrpc::{self, Body, Code, Id, Message, RpcError};
use crate::bindings::message::{Method, Request, Response};
use crate::bindings::step::go_on;
use crate::{Address, Network};
use serde_json::{Map, Value};

/// Answers an MCP request for the loaded `network` (`NetworkRoute::Mcp` of the route table).
pub fn handle<H: McpHost>(
    host: &mut H,
    network: &mut Network,
    streams: &mut Streams,
    req: &Request,
) -> Result<Outcome, H::Error> {
    network.traced(req.trace_context(), |network| {
        // The origin, then a DIDWba header joins its DID and continues as that
        // session (ANP servers answer with a bearer).
        let caller = go_on!(
            RequestCaller::resolve(host, network, req, Origins::Checked),
            Outcome::Respond
        );
        Ok(
            match handle_member(host, network, streams, caller.request())? {
                Outcome::Respond(response) => Outcome::Respond(caller.answer(response)),
                other => other,
            },
        )
    })
}

/// [`handle`] once any DIDWba header has been exchanged for a session.
fn handle_member<H: McpHost>(
    host: &mut H,
    network: &mut Network,
    streams: &mut Streams,
    req: &Request,
) -> Result<Outcome, H::Error> {
    let member = go_on!(access::present_member(host, network, req), Outcome::Respond);
    match &req.method {
        Method::Post => post(host, network, streams, req, &member),
        Method::Get => listen::answer(host, streams, req, &member, Ask::Listen),
        Method::Other(name) if name == "DELETE" => {
            listen::answer(host, streams, req, &member, Ask::End)
        }
        Method::Other(name) => {
            let mut response = bad(
                405,
                Code::InvalidRequest,
                format!("Method not allowed: {name}"),
            );
            response
                .headers
                .push(("Allow".into(), "GET, POST, DELETE".into()));
            Ok(Outcome::Respond(response))
        }
    }
}

fn post<H: McpHost>(
    host: &mut H,
    network: &mut Network,
    streams: &mut Streams,
    req: &Request,
    member: &Address,
) -> Result<Outcome, H::Error> {
    let (json, sse) = accepts(req);
    if !json && !sse {
        return Ok(Outcome::Respond(bad(
            406,
            Code::InvalidRequest,
            "Not Acceptable: accept application/json and text/event-stream",
        )));
    }
    let content_type = req.header("Content-Type").unwrap_or("application/json");
    if !content_type
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("application/json")
    {
        return Ok(Outcome::Respond(bad(
            415,
            Code::InvalidRequest,
            "Unsupported Media Type: send application/json",
        )));
    }
    if req.body.len() > network.config().limits.max_frame_bytes {
        let message = format!(
            "Request body too large: over {} bytes",
            network.config().limits.max_frame_bytes
        );
        return Ok(Outcome::Respond(bad(413, Code::InvalidRequest, message)));
    }
    let body = match jsonrpc::parse(&req.body) {
        Ok(body) => body,
        Err(refused) => {
            return Ok(Outcome::Respond(
                Response::json(refused.response()).with_status(400),
            ));
        }
    };
    match body {
        Body::Single(Message::Request { id, method, params })
            if envelope::is_modern(req, &params) =>
        {
            modern::request(host, network, streams, req, member, &id, &method, &params)
        }
        Body::Single(Message::Request { id, method, params }) if method == "initialize" => {
            initialize(host, network, member, &id, &params)
        }
        Body::Single(Message::Notification { params, .. }) if envelope::is_modern(req, &params) => {
            Ok(Outcome::Respond(accepted()))
        }
        Body::Single(Message::Response { .. }) if envelope::is_modern(req, &Map::new()) => {
            Ok(Outcome::Respond(accepted()))
        }
        Body::Batch(_)
            if envelope::is_modern(req, &Map::new()) || req.header(SESSION_HEADER).is_none() =>
        {
            Ok(Outcome::Respond(bad(
                400,
                Code::InvalidRequest,
                "Invalid Request: a batch needs a 2025-03-26 session",
            )))
        }
        body => {
            let session = go_on!(session_of(host, req, member), Outcome::Respond);
            let (items, batch) = match body {
                Body::Single(message) => (vec![Ok(message)], false),
                Body::Batch(_) if !session.revision.allows_batches() => {
                    let message = format!(
                        "Invalid Request: revision {} has no batches",
                        session.revision
                    );
                    return Ok(Outcome::Respond(bad(400, Code::InvalidRequest, message)));
                }
                Body::Batch(items) => (items, true),
            };
            legacy(
                host,
                network,
                streams,
                member,
                session,
                items,
                batch,
                (json, sse),
            )
        }
    }
}

fn initialize<H: McpHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    id: &Id,
    params: &Map<String, Value>,
) -> Result<Outcome, H::Error> {
    let Some(requested) = params.get("protocolVersion").and_then(Value::as_str) else {
        let error = RpcError::invalid_params("Invalid params: protocolVersion must be a string");
        return Ok(Outcome::Respond(Response::json(jsonrpc::error(
            Some(id),
            &error,
        ))));
    };
    let revision = Revision::negotiate(requested);
    let client = params.get("clientInfo").cloned().unwrap_or(Value::Null);
    let mut session = Session::new(
        &host.random_seed(),
        member.clone(),
        revision,
        client,
        host.now(),
    );
    session.elicits = elicit::supports(revision, params.get("capabilities"));
    host.save_mcp_session(&session)?;
    let result = methods::initialize_result(network, member, revision);
    let mut response = Response::json(jsonrpc::result(id, result));
    response.headers.push((SESSION_HEADER.into(), session.id));
    Ok(Outcome::Respond(response))
}

#[allow(clippy::too_many_arguments)]
fn legacy<H: McpHost>(
    host: &mut H,
    network: &mut Network,
    streams: &mut Streams,
    member: &Address,
    mut session: Session,
    items: Vec<Result<Message, jsonrpc::Refused>>,
    batch: bool,
    (json, sse): (bool, bool),
) -> Result<Outcome, H::Error> {
    let (mut ready, mut waits, mut requests) = (Vec::new(), Vec::new(), 0);
    let mut cancel = None;
    for item in items {
        let (id, method, params) = match item {
            Err(refused) => {
                ready.push(refused.response());
                continue;
            }
            Ok(Message::Notification { method, params }) => {
                if method == "notifications/cancelled"
                    && let Some(request) = params.get("requestId").and_then(Id::from_value)
                {
                    cancel = Some(request);
                }
                continue;
            }
            Ok(Message::Response { id, result }) => {
                // An answer to an approval's elicitation is the member's decision;
                // the network's refusal (decided already, expired) ends it there.
                if let Some(asked) = elicit::Asked::from_id(&id) {
                    elicit_answer::answer(host, network, member, &asked, result.as_ref())?;
                }
                continue;
            }
            Ok(Message::Request { id, method, params }) => (id, method, params),
        };
        requests += 1;
        let caller = Caller {
            member,
            revision: session.revision,
            request: &id,
            session: Some(&session.id),
        };
        let reply = match method.as_str() {
            "initialize" => Reply::Error(RpcError::new(
                Code::InvalidRequest,
                "Invalid Request: the session is initialized already",
            )),
            "resources/subscribe" | "resources/unsubscribe" => {
                match super::resources::subscription(network, &caller, &params) {
                    Ok((uri, result)) => {
                        if method == "resources/subscribe" {
                            session.subscriptions.insert(uri);
                        } else {
                            session.subscriptions.remove(&uri);
                        }
                        host.save_mcp_session(&session)?;
                        streams.subscriptions_changed(&session.id, &session.subscriptions);
                        Reply::Result(result)
                    }
                    Err(error) => Reply::Error(error),
                }
            }
            // A retry of a call of this session gets the first call's answer.
            "tools/call" => match retries::replay(&session, (&id, &params), member, host.now()) {
                Some(reply) => reply,
                None => {
                    let call = MethodCall {
                        host,
                        network,
                        caller: &caller,
                    };
                    let reply = methods::call(call, &method, &params)?;
                    if retries::note(&mut session, (&id, &params), &reply, host.now()) {
                        host.save_mcp_session(&session)?;
                    }
                    reply
                }
            },
            _ => {
                let call = MethodCall {
                    host,
                    network,
                    caller: &caller,
                };
                methods::call(call, &method, &params)?
            }
        };
        match answer(&id, reply) {
            Answered::Now(value) => ready.push(value),
            Answered::Later(waiting) => waits.push(waiting),
        }
    }
    if requests == 0 && ready.is_empty() {
        return Ok(match cancel {
            Some(request) => Outcome::Cancel {
                member: member.clone(),
                request,
            },
            None => Outcome::Respond(accepted()),
        });
    }
    if waits.is_empty() && (json || ready.is_empty()) {
        return Ok(Outcome::Respond(assemble(ready, batch)));
    }
    if !sse {
        return Ok(Outcome::Hold {
            ready,
            waits,
            batch,
        });
    }
    let stream = new_id(&host.random_seed());
    let spec = StreamSpec::request(Some(session.id.clone()), member, session.revision);
    let mut opening = streams.open(&stream, spec, host.now());
    opening.extend(
        ready
            .iter()
            .filter_map(|value| streams.record(&stream, value)),
    );
    Ok(Outcome::Stream {
        closes: true,
        stream,
        opening,
        waits,
    })
}
