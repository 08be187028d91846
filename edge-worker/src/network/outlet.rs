//! An open Server-Sent Events stream as the object holds it: the core's
//! `Stream` (its records and phase), the response body that reads them, and
//! the wakers of the tasks that wait on it (`crate::network::sse` runs those tasks).

use agentnet_core::bindings::transport::sse::{self, Pushed};
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use worker::Result;

/// One open stream: its records and who waits on them.
pub(crate) struct Outlet {
    pub(crate) stream: RefCell<sse::Stream>,
    /// The response body, waiting for records.
    pub(crate) body: Cell<Option<Waker>>,
    /// The paging task, waiting for the client to read.
    pub(crate) pager: Cell<Option<Waker>>,
    /// The response body is gone: the client went away.
    gone: Cell<bool>,
}

pub(crate) fn wake(waiting: &Cell<Option<Waker>>) {
    if let Some(waker) = waiting.take() {
        waker.wake();
    }
}

impl Outlet {
    /// An outlet for `stream`, nobody waiting yet.
    pub(crate) fn new(stream: sse::Stream) -> Self {
        Self {
            stream: RefCell::new(stream),
            body: Cell::new(None),
            pager: Cell::new(None),
            gone: Cell::new(false),
        }
    }

    /// Offers an event's JSON to the stream (`seq` for a logged one).
    pub(crate) fn push(&self, seq: Option<u64>, json: &str) -> Pushed {
        // Busy only while this stream's own page is read, which delivers
        // nothing: a logged event then waits in the log for the page anyway.
        let Ok(mut stream) = self.stream.try_borrow_mut() else {
            return Pushed::Waits;
        };
        let pushed = stream.push(seq, json);
        drop(stream);
        wake(&self.body);
        pushed
    }

    /// True while the stream takes events: not cut, its client still there.
    pub(crate) fn is_open(&self) -> bool {
        !self.gone.get() && self.stream.try_borrow().is_ok_and(|s| !s.is_cut())
    }

    /// The network ends the stream: its client reads what is queued and `last`, then it ends.
    pub(crate) fn close(&self, last: String) {
        if let Ok(mut stream) = self.stream.try_borrow_mut() {
            stream.close(last);
        }
        wake(&self.body);
        wake(&self.pager);
    }

    /// The stream failed on the host's side: it ends, and its client resumes.
    pub(crate) fn cut(&self) {
        if let Ok(mut stream) = self.stream.try_borrow_mut() {
            stream.cut();
        }
        wake(&self.body);
    }
}

/// The response body: the stream's records as the client reads them.
pub(crate) struct Body(pub(crate) Rc<Outlet>);

impl futures_core::Stream for Body {
    type Item = Result<Vec<u8>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let outlet = &self.0;
        let Ok(mut stream) = outlet.stream.try_borrow_mut() else {
            outlet.body.set(Some(cx.waker().clone()));
            return Poll::Pending;
        };
        let next = stream.pop();
        let cut = stream.is_cut();
        let wants_page = stream.wants_page().is_some();
        drop(stream);
        if wants_page {
            wake(&outlet.pager);
        }
        match next {
            Some(bytes) => Poll::Ready(Some(Ok(bytes))),
            None if cut => Poll::Ready(None),
            None => {
                outlet.body.set(Some(cx.waker().clone()));
                Poll::Pending
            }
        }
    }
}

impl Drop for Body {
    fn drop(&mut self) {
        self.0.gone.set(true);
        wake(&self.0.pager);
    }
}

/// Resolves to `true` when the stream wants its next page, `false` when it is over.
pub(crate) struct PageWanted<'a>(pub(crate) &'a Outlet);

impl Future for PageWanted<'_> {
    type Output = bool;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        let outlet = self.0;
        if !outlet.is_open() {
            return Poll::Ready(false);
        }
        let wanted = outlet
            .stream
            .try_borrow()
            .is_ok_and(|s| s.wants_page().is_some());
        if wanted {
            return Poll::Ready(true);
        }
        let catching_up = outlet
            .stream
            .try_borrow()
            .map_or(true, |s| s.is_catching_up());
        if !catching_up {
            return Poll::Ready(false);
        }
        outlet.pager.set(Some(cx.waker().clone()));
        Poll::Pending
    }
}
