//! Group commit for WebSocket frames.
//!
//! Every frame that writes to SQLite ends in a commit, and under `wrangler
//! dev` a commit is an `fsync`. Frames that arrive while the object is busy
//! are queued here. The handler that holds the [`Drainer`] handles the
//! queued frames in one synchronous run — one implicit transaction, one
//! commit — then yields one turn of the event loop and does it again, until
//! a turn brings nothing. Under load (the last drain took more than one
//! frame) it also yields before its first run, so the frames on their way
//! join it; a lone frame is handled at once and pays no extra latency. The
//! platform's output gate still holds each reply and delivery until that
//! commit is durable, so nothing is acknowledged before it is stored. Within
//! a run, the log rows of all its frames are written together and only then
//! are their replies and deliveries sent (`crate::network::log_batch`).

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use worker::WebSocket;

/// Frames waiting to be handled, in arrival order.
#[derive(Default)]
pub(crate) struct Inbox {
    frames: RefCell<VecDeque<(WebSocket, String)>>,
    draining: Cell<bool>,
    /// Frames the last drainer handled, or the current one so far.
    drained: Cell<usize>,
}

/// Proof that its holder drains the inbox; releases the role when dropped
/// (also when a panic unwinds through the drain). It owns a handle on the
/// inbox, so the drain can run as a task of its own after the frame that
/// started it has been handed over.
pub(crate) struct Drainer {
    inbox: Rc<Inbox>,
    /// The drain before this one took more than one frame.
    under_load: bool,
}

impl Inbox {
    /// Queues a frame; returns the drainer role when nobody holds it yet,
    /// `None` when an active drainer will handle this frame too.
    pub(crate) fn push(self: &Rc<Self>, ws: WebSocket, text: String) -> Option<Drainer> {
        self.frames.borrow_mut().push_back((ws, text));
        if self.draining.replace(true) {
            return None;
        }
        Some(Drainer {
            inbox: Rc::clone(self),
            under_load: self.drained.replace(0) > 1,
        })
    }
}

impl Drainer {
    /// True when the last drain took more than one frame: more are likely on their way.
    pub(crate) fn under_load(&self) -> bool {
        self.under_load
    }

    /// The next queued frame, oldest first.
    pub(crate) fn next(&self) -> Option<(WebSocket, String)> {
        let frame = self.inbox.frames.borrow_mut().pop_front();
        if frame.is_some() {
            self.inbox.drained.set(self.inbox.drained.get() + 1);
        }
        frame
    }
}

impl Drop for Drainer {
    fn drop(&mut self) {
        self.inbox.draining.set(false);
    }
}
