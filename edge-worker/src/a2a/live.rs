//! What the object keeps for A2A between requests, two components of the
//! object (`crate::network::component`): the requests that watch a task's
//! changes ([`Watchers`]: each stored change of the task reaches them) and
//! the deliveries that are to become calls to external agents ([`Outbound`]:
//! called once committed); `crate::a2a::endpoint` and `crate::a2a::remote`
//! do the I/O.

use crate::network::component::Component;
use agentnet_core::model::state::Row;
use agentnet_core::model::task::Task;
use agentnet_core::network::Effect;
use agentnet_core::{Address, Event};
use futures_channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};
use std::cell::RefCell;
use std::rc::Rc;

/// One request watching a task: the task's id, the member who asked, where changes go.
type Watcher = (String, Address, UnboundedSender<Task>);

/// Requests waiting for changes of a task, by task id.
#[derive(Default)]
pub(crate) struct Watchers(RefCell<Vec<Watcher>>);

impl Watchers {
    /// A receiver of every later stored change of task `id`, for `member`.
    pub(crate) fn watch(&self, id: &str, member: &Address) -> UnboundedReceiver<Task> {
        let (sender, receiver) = unbounded();
        self.0
            .borrow_mut()
            .push((id.to_owned(), member.clone(), sender));
        receiver
    }

    /// Shows a stored task to the requests that watch it; forgets the ones that went away.
    fn changed(&self, task: &Task) {
        self.0.borrow_mut().retain(|(id, _, sender)| {
            if id == &task.id {
                sender.unbounded_send(task.clone()).is_ok()
            } else {
                !sender.is_closed()
            }
        });
    }
}

/// A delivery that may become A2A calls: recipients, event, its `seq`.
pub(crate) type Delivery = (Vec<Address>, Rc<Event>, Option<u64>);

/// Deliveries waiting to become A2A calls.
#[derive(Default)]
pub(crate) struct Outbound(RefCell<Vec<Delivery>>);

impl Outbound {
    /// Notes a delivery (only `task.*` events can become calls).
    pub(crate) fn queue(&self, to: &[Address], event: &Rc<Event>, seq: Option<u64>) {
        if event.event_type.as_str().starts_with("task.") {
            self.0.borrow_mut().push((to.to_vec(), event.clone(), seq));
        }
    }

    pub(crate) fn take(&self) -> Vec<Delivery> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

impl<Host> Component<Host> for Watchers {
    fn observe(&self, effect: &Effect, _taken: &mut Vec<Address>) {
        if let Effect::Store(Row::Task(task)) = effect {
            self.changed(task);
        }
    }

    /// Ends every watch `member` holds (it left, was removed or banned): its
    /// streams close and its held requests answer now.
    fn end_member(&self, member: &Address) {
        self.0.borrow_mut().retain(|(_, watcher, sender)| {
            if watcher == member {
                sender.close_channel();
                false
            } else {
                true
            }
        });
    }
}
