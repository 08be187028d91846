//! Server-Sent Events: `GET /networks/{id}/v1/sse`.
//!
//! Authenticated by the HTTP session (`Authorization: Bearer …` or
//! `?session=` for `EventSource`, which cannot set headers). Each logged event
//! is one `id: {seq}` / `data: {event}` record; a reconnecting client sends
//! `Last-Event-ID` (or `?after=`) and gets everything after it first. A
//! `: keepalive` comment goes out every [`KEEPALIVE`] so proxies keep the
//! stream open. Events written to a stream count as acknowledged: a reader
//! that misses some resumes from its last id.

use crate::network_object::{Collected, NetworkHost, Origin};
use agentnet_core::ErrorCode;
use futures_channel::mpsc::{UnboundedSender, unbounded};
use std::cell::RefCell;
use std::time::Duration;
use worker::{Headers, Response, Result};

/// Interval of keepalive comments.
pub const KEEPALIVE: Duration = Duration::from_secs(15);
/// Catch-up pages sent when a stream opens (of up to 200 events each).
const OPENING_PAGES: usize = 50;

/// One open stream's sender.
pub(crate) type Stream = UnboundedSender<Result<Vec<u8>>>;

/// The SSE record of an event: with `id:` when it has a `seq`.
pub(crate) fn record(seq: Option<u64>, json: &str) -> Vec<u8> {
    match seq {
        Some(seq) => format!("id: {seq}\nevent: message\ndata: {json}\n\n").into_bytes(),
        None => format!("event: message\ndata: {json}\n\n").into_bytes(),
    }
}

impl NetworkHost {
    /// Opens a stream for the session's member, starting after its resume point.
    pub(crate) fn open_sse(&self, member: agentnet_core::Address, after: u64) -> Result<Response> {
        let (sender, receiver) = unbounded::<Result<Vec<u8>>>();
        let mut after = after;
        for _ in 0..OPENING_PAGES {
            let read = match self.network.borrow_mut().as_mut() {
                Some(network) => network.read_page(&member, after, 200, crate::host::now_ms()),
                None => {
                    return crate::http::coded_error(
                        ErrorCode::NetworkUnavailable,
                        "network not loaded",
                    );
                }
            };
            let effects = match read {
                Ok(effects) => effects,
                Err(rejection) => {
                    return crate::http::coded_error(rejection.code, &rejection.message);
                }
            };
            let collected = RefCell::new(Collected::default());
            self.apply(&Origin::Collect(&collected), effects)?;
            let Some(page) = collected.into_inner().page else {
                break;
            };
            for (seq, event) in &page.events {
                let _ = sender.unbounded_send(Ok(record(Some(*seq), &event.encode())));
            }
            after = page.next_after;
            if !page.has_more {
                break;
            }
        }
        // The stream has everything up to `after`.
        let effects = self
            .network
            .borrow_mut()
            .as_mut()
            .map(|network| network.acknowledge_pushed(&member, after, crate::host::now_ms()))
            .unwrap_or_default();
        self.apply(&Origin::Nowhere, effects)?;
        self.sse_streams
            .borrow_mut()
            .entry(member.to_string())
            .or_default()
            .push(sender.clone());
        worker::wasm_bindgen_futures::spawn_local(async move {
            loop {
                worker::Delay::from(KEEPALIVE).await;
                if sender
                    .unbounded_send(Ok(b": keepalive\n\n".to_vec()))
                    .is_err()
                {
                    break;
                }
            }
        });
        let headers = Headers::new();
        headers.set("Content-Type", "text/event-stream")?;
        headers.set("Cache-Control", "no-cache")?;
        Ok(Response::from_stream(receiver)?.with_headers(headers))
    }
}
