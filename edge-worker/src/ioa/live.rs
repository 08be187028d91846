//! The open IOA streams (`crate::ioa::endpoint`), a component of the object
//! (`crate::network::component`): each is fed every new message of the
//! message graph as the object appends it, and closed ones are dropped at the
//! next message. A member's streams end when its credentials do.

use crate::network::component::Component;
use agentnet_core::network::Effect;
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

    /// A message was appended at `seq`: every open stream hears of it (closed ones are dropped).
    fn appended(&self, seq: u64, event: &Rc<Event>) {
        let mut open = self.open.borrow_mut();
        open.retain(|(_, stream)| stream.unbounded_send((seq, Rc::clone(event))).is_ok());
    }
}

impl<Host> Component<Host> for IoaStreams {
    fn observe(&self, effect: &Effect, _taken: &mut Vec<Address>) {
        if let Effect::Append {
            seq, event, links, ..
        } = effect
            && !links.is_empty()
        {
            self.appended(*seq, event);
        }
    }

    /// Ends every stream `member` opened (it left, was removed or banned).
    fn end_member(&self, member: &Address) {
        self.open.borrow_mut().retain(|(holder, stream)| {
            if holder == member {
                stream.close_channel();
                false
            } else {
                true
            }
        });
    }
}
