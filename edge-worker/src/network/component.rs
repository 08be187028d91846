//! What a component of the network object's live state is: each binding's
//! streams and waiting requests, and what waits for a commit (calls to
//! external agents, discovery, Web Push, file releases, hosted agents) —
//! every field of [`crate::network::live::Components`].
//!
//! The object applies the core's effects ([`crate::network::effects`]) and
//! shows each one to every component as it goes ([`Component::observe`]),
//! before the rows it stands for are written; once they are written and the
//! sockets' frames sent, every component does what waited for them
//! ([`Component::committed`]). A member that is no longer one has its
//! streams ended by each ([`Component::end_member`]). The object knows none
//! of their insides.
//!
//! `Host` is the object a component lives in (`NetworkHost`): a component
//! that needs nothing of it at commit is a `Component<Host>` for any host,
//! beside its type; one that starts I/O at commit implements
//! `Component<NetworkHost>` in the module of that I/O, so the state's own
//! module never depends on the object that holds it.

use agentnet_core::Address;
use agentnet_core::network::Effect;

/// A part of the object's live state that follows the core's effects.
pub(crate) trait Component<Host> {
    /// Sees `effect` as the object applies it, before its rows are written.
    /// The recipients of a delivery it took for good (an SSE stream wrote
    /// it, a hosted agent holds it) go into `taken`: they count as having
    /// acknowledged the delivery's `seq`.
    fn observe(&self, effect: &Effect, taken: &mut Vec<Address>) {
        let _ = (effect, taken);
    }

    /// The rows of what it observed are written and their frames sent: what
    /// waited for them goes now (in tasks of their own where it is I/O).
    fn committed(&self, host: &Host) {
        let _ = host;
    }

    /// `member` is no longer one: its streams end and its waiting requests answer.
    fn end_member(&self, member: &Address) {
        let _ = member;
    }
}
