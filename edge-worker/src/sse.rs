//! Server-Sent Events streams: the plumbing of `GET /networks/{id}/v1/sse`.
//!
//! The framing, the resume point and the opening pages are the core's
//! (`agentnet_core::bindings::sse`); here a stream is a channel the
//! response body reads, with a keepalive task writing the keepalive comment.
//! A member that leaves has its streams ended.

use crate::network_object::NetworkHost;
use agentnet_core::Address;
use agentnet_core::bindings::{self, sse};
use futures_channel::mpsc::unbounded;
use std::time::Duration;
use worker::{Headers, Response, Result};

impl NetworkHost {
    /// Opens a stream that starts with the records the core read for it.
    pub(crate) fn open_sse(&self, stream: sse::Stream) -> Result<Response> {
        let (sender, receiver) = unbounded::<Result<Vec<u8>>>();
        for record in stream.opening {
            let _ = sender.unbounded_send(Ok(record.into_bytes()));
        }
        self.sse_streams
            .borrow_mut()
            .entry(stream.member.to_string())
            .or_default()
            .push(sender.clone());
        worker::wasm_bindgen_futures::spawn_local(async move {
            loop {
                worker::Delay::from(Duration::from_millis(sse::KEEPALIVE_MS)).await;
                if sender
                    .unbounded_send(Ok(sse::KEEPALIVE.as_bytes().to_vec()))
                    .is_err()
                {
                    break;
                }
            }
        });
        let headers = Headers::new();
        for (name, value) in sse::HEADERS {
            headers.set(name, value)?;
        }
        Ok(Response::from_stream(receiver)?.with_headers(headers))
    }

    /// Ends every stream of a member that left, each with a last `closed` record.
    pub(crate) fn close_streams(&self, member: &Address) {
        let streams = self.sse_streams.borrow_mut().remove(&member.to_string());
        let record = sse::closed_record(&bindings::sockets::left(member));
        for stream in streams.into_iter().flatten() {
            let _ = stream.unbounded_send(Ok(record.clone().into_bytes()));
            // The keepalive task holds a sender too: close the channel for both.
            stream.close_channel();
        }
    }
}
