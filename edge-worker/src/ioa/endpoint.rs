//! Requests to a network's IOA base URL (`/networks/{id}/ioa/…`): the I/O
//! around the core's binding (`agentnet_core::bindings::ioa`).
//!
//! The core decides what a request means and answers it, or names the
//! stream to open. Here a stream is written: its opening records, then
//! every new message of the graph the core's [`Follow`] accepts (each
//! appended channel event reaches every open stream through
//! [`crate::ioa::live::IoaStreams`],
//! fed from [`crate::network::effects`]), and `: keepalive` when idle.

use crate::host::respond;
use crate::ioa::live::Appended;
use crate::network::object::NetworkHost;
use agentnet_core::bindings;
use agentnet_core::bindings::http::no_such_network;
use agentnet_core::bindings::ioa::stream::Follow;
use agentnet_core::bindings::ioa::{self as binding, Handled, Target};
use agentnet_core::bindings::transport::sse;
use futures_channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};
use futures_util::StreamExt;
use futures_util::future::{Either, select};
use std::rc::Weak;
use std::time::Duration;
use worker::{Headers, Response, Result};

impl NetworkHost {
    /// Answers a request under `/networks/{id}/ioa`.
    pub(crate) async fn serve_ioa(
        &self,
        request: bindings::Request,
        target: Target,
    ) -> Result<Response> {
        if !self.ensure_loaded(&target.network)? {
            return respond(no_such_network(&target.network));
        }
        let handled =
            self.with_network(|io, network| binding::handle(io, network, &request, &target))?;
        match handled {
            Handled::Respond(response) => respond(response),
            Handled::Stream(follow, opening) => self.open_ioa_stream(follow, opening),
        }
    }

    /// An SSE stream: `opening`, then each new message `follow` accepts.
    fn open_ioa_stream(&self, follow: Follow, opening: Vec<String>) -> Result<Response> {
        let (sender, receiver) = unbounded::<Result<Vec<u8>>>();
        for record in opening {
            let _ = sender.unbounded_send(Ok(record.into_bytes()));
        }
        let messages = self.ioa.subscribe(&follow.caller);
        worker::wasm_bindgen_futures::spawn_local(follow_stream(
            self.me.clone(),
            follow,
            messages,
            sender,
        ));
        let written = Headers::new();
        for (name, value) in sse::HEADERS {
            written.set(name, value)?;
        }
        written.set("X-Accel-Buffering", "no")?;
        Ok(Response::from_stream(receiver)?.with_headers(written))
    }
}

/// Writes what `follow` accepts of each new message, and keepalives, until the client goes.
async fn follow_stream(
    host: Weak<NetworkHost>,
    mut follow: Follow,
    mut messages: UnboundedReceiver<Appended>,
    sender: UnboundedSender<Result<Vec<u8>>>,
) {
    loop {
        let keepalive = Duration::from_millis(sse::KEEPALIVE_MS);
        let record = match select(messages.next(), Box::pin(worker::Delay::from(keepalive))).await {
            Either::Left((Some((seq, event)), _)) => {
                let Some(host) = host.upgrade() else { break };
                let guard = host.network.borrow();
                let accepted = guard.as_ref().and_then(|network| {
                    let graph = network.graph()?;
                    follow.accept(network, graph, seq, &event)
                });
                match accepted {
                    Some(record) => record,
                    None => continue,
                }
            }
            Either::Left((None, _)) => break,
            Either::Right(_) => sse::KEEPALIVE.to_owned(),
        };
        if sender.unbounded_send(Ok(record.into_bytes())).is_err() {
            break;
        }
    }
    sender.close_channel();
}
