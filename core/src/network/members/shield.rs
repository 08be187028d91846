//! What a stranger may try, and how often: failed joins (guessing a token,
//! a member secret or an invitation) and key-proof challenges are counted
//! per source — the client's IP when the host knows it, else its connection —
//! and refused with `rate_limited` beyond their [`Rate`]. A source whose
//! failed joins are used up is refused every join until it earns one back,
//! so a guess is never even checked. Buckets live in memory and are
//! forgotten once full again ([`crate::throttle`]).

use crate::error::{ErrorCode, Rejection};
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::throttle::{Buckets, Rate};
use crate::verification::Holder;

/// Failed joins one source may have: 16 at once, then one every 4 seconds.
pub const FAILED_JOINS: Rate = Rate::new(16, 0.25);
/// Key-proof challenges one source may ask for: 20 at once, then one every 2 seconds.
pub const CHALLENGES: Rate = Rate::new(20, 0.5);

/// Where an input came in, as far as the host knows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inbound<'a> {
    /// The member the connection is bound to, once it joined.
    pub session: Option<&'a Address>,
    /// The host's id for the connection, when it is one (a WebSocket):
    /// key-proof nonces are bound to it.
    pub connection: Option<u64>,
    /// The client's IP address, when the host knows it.
    pub peer: Option<&'a str>,
    /// A `DIDWba` `Authorization` header the request carried and the domain
    /// (host name) it reached: a join it comes with proves the header's DID
    /// ([`crate::bindings::access::didwba`]). Only hosts set it, never a frame.
    pub didwba: Option<(&'a str, &'a str)>,
}

impl<'a> Inbound<'a> {
    /// An input on a connection bound to `session` (or not yet joined), from nowhere in particular.
    pub fn session(session: Option<&'a Address>) -> Self {
        Self {
            session,
            ..Self::default()
        }
    }

    /// What throttles count this input under: its IP, else its connection;
    /// `None` for an input the host could not place (an in-process caller).
    pub fn source(&self) -> Option<String> {
        match (self.peer, self.connection) {
            (Some(ip), _) => Some(format!("ip:{ip}")),
            (None, Some(id)) => Some(format!("connection:{id}")),
            (None, None) => None,
        }
    }

    /// Who holds a nonce asked for by this input for `address`.
    pub(crate) fn holder(&self, address: &Address) -> Holder {
        match self.connection {
            Some(id) => Holder::Connection(id),
            None => Holder::Address(address.clone()),
        }
    }
}

/// The throttles of one network.
#[derive(Debug, Clone)]
pub(crate) struct Shield {
    failed_joins: Buckets<String>,
    challenges: Buckets<String>,
}

impl Default for Shield {
    fn default() -> Self {
        Self {
            failed_joins: Buckets::new(FAILED_JOINS),
            challenges: Buckets::new(CHALLENGES),
        }
    }
}

/// Refused with `rate_limited` when `used_up`: too many `what` for `rate`.
fn throttled_if(used_up: bool, what: &str, rate: Rate) -> Result<(), Rejection> {
    if !used_up {
        return Ok(());
    }
    Err(Rejection::new(
        ErrorCode::RateLimited,
        format!(
            "too many {what} from here: {} at once, then {} per second",
            rate.burst, rate.per_second
        ),
    ))
}

impl Shield {
    /// A join from `source` may be tried: it has failed joins left.
    pub(crate) fn may_join(
        &self,
        source: Option<&String>,
        now: Timestamp,
    ) -> Result<(), Rejection> {
        let used_up = source.is_some_and(|s| !self.failed_joins.has_token(s, now));
        throttled_if(used_up, "failed joins", self.failed_joins.rate())
    }

    /// A join from `source` failed.
    pub(crate) fn join_failed(&mut self, source: Option<&String>, now: Timestamp) {
        if let Some(source) = source {
            self.failed_joins.take(source, now);
        }
    }

    /// `source` asks for a challenge: spends one, or is refused.
    pub(crate) fn may_challenge(
        &mut self,
        source: Option<&String>,
        now: Timestamp,
    ) -> Result<(), Rejection> {
        let used_up = source.is_some_and(|s| !self.challenges.take(s, now));
        throttled_if(used_up, "key-proof challenges", self.challenges.rate())
    }
}
