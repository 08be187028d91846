//! What a network object's commit leaves for the keeper of its shared
//! documents (`crate::network::documents` sends it): the document rows the
//! object stored itself before its documents were kept elsewhere, to hand
//! over first, then the asks, in order.

use agentnet_core::documents::DocumentRow;
use agentnet_core::network::{DocumentAsk, DocumentOp};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

/// One thing waiting for the keeper.
pub(crate) enum KeeperJob {
    /// Rows the object stored itself, to hand over and then delete here.
    Adopt(Vec<DocumentRow>),
    /// An ask whose answer goes back to the network.
    Ask(DocumentAsk),
}

/// The keeper's queue: one job at a time, in order, so a member's sync
/// messages reach its document in the order they were sent.
#[derive(Default)]
pub(crate) struct DocumentsIo {
    jobs: RefCell<VecDeque<KeeperJob>>,
    sending: Cell<bool>,
}

impl DocumentsIo {
    /// An ask waiting for the keeper.
    pub(crate) fn ask(&self, ask: DocumentAsk) {
        self.jobs.borrow_mut().push_back(KeeperJob::Ask(ask));
    }

    /// Rows to hand over before any ask.
    pub(crate) fn adopt(&self, rows: Vec<DocumentRow>) {
        self.jobs.borrow_mut().push_front(KeeperJob::Adopt(rows));
    }

    /// The next job, unless one is already being sent (then `None`: that sender goes on).
    pub(crate) fn start(&self) -> bool {
        !self.jobs.borrow().is_empty() && !self.sending.replace(true)
    }

    /// Hands `job` over again first and ends the sender: it and what waits
    /// behind it go with the next commit, in order.
    pub(crate) fn put_back(&self, job: KeeperJob) {
        self.jobs.borrow_mut().push_front(job);
        self.sending.set(false);
    }

    /// The members' sync messages waiting, taken out of the queue.
    pub(crate) fn take_syncs(&self) -> Vec<DocumentAsk> {
        let mut syncs = Vec::new();
        self.jobs.borrow_mut().retain(|job| match job {
            KeeperJob::Ask(ask) if matches!(ask.op, DocumentOp::Sync { .. }) => {
                syncs.push(ask.clone());
                false
            }
            _ => true,
        });
        syncs
    }

    /// The next job of the sender that [`DocumentsIo::start`]ed; `None` ends it.
    pub(crate) fn next(&self) -> Option<KeeperJob> {
        let job = self.jobs.borrow_mut().pop_front();
        if job.is_none() {
            self.sending.set(false);
        }
        job
    }
}
