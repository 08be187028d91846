//! The open IOA streams (`crate::ioa::endpoint`): each is fed every new message of
//! the message graph as [`crate::network::effects`] appends it, and closed ones are
//! dropped at the next message. A member's streams end when its credentials do.

use agentnet_core::{Address, Event};
use futures_channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};
use std::cell::RefCell;
use std::rc::Rc;

/// A new message of the graph: its `seq` and the event.
pub(crate) type Appended = (u64, Rc<Event>);

/// The open IOA streams, each fed every new message of the graph.
#[derive(Default)]
pub(crate) struct IoaStreams {
    open: RefCell<Vec<(Address, UnboundedSender<Appended>)>>,
}

impl IoaStreams {
    /// A receiver of every new message, for a stream `member` opened.
    pub(crate) fn subscribe(&self, member: &Address) -> UnboundedReceiver<Appended> {
        let (sender, receiver) = unbounded();
        self.open.borrow_mut().push((member.clone(), sender));
        receiver
    }

    /// Ends every stream `member` opened (it left, was removed or banned).
    pub(crate) fn end_member(&self, member: &Address) {
        self.open.borrow_mut().retain(|(holder, stream)| {
            if holder == member {
                stream.close_channel();
                false
            } else {
                true
            }
        });
    }

    /// A message was appended at `seq`: every open stream hears of it (closed ones are dropped).
    pub(crate) fn appended(&self, seq: u64, event: &Rc<Event>) {
        let mut open = self.open.borrow_mut();
        open.retain(|(_, stream)| stream.unbounded_send((seq, Rc::clone(event))).is_ok());
    }
}
