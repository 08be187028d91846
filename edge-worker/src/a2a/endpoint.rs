//! Requests to a network's A2A endpoints and cards: the I/O around the
//! core's binding (`agentnet_core::bindings::a2a`).
//!
//! The core decides what a request means. Here an answer is written at
//! once, held until its task stops working (or [`Watch::deadline`]), or
//! written as an SSE stream that follows the task: every stored change of a
//! task wakes the requests that watch it ([`Watchers`], fed from
//! [`crate::network::effects`]).

use crate::a2a::live::Watchers;
use crate::host::sse::{Outlet, Queue};
use crate::host::{now, respond};
use crate::network::http::not_loaded;
use crate::network::object::NetworkHost;
use agentnet_core::Address;
use agentnet_core::bindings;
use agentnet_core::bindings::a2a::methods::{Reply, Watch, answer, settled};
use agentnet_core::bindings::a2a::{self as binding, Handled, Target, stream};
use agentnet_core::model::task::Task;
use futures_channel::mpsc::UnboundedReceiver;
use futures_util::StreamExt;
use futures_util::future::{Either, select};
use std::time::Duration;
use worker::{Response, Result};

/// The answer of `watch` once its task settles or its deadline passes.
async fn hold(
    host: &NetworkHost,
    member: &Address,
    watch: Watch,
    mut changes: UnboundedReceiver<Task>,
) -> Result<Response> {
    loop {
        let wait = Duration::from_millis(watch.deadline.millis_since(now()));
        match select(changes.next(), Box::pin(worker::Delay::from(wait))).await {
            Either::Left((Some(task), _)) if !settled(&task) => continue,
            _ => break,
        }
    }
    let guard = host.network.borrow();
    let network = guard.as_ref().ok_or_else(not_loaded)?;
    respond(bindings::Response::json(answer(
        network, member, &watch, true,
    )))
}

/// An SSE stream: `opening`, then each change of the task until it settles.
fn open_a2a_stream(
    host: &NetworkHost,
    member: &Address,
    watch: Watch,
    opening: Vec<serde_json::Value>,
    seen: Task,
    closes: bool,
) -> Result<Response> {
    let outlet = Outlet::new(Queue::default());
    for value in &opening {
        outlet.message(value);
    }
    if closes {
        outlet.close();
    } else {
        let mut changes = host.live.a2a.watch(&watch.task, member);
        let writer = outlet.clone();
        worker::wasm_bindgen_futures::spawn_local(async move {
            let mut seen = seen;
            while let Some(task) = writer.next_or_keepalive(&mut changes).await {
                let (events, ends) = stream::changes(&watch, &seen, &task);
                let open = events.iter().all(|e| writer.message(e));
                seen = task;
                if ends || !open {
                    break;
                }
            }
            writer.close();
        });
    }
    outlet.response()
}

/// The binding's entry from the object (`crate::network::http`, `object`).
impl Watchers {
    /// Answers a request to `/networks/{id}/a2a…`.
    /// The route step (`NetworkHost::route`) has loaded the network.
    pub(crate) async fn serve_a2a(
        &self,
        host: &NetworkHost,
        request: bindings::Request,
        target: Target,
    ) -> Result<Response> {
        host.resolve_request(&request).await?;
        let handled =
            host.with_network(|io, network| binding::handle(io, network, &request, &target))?;
        let accepted = match handled {
            Handled::Accepted(accepted) => accepted,
            Handled::Card(card) => {
                return respond(
                    crate::a2a::signing::signed_card(host, card, request.origin()).await,
                );
            }
            Handled::Respond(response) => return respond(response),
        };
        let response = match accepted.reply {
            Reply::Now(value) => respond(bindings::Response::json(value)),
            Reply::Hold(watch) => {
                let changes = host.live.a2a.watch(&watch.task, &accepted.member);
                hold(host, &accepted.member, watch, changes).await
            }
            Reply::Stream {
                watch,
                opening,
                seen,
                closes,
            } => open_a2a_stream(host, &accepted.member, watch, opening, *seen, closes),
        }?;
        // A DIDWba caller gets a bearer session for the requests that follow.
        if let Some(grant) = accepted.bearer {
            for (name, value) in grant.headers() {
                response.headers().set(name, &value)?;
            }
        }
        Ok(response)
    }
}
