//! The log as the network keeps it: reads and catch-up pages over the host's
//! rows, pruning by retention, the dedupe window of recent event ids, and the
//! message graph an event is placed in when it is accepted.

pub(super) mod dedupe;
pub(super) mod graph;
pub(super) mod reads;
pub(super) mod retention;
