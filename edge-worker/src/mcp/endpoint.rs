//! Requests to a network's MCP endpoint: the I/O around the core's binding
//! (`agentnet_core::bindings::mcp`).
//!
//! The core decides what a request means and answers; here the answer is
//! written at once, held until the requests it waits for are answered
//! (a tool's result, a new event, or the deadline), or written as an SSE
//! stream that the waiting answers and notifications go on
//! ([`crate::mcp::live`]).

use crate::host::sse::{Outlet, Queue};
use crate::host::{now, respond};
use crate::mcp::live::McpLive;
use crate::network::http::{RequestIo, not_loaded};
use crate::network::object::NetworkHost;
use agentnet_core::bindings;
use agentnet_core::bindings::jsonrpc;
use agentnet_core::bindings::mcp::outcome::{Outcome, assemble};
use agentnet_core::bindings::mcp::waiting::{Arrival, Waiting};
use agentnet_core::bindings::mcp::{access, retries, transport};
use agentnet_core::bindings::transport::sse;
use agentnet_core::{Network, NetworkId};
use futures_util::future::{Either, join_all, select};
use serde_json::Value;
use std::time::Duration;
use worker::{Response, Result};

/// Readies a call to this object's MCP or ANP endpoint (network `id`): the
/// calls that wait learn their network, the origin is noted and the caller's
/// DID proof resolved.
pub(crate) async fn take_call(
    host: &NetworkHost,
    request: &bindings::Request,
    id: &NetworkId,
) -> Result<()> {
    host.live.mcp.set_network(id);
    host.note_origin(request.origin());
    host.resolve_request(request).await
}

/// Waits for `waiting`'s delivery or deadline, then `finish`es it: the
/// answer, or `None` when it was cancelled. A waiting ANP call waits here too
/// ([`crate::anp::endpoint`]).
pub(crate) async fn answer_later<T>(
    host: &NetworkHost,
    waiting: Waiting,
    stream: Option<&str>,
    finish: impl Fn(&mut RequestIo<'_>, &mut Network, &Waiting, Arrival) -> Result<Option<T>>,
) -> Result<Option<T>> {
    loop {
        let (key, woken) = host.live.mcp.register(waiting.clone(), stream);
        let wait = Duration::from_millis(waiting.deadline.millis_since(now()));
        let arrival = match select(woken, Box::pin(worker::Delay::from(wait))).await {
            Either::Left((Ok(event), _)) => Arrival::Delivered(Box::new(event)),
            Either::Left((Err(_cancelled), _)) => return Ok(None),
            Either::Right(_) => {
                host.live.mcp.unregister(key);
                Arrival::TimedOut
            }
        };
        let answer = { host.with_network(|io, network| finish(io, network, &waiting, arrival))? };
        host.live.mcp.flush();
        if answer.is_some() {
            return Ok(answer);
        }
    }
}

/// [`answer_later`] for an MCP request: its JSON-RPC answer.
async fn mcp_answer_later(
    host: &NetworkHost,
    waiting: Waiting,
    stream: Option<&str>,
) -> Result<Option<Value>> {
    answer_later(host, waiting, stream, |io, network, waiting, arrival| {
        let result = retries::finish(io, network, waiting, arrival)?;
        Ok(result.map(|result| jsonrpc::result(&waiting.request, result)))
    })
    .await
}

/// Writes stream `stream`: `opening`, then each waiting answer; keeps it open
/// for notifications unless it `closes` once answered.
fn open_mcp_stream(
    host: &NetworkHost,
    stream: String,
    opening: Vec<String>,
    waits: Vec<Waiting>,
    closes: bool,
) -> Result<Response> {
    let outlet = Outlet::new(Queue::default());
    for record in opening {
        outlet.send(record);
    }
    if closes && waits.is_empty() {
        host.live.mcp.streams.borrow_mut().finish(&stream, now());
        outlet.close();
    } else {
        host.live.mcp.attach(&stream, outlet.clone(), waits.len());
        let me = host.me.upgrade().ok_or_else(not_loaded)?;
        if !closes {
            // A stream kept open (a client's GET): the approvals it missed while away.
            let (host, stream) = (me.clone(), stream.clone());
            worker::wasm_bindgen_futures::spawn_local(async move {
                if let Err(err) = crate::mcp::elicit::elicit_open_approvals(&host, &stream) {
                    worker::console_error!("open approvals not asked through MCP: {err}");
                }
            });
        }
        for waiting in waits {
            let (host, stream) = (me.clone(), stream.clone());
            worker::wasm_bindgen_futures::spawn_local(async move {
                match mcp_answer_later(&host, waiting, Some(&stream)).await {
                    Ok(Some(answer)) => host.live.mcp.write(&stream, &answer),
                    Ok(None) => {}
                    Err(err) => worker::console_error!("an MCP answer failed: {err}"),
                }
                host.live.mcp.answered(&stream, closes);
            });
        }
        if !host.live.mcp.ticking.replace(true) {
            // One task keeps every connected stream alive and notices the ones that went away.
            worker::wasm_bindgen_futures::spawn_local(async move {
                loop {
                    worker::Delay::from(Duration::from_millis(sse::KEEPALIVE_MS)).await;
                    if !me.live.mcp.keepalive() {
                        me.live.mcp.ticking.set(false);
                        break;
                    }
                }
            });
        }
    }
    outlet.response()
}

/// The binding's entry from the object (`crate::network::http`, `object`).
impl McpLive {
    /// Answers a request to `/networks/{id}/mcp`.
    /// The route step (`NetworkHost::route`) has loaded the network.
    pub(crate) async fn serve_mcp(
        &self,
        host: &NetworkHost,
        request: bindings::Request,
        id: NetworkId,
    ) -> Result<Response> {
        take_call(host, &request, &id).await?;
        let outcome = {
            let mut streams = host.live.mcp.streams.borrow_mut();
            host.with_network(|io, network| transport::handle(io, network, &mut streams, &request))?
        };
        host.live.mcp.flush();
        match outcome {
            Outcome::Respond(response) => respond(response),
            Outcome::Hold {
                mut ready,
                waits,
                batch,
            } => {
                let answers =
                    join_all(waits.into_iter().map(|w| mcp_answer_later(host, w, None))).await;
                for answer in answers {
                    ready.extend(answer?);
                }
                respond(assemble(ready, batch))
            }
            Outcome::Stream {
                stream,
                opening,
                waits,
                closes,
            } => open_mcp_stream(host, stream, opening, waits, closes),
            Outcome::Ended { streams, response } => {
                let session = request
                    .header("Mcp-Session-Id")
                    .unwrap_or("")
                    .trim()
                    .to_owned();
                host.live.mcp.end_session(&streams, &session);
                respond(response)
            }
            Outcome::Cancel { member, request } => {
                host.live.mcp.cancel(&member, &request);
                respond(bindings::Response::text("").with_status(202))
            }
        }
    }

    /// Answers `/.well-known/oauth-protected-resource/networks/{id}/mcp`.
    /// The route step (`NetworkHost::route`) has loaded the network.
    pub(crate) fn mcp_metadata(
        &self,
        host: &NetworkHost,
        request: &bindings::Request,
        id: &NetworkId,
    ) -> Result<Response> {
        let name = host
            .network
            .borrow()
            .as_ref()
            .map(|n| n.config().name.clone())
            .unwrap_or_default();
        respond(access::metadata(request.origin(), id, &name))
    }
}
