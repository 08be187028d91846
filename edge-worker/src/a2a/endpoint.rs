//! Requests to a network's A2A endpoints and cards: the I/O around the
//! core's binding (`agentnet_core::bindings::a2a`).
//!
//! The core decides what a request means. Here an answer is written at
//! once, held until its task stops working (or [`Watch::deadline`]), or
//! written as an SSE stream that follows the task: every stored change of a
//! task wakes the requests that watch it ([`Watchers`], fed from
//! [`crate::network::effects`]).

use crate::host::{now_ms, respond};
use crate::network::http::not_loaded;
use crate::network::object::NetworkHost;
use agentnet_core::Address;
use agentnet_core::bindings;
use agentnet_core::bindings::a2a::methods::{Reply, Watch, answer, settled};
use agentnet_core::bindings::a2a::{self as binding, Handled, Target, stream};
use agentnet_core::bindings::http::no_such_network;
use agentnet_core::bindings::transport::sse;
use agentnet_core::model::task::Task;
use futures_channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};
use futures_util::StreamExt;
use futures_util::future::{Either, select};
use std::time::Duration;
use worker::{Headers, Response, Result};

impl NetworkHost {
    /// Answers a request to `/networks/{id}/a2a…`.
    pub(crate) async fn serve_a2a(
        &self,
        request: bindings::Request,
        target: Target,
    ) -> Result<Response> {
        if !self.ensure_loaded(&target.network)? {
            return respond(no_such_network(&target.network));
        }
        self.resolve_request(&request).await?;
        let handled =
            self.with_network(|io, network| binding::handle(io, network, &request, &target))?;
        let accepted = match handled {
            Handled::Accepted(accepted) => accepted,
            Handled::Card(card) => return respond(self.signed_card(card, request.origin()).await),
            Handled::Respond(response) => return respond(response),
        };
        let response = match accepted.reply {
            Reply::Now(value) => respond(bindings::Response::json(value)),
            Reply::Hold(watch) => {
                let changes = self.a2a.watch(&watch.task, &accepted.member);
                self.hold(&accepted.member, watch, changes).await
            }
            Reply::Stream {
                watch,
                opening,
                seen,
                closes,
            } => self.open_a2a_stream(&accepted.member, watch, opening, *seen, closes),
        }?;
        // A DIDWba caller gets a bearer session for the requests that follow.
        if let Some(grant) = accepted.bearer {
            for (name, value) in grant.headers() {
                response.headers().set(name, &value)?;
            }
        }
        Ok(response)
    }

    /// The answer of `watch` once its task settles or its deadline passes.
    async fn hold(
        &self,
        member: &Address,
        watch: Watch,
        mut changes: UnboundedReceiver<Task>,
    ) -> Result<Response> {
        loop {
            let wait = Duration::from_millis(watch.deadline.saturating_sub(now_ms()));
            match select(changes.next(), Box::pin(worker::Delay::from(wait))).await {
                Either::Left((Some(task), _)) if !settled(&task) => continue,
                _ => break,
            }
        }
        let guard = self.network.borrow();
        let network = guard.as_ref().ok_or_else(not_loaded)?;
        respond(bindings::Response::json(answer(
            network, member, &watch, true,
        )))
    }

    /// An SSE stream: `opening`, then each change of the task until it settles.
    fn open_a2a_stream(
        &self,
        member: &Address,
        watch: Watch,
        opening: Vec<serde_json::Value>,
        seen: Task,
        closes: bool,
    ) -> Result<Response> {
        let (sender, receiver) = unbounded::<Result<Vec<u8>>>();
        let write = move |sender: &UnboundedSender<Result<Vec<u8>>>, value: &serde_json::Value| {
            let record = sse::record(None, &value.to_string());
            sender.unbounded_send(Ok(record.into_bytes())).is_ok()
        };
        for value in &opening {
            write(&sender, value);
        }
        if closes {
            sender.close_channel();
        } else {
            let mut changes = self.a2a.watch(&watch.task, member);
            worker::wasm_bindgen_futures::spawn_local(async move {
                let mut seen = seen;
                loop {
                    let keepalive = Duration::from_millis(sse::KEEPALIVE_MS);
                    match select(changes.next(), Box::pin(worker::Delay::from(keepalive))).await {
                        Either::Left((Some(task), _)) => {
                            let (events, ends) = stream::changes(&watch, &seen, &task);
                            let open = events.iter().all(|e| write(&sender, e));
                            seen = task;
                            if ends || !open {
                                break;
                            }
                        }
                        Either::Left((None, _)) => break,
                        Either::Right(_) => {
                            let alive = sse::KEEPALIVE.as_bytes().to_vec();
                            if sender.unbounded_send(Ok(alive)).is_err() {
                                break;
                            }
                        }
                    }
                }
                sender.close_channel();
            });
        }
        let written = Headers::new();
        for (name, value) in sse::HEADERS {
            written.set(name, value)?;
        }
        written.set("X-Accel-Buffering", "no")?;
        Ok(Response::from_stream(receiver)?.with_headers(written))
    }
}
