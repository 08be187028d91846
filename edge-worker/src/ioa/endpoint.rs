//! Requests to a network's IOA base URL (`/networks/{id}/ioa/…`): the I/O
//! around the core's binding (`agentnet_core::bindings::ioa`).
//!
//! The core decides what a request means and answers it, or names the
//! stream to open. Here a stream is written: its opening records, then
//! every new message of the graph the core's [`Follow`] accepts (each
//! appended channel event reaches every open stream through
//! [`crate::ioa::live::IoaStreams`], a component of the object), and
//! `: keepalive` when idle, on the outlet every stream writes to
//! (`crate::host::sse`).

use crate::host::respond;
use crate::host::sse::{Outlet, Queue};
use crate::ioa::live::Appended;
use crate::ioa::live::IoaStreams;
use crate::network::object::NetworkHost;
use agentnet_core::bindings;
use agentnet_core::bindings::ioa::stream::Follow;
use agentnet_core::bindings::ioa::{self as binding, Handled, Target};
use futures_channel::mpsc::UnboundedReceiver;
use std::rc::{Rc, Weak};
use worker::{Response, Result};

/// An SSE stream: `opening`, then each new message `follow` accepts.
fn open_ioa_stream(host: &NetworkHost, follow: Follow, opening: Vec<String>) -> Result<Response> {
    let outlet = Outlet::new(Queue::default());
    for record in opening {
        outlet.send(record);
    }
    let messages = host.live.ioa.subscribe(&follow.caller);
    worker::wasm_bindgen_futures::spawn_local(follow_stream(
        host.me.clone(),
        follow,
        messages,
        outlet.clone(),
    ));
    outlet.response()
}

/// Writes what `follow` accepts of each new message, and keepalives, until the client goes.
async fn follow_stream(
    host: Weak<NetworkHost>,
    mut follow: Follow,
    mut messages: UnboundedReceiver<Appended>,
    outlet: Rc<Outlet>,
) {
    while let Some((seq, event)) = outlet.next_or_keepalive(&mut messages).await {
        let Some(host) = host.upgrade() else { break };
        let accepted = {
            let guard = host.network.borrow();
            guard.as_ref().and_then(|network| {
                let graph = network.graph()?;
                follow.accept(network, graph, seq, &event)
            })
        };
        if let Some(record) = accepted
            && !outlet.send(record)
        {
            break;
        }
    }
    outlet.close();
}

/// The binding's entry from the object (`crate::network::http`, `object`).
impl IoaStreams {
    /// Answers a request under `/networks/{id}/ioa`.
    /// The route step (`NetworkHost::route`) has loaded the network.
    pub(crate) async fn serve_ioa(
        &self,
        host: &NetworkHost,
        request: bindings::Request,
        target: Target,
    ) -> Result<Response> {
        let handled =
            host.with_network(|io, network| binding::handle(io, network, &request, &target))?;
        match handled {
            Handled::Respond(response) => respond(response),
            Handled::Stream(follow, opening) => open_ioa_stream(host, follow, opening),
        }
    }
}
