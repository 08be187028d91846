//! The open IOA streams (`crate::ioa::endpoint`): each is fed every new message of
//! the message graph as [`crate::network::effects`] appends it, and closed ones are
//! dropped at the next message.

use agentnet_core::Event;
use futures_channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};
use std::cell::RefCell;
use std::rc::Rc;

/// A new message of the graph: its `seq` and the event.
pub(crate) type Appended = (u64, Rc<Event>);

/// The open IOA streams, each fed every new message of the graph.
#[derive(Default)]
pub(crate) struct IoaStreams {
    open: RefCell<Vec<UnboundedSender<Appended>>>,
}

impl IoaStreams {
    pub(crate) fn subscribe(&self) -> UnboundedReceiver<Appended> {
        let (sender, receiver) = unbounded();
        self.open.borrow_mut().push(sender);
        receiver
    }

    /// A message was appended at `seq`: every open stream hears of it (closed ones are dropped).
    pub(crate) fn appended(&self, seq: u64, event: &Rc<Event>) {
        let mut open = self.open.borrow_mut();
        open.retain(|stream| stream.unbounded_send((seq, Rc::clone(event))).is_ok());
    }
}
