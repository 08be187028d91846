//! One outlet for every Server-Sent Events stream the edge writes — the
//! network's `/v1/sse`, MCP's, A2A's and IOA's: the response with the one
//! set of headers ([`sse::HEADERS`]), the records waiting for the client,
//! the keepalive comment, and the end of the stream.
//!
//! An [`Outlet`] holds its records in a [`Records`] queue: the network's
//! streams in the core's bounded [`sse::Stream`] (it pages in what a stream
//! missed and cuts a client that reads too slowly), the bindings' in an
//! unbounded [`Queue`]. The records themselves are framed by the core
//! ([`sse::frame`]); the response body reads them as the client does, and a
//! client that goes away marks the outlet gone.

use agentnet_core::bindings::transport::sse;
use futures_util::StreamExt;
use futures_util::future::{Either, select};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use worker::{Headers, Response, Result};

/// The records of a stream, as its outlet reads them.
pub(crate) trait Records: 'static {
    /// The next bytes for the client, oldest first.
    fn pop(&mut self) -> Option<Vec<u8>>;
    /// Nothing more comes: the response ends once what is queued is read.
    fn is_ended(&self) -> bool;
    /// The keepalive tick: a keepalive comment, as this kind of stream writes them.
    fn keepalive(&mut self);
    /// More records are to be read in now (a page of what the stream missed).
    fn wants_more(&self) -> bool {
        false
    }
    /// Records are still to be read in, once the client has read enough.
    fn reads_more(&self) -> bool {
        false
    }
}

impl Records for sse::Stream {
    fn pop(&mut self) -> Option<Vec<u8>> {
        sse::Stream::pop(self)
    }

    fn is_ended(&self) -> bool {
        self.is_cut()
    }

    fn keepalive(&mut self) {
        sse::Stream::keepalive(self);
    }

    fn wants_more(&self) -> bool {
        self.wants_page().is_some()
    }

    fn reads_more(&self) -> bool {
        self.is_catching_up()
    }
}

/// Records in the order they are written, unbounded (MCP's, A2A's and IOA's
/// streams: what they write is answers and changes, never a backlog).
#[derive(Default)]
pub(crate) struct Queue {
    records: VecDeque<Vec<u8>>,
    ended: bool,
}

impl Records for Queue {
    fn pop(&mut self) -> Option<Vec<u8>> {
        self.records.pop_front()
    }

    fn is_ended(&self) -> bool {
        self.ended
    }

    fn keepalive(&mut self) {
        if !self.ended {
            self.records.push_back(sse::KEEPALIVE.as_bytes().to_vec());
        }
    }
}

/// One open stream: its records, the response body that reads them, and
/// whoever waits on it.
pub(crate) struct Outlet<R: Records = Queue> {
    records: RefCell<R>,
    /// The response body, waiting for records.
    body: Cell<Option<Waker>>,
    /// The task that reads more in, waiting for the client to read ([`MoreWanted`]).
    reader: Cell<Option<Waker>>,
    /// The response body is gone: the client went away.
    gone: Cell<bool>,
}

fn wake(waiting: &Cell<Option<Waker>>) {
    if let Some(waker) = waiting.take() {
        waker.wake();
    }
}

impl<R: Records> Outlet<R> {
    /// An outlet for `records`, nobody waiting yet.
    pub(crate) fn new(records: R) -> Rc<Self> {
        Rc::new(Self {
            records: RefCell::new(records),
            body: Cell::new(None),
            reader: Cell::new(None),
            gone: Cell::new(false),
        })
    }

    /// The stream's response: every stream's headers, its body the records.
    pub(crate) fn response(self: &Rc<Self>) -> Result<Response> {
        let headers = Headers::new();
        for (name, value) in sse::HEADERS {
            headers.set(name, value)?;
        }
        Ok(Response::from_stream(Body(Rc::clone(self)))?.with_headers(headers))
    }

    /// Changes the records (`None` while they are being read elsewhere), then
    /// wakes the response body to read what changed.
    pub(crate) fn with<T>(&self, change: impl FnOnce(&mut R) -> T) -> Option<T> {
        let changed = self
            .records
            .try_borrow_mut()
            .ok()
            .map(|mut r| change(&mut r));
        wake(&self.body);
        changed
    }

    /// Reads the records (`None` while they are being changed).
    pub(crate) fn read<T>(&self, look: impl FnOnce(&R) -> T) -> Option<T> {
        self.records.try_borrow().ok().map(|r| look(&r))
    }

