//! Changes to messages already sent: edits, deletions and reactions checked
//! against the message's author and place, and the facts of recent messages
//! they need.

pub mod changes;
pub(super) mod recent;
