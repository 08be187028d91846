//! What the network's object holds for Web Push between a commit and its
//! sends (`crate::network::webpush`): the committed events that may notify
//! someone, and the VAPID key once read.

use agentnet_core::Event;
use agentnet_core::webpush::VapidKey;
use agentnet_core::webpush::recipients::may_notify;
use std::cell::RefCell;
use std::rc::Rc;

/// Logged events waiting for their commit before their notices are sent.
#[derive(Default)]
pub(crate) struct PushQueue {
    /// The committed events not yet looked at.
    pub(crate) events: RefCell<Vec<Rc<Event>>>,
    /// The VAPID key, once read or made.
    pub(crate) key: RefCell<Option<VapidKey>>,
}

impl PushQueue {
    /// An event was appended to the log.
    pub(crate) fn appended(&self, event: &Rc<Event>) {
        if may_notify(event.event_type.as_str()) {
            self.events.borrow_mut().push(event.clone());
        }
    }
}
