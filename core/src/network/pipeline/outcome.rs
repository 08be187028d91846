//! What one core handler decided: its effects and whether the event is logged, routed and acked.

use crate::error::Rejection;
use crate::network::effects::Effect;
use serde_json::{Map, Value};

/// What one core handler decided.
#[derive(Default)]
pub(crate) struct Outcome {
    /// Effects to apply (replies, stores, binds).
    pub effects: Vec<Effect>,
    /// Route the event to its target's recipients.
    pub route: bool,
    /// Give the event a sequence number and log it.
    pub log: bool,
    /// Extra ack payload fields.
    pub ack: Map<String, Value>,
    /// Send no ack (the handler replied itself).
    pub no_ack: bool,
    /// Effects that follow the ack: a member's catch-up starts once it has
    /// the ack that tells it it joined (and from where it resumes).
    pub after_ack: Vec<Effect>,
}

/// What a core handler answers: its [`Outcome`], or why the event is refused.
pub(crate) type Handled = Result<Outcome, Rejection>;

/// Logged, not routed (the network handled it).
pub(crate) fn logged() -> Outcome {
    Outcome {
        log: true,
        ..Outcome::default()
    }
}

/// Logged and routed to its target.
pub(crate) fn routed() -> Outcome {
    Outcome {
        log: true,
        route: true,
        ..Outcome::default()
    }
}

/// Answered with one reply instead of an ack.
pub(crate) fn replied(effect: Effect) -> Outcome {
    unacked(vec![effect])
}

/// Answered by `effects` (a reply among them, or a read whose page is the
/// answer) instead of an ack.
pub(crate) fn unacked(effects: Vec<Effect>) -> Outcome {
    Outcome {
        effects,
        no_ack: true,
        ..Outcome::default()
    }
}
