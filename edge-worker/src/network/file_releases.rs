//! What the network's object holds for its stored files between a commit
//! and their deletion from R2 (`crate::network::files`): the committed
//! events that may release files.

use agentnet_core::Event;
use agentnet_core::files::{deleted_message, released_by};
use std::cell::RefCell;
use std::rc::Rc;

/// Committed events that may release stored files, waiting for their commit.
#[derive(Default)]
pub(crate) struct Releases {
    events: RefCell<Vec<Rc<Event>>>,
}

impl Releases {
    /// An event was appended to the log.
    pub(crate) fn appended(&self, event: &Rc<Event>) {
        if deleted_message(event).is_some() || !released_by(event, None).is_empty() {
            self.events.borrow_mut().push(event.clone());
        }
    }

    /// The events gathered since the last call.
    pub(crate) fn take(&self) -> Vec<Rc<Event>> {
        std::mem::take(&mut *self.events.borrow_mut())
    }
}
