//! Server-Sent Events streams: the plumbing of `GET /networks/{id}/v1/sse`.
//!
//! What a stream holds, when it reads its next page and when it is cut are
//! the core's (`agentnet_core::bindings::transport::sse::Stream`); here a stream is an
//! [`Outlet`]: the response body reads its records, a task reads the next
//! page of what the stream missed once the client has read the last one
//! (each page in a turn of its own, so frames and requests are handled in
//! between), and a task writes the keepalive comment while it is idle. A
//! member that leaves has its streams ended with a last `closed` record.

use crate::network::object::NetworkHost;
use crate::network::outlet::{Body, Outlet, PageWanted, wake};
use agentnet_core::Address;
use agentnet_core::bindings;
use agentnet_core::bindings::transport::sse;
use std::rc::Rc;
use std::time::Duration;
use worker::{Headers, Response, Result};

impl NetworkHost {
    /// Opens a stream the core has opened with its first records queued.
    pub(crate) fn open_sse(self: &Rc<Self>, stream: sse::Stream) -> Result<Response> {
        let member = stream.member().to_string();
        let catching_up = stream.is_catching_up();
        let outlet = Rc::new(Outlet::new(stream));
        self.sse_streams
            .borrow_mut()
            .entry(member)
            .or_default()
            .push(Rc::clone(&outlet));
        if catching_up {
            let (host, outlet) = (Rc::clone(self), Rc::clone(&outlet));
            worker::wasm_bindgen_futures::spawn_local(async move {
                while PageWanted(&outlet).await {
                    // A turn of its own: other frames and requests go between two pages.
                    worker::Delay::from(Duration::ZERO).await;
                    if let Err(err) = host.next_stream_page(&outlet) {
                        worker::console_error!("a stream's page failed; the stream ends: {err}");
                        outlet.cut();
                    }
                    wake(&outlet.body);
                }
            });
        }
        let keepalive = Rc::clone(&outlet);
        worker::wasm_bindgen_futures::spawn_local(async move {
            loop {
                worker::Delay::from(Duration::from_millis(sse::KEEPALIVE_MS)).await;
                if !keepalive.is_open() {
                    break;
                }
                if let Ok(mut stream) = keepalive.stream.try_borrow_mut() {
                    stream.keepalive();
                }
                wake(&keepalive.body);
            }
        });
        let headers = Headers::new();
        for (name, value) in sse::HEADERS {
            headers.set(name, value)?;
        }
        Ok(Response::from_stream(Body(outlet))?.with_headers(headers))
    }

    /// The open streams of `member` (as its address reads).
    pub(crate) fn open_streams_of(&self, member: &str) -> usize {
        self.sse_streams
            .borrow()
            .get(member)
            .map_or(0, |open| open.iter().filter(|o| o.is_open()).count())
    }

    /// Ends every stream of a member that left, each with a last `closed` record.
    pub(crate) fn close_streams(&self, member: &Address) {
        let streams = self.sse_streams.borrow_mut().remove(&member.to_string());
        let record = sse::closed_record(&bindings::transport::sockets::left(member));
        for outlet in streams.into_iter().flatten() {
            outlet.close(record.clone());
        }
    }
}