    /// The records themselves, for the core to page into (not borrowed elsewhere meanwhile).
    pub(crate) fn records(&self) -> &RefCell<R> {
        &self.records
    }

    /// True while the stream takes records: not ended, its client still there.
    pub(crate) fn is_open(&self) -> bool {
        !self.gone.get() && self.read(|r| !r.is_ended()).unwrap_or(false)
    }

    /// The keepalive tick; whether the stream is still open.
    pub(crate) fn keepalive(&self) -> bool {
        if self.is_open() {
            self.with(R::keepalive);
        }
        self.is_open()
    }

    /// Ticks every [`sse::KEEPALIVE_MS`] in a task of its own, until the stream ends.
    pub(crate) fn keep_alive(self: &Rc<Self>) {
        let outlet = Rc::clone(self);
        worker::wasm_bindgen_futures::spawn_local(async move {
            loop {
                worker::Delay::from(Duration::from_millis(sse::KEEPALIVE_MS)).await;
                if !outlet.keepalive() {
                    break;
                }
            }
        });
    }

    /// Wakes the body and the task that reads more in (the stream changed under them).
    pub(crate) fn wake_all(&self) {
        wake(&self.body);
        wake(&self.reader);
    }
}

impl Outlet<Queue> {
    /// Writes one framed record; false when the stream has ended or its client is gone.
    pub(crate) fn send(&self, record: String) -> bool {
        if self.gone.get() {
            return false;
        }
        self.with(|queue| {
            if !queue.ended {
                queue.records.push_back(record.into_bytes());
            }
            !queue.ended
        })
        .unwrap_or(false)
    }

    /// Writes `message` as an unsequenced `message` record; false as [`Self::send`].
    pub(crate) fn message(&self, message: &serde_json::Value) -> bool {
        self.send(sse::record(None, &message.to_string()))
    }

    /// Ends the stream: its client reads what is queued, then the response ends.
    pub(crate) fn close(&self) {
        self.with(|queue| queue.ended = true);
    }

    /// The next item of `source`, writing a keepalive comment each time the
    /// stream has been idle for [`sse::KEEPALIVE_MS`]; `None` once `source`
    /// ends or the client is gone.
    pub(crate) async fn next_or_keepalive<S>(&self, source: &mut S) -> Option<S::Item>
    where
        S: futures_core::Stream + Unpin,
    {
        loop {
            let idle = Duration::from_millis(sse::KEEPALIVE_MS);
            match select(source.next(), Box::pin(worker::Delay::from(idle))).await {
                Either::Left((next, _)) => return next,
                Either::Right(_) => {
                    if self.gone.get() {
                        return None;
                    }
                    self.with(Records::keepalive);
                }
            }
        }
    }
}

/// The response body: the stream's records as the client reads them.
struct Body<R: Records>(Rc<Outlet<R>>);

impl<R: Records> futures_core::Stream for Body<R> {
    type Item = Result<Vec<u8>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let outlet = &self.0;
        let Ok(mut records) = outlet.records.try_borrow_mut() else {
            outlet.body.set(Some(cx.waker().clone()));
            return Poll::Pending;
        };
        let next = records.pop();
        let ended = records.is_ended();
        let wants_more = records.wants_more();
        drop(records);
        if wants_more {
            wake(&outlet.reader);
        }
        match next {
            Some(bytes) => Poll::Ready(Some(Ok(bytes))),
            None if ended => Poll::Ready(None),
            None => {
                outlet.body.set(Some(cx.waker().clone()));
                Poll::Pending
            }
        }
    }
}

impl<R: Records> Drop for Body<R> {
    fn drop(&mut self) {
        self.0.gone.set(true);
        wake(&self.0.reader);
    }
}

/// Resolves to `true` when the stream wants more records read in, `false`
/// when it never will (it is over, or has read in all it missed).
pub(crate) struct MoreWanted<'a, R: Records>(pub(crate) &'a Outlet<R>);

impl<R: Records> Future for MoreWanted<'_, R> {
    type Output = bool;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        let outlet = self.0;
        if !outlet.is_open() {
            return Poll::Ready(false);
        }
        if outlet.read(R::wants_more).unwrap_or(false) {
            return Poll::Ready(true);
        }
        if !outlet.read(R::reads_more).unwrap_or(true) {
            return Poll::Ready(false);
        }
        outlet.reader.set(Some(cx.waker().clone()));
        Poll::Pending
    }
}
