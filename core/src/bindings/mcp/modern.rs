//! One request of revision 2026-07-28: stateless, checked against its
//! envelope and headers, answered on its own (a JSON object or an SSE
//! stream scoped to it); `subscriptions/listen` opens a notification stream.
//!
//! Statuses: envelope failures are `400` ([`super::envelope`]), a method
//! this server does not offer `404`; other answers `200`.

use super::caller::{Caller, MethodCall};
use super::envelope;
use super::methods;
use super::notices::{Filter, acknowledged};
use super::outcome::{Answered, Outcome, accepts_sse, answer, bad};
use super::session::McpHost;
use super::streams::Streams;
use super::streams::{StreamSpec, new_id};
use super::waiting::Reply;
use super::waiting::Waiting;
use crate::bindings::jsonrpc::{self, Code, Id, RpcError};
use crate::bindings::message::{Request, Response};
use crate::{Address, Network};
use serde_json::{Map, Value};

/// Answers a modern request.
#[allow(clippy::too_many_arguments)]
pub fn request<H: McpHost>(
    host: &mut H,
    network: &mut Network,
    streams: &mut Streams,
    req: &Request,
    member: &Address,
    id: &Id,
    method: &str,
    params: &Map<String, Value>,
) -> Result<Outcome, H::Error> {
    let revision = match envelope::check(req, method, params) {
        Ok(revision) => revision,
        Err(error) => {
            return Ok(Outcome::Respond(
                Response::json(jsonrpc::error(Some(id), &error)).with_status(400),
            ));
        }
    };
    if method == "subscriptions/listen" {
        return listen(host, streams, member, id, params, accepts_sse(req));
    }
    let caller = Caller {
        member,
        revision,
        request: id,
        session: None,
    };
    let call = MethodCall {
        host,
        network,
        caller: &caller,
    };
    let reply = methods::call(call, method, params)?;
    let not_found = matches!(&reply, Reply::Error(e) if e.is(Code::MethodNotFound));
    Ok(match answer(id, reply) {
        Answered::Now(value) => {
            Outcome::Respond(Response::json(value).with_status(if not_found { 404 } else { 200 }))
        }
        Answered::Later(waiting) => {
            waiting_answer(host, streams, member, waiting, accepts_sse(req))
        }
    })
}

/// Opens a `subscriptions/listen` stream (2026-07-28).
fn listen<H: McpHost>(
    host: &mut H,
    streams: &mut Streams,
    member: &Address,
    id: &Id,
    params: &Map<String, Value>,
    sse: bool,
) -> Result<Outcome, H::Error> {
    let Some(filter) = Filter::parse(params.get("notifications")) else {
        let error =
            RpcError::invalid_params("Invalid params: notifications must be a subscription filter");
        return Ok(Outcome::Respond(
            Response::json(jsonrpc::error(Some(id), &error)).with_status(400),
        ));
    };
    if !sse {
        return Ok(Outcome::Respond(bad(
            406,
            Code::InvalidRequest,
            "Not Acceptable: subscriptions/listen answers text/event-stream",
        )));
    }
    let stream = new_id(&host.random_seed());
    let spec = StreamSpec::subscription(member, id, &filter);
    let mut opening = streams.open(&stream, spec, host.now());
    opening.extend(streams.record(&stream, &acknowledged(id, &filter)));
    Ok(Outcome::listening(stream, opening))
}

/// A stream answering one request (2026-07-28), or its held JSON.
fn waiting_answer<H: McpHost>(
    host: &mut H,
    streams: &mut Streams,
    member: &Address,
    waiting: Waiting,
    sse: bool,
) -> Outcome {
    if !sse {
        return Outcome::Hold {
            ready: Vec::new(),
            waits: vec![waiting],
            batch: false,
        };
    }
    let stream = new_id(&host.random_seed());
    let spec = StreamSpec::request(waiting.session.clone(), member, waiting.revision);
    let opening = streams.open(&stream, spec, host.now());
    Outcome::Stream {
        stream,
        opening,
        waits: vec![waiting],
        closes: true,
    }
}
