//! `mod/rate-limiter`: a token bucket per sender (priority 10).
//!
//! Each sender may send `burst` events at once and `per_second` more every
//! second after that. A member's events are counted under its address (the
//! network has checked it is the connection's). A join's address is only
//! claimed, so a join is counted under where it came from when the host says
//! ([`JoinClaim::from`]): joins claiming someone's address cannot spend that
//! member's bucket. Time comes from the pipeline context; nothing reads a
//! clock. Buckets live in memory and are forgotten once full again
//! ([`crate::throttle`]); after a restart every sender starts with a full
//! bucket, which is at most one burst more than it would have had.

use super::api::{Context, Mod, ModMode, ModSpec};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::model::config::RateLimit;
use crate::throttle::{Buckets, Rate};

/// Whose bucket an event spends.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Sender {
    /// A member (or a join the host could not place: its claimed address).
    Address(Address),
    /// A join, by where it came from.
    Joiner(String),
}

pub(super) struct RateLimiter {
    spec: ModSpec,
    limit: RateLimit,
    buckets: Buckets<Sender>,
}

impl RateLimiter {
    pub(super) fn new(limit: RateLimit) -> Self {
        Self {
            spec: ModSpec::standard("rate-limiter", &["*"], 10, ModMode::Guard),
            limit,
            buckets: Buckets::new(Rate::new(limit.burst, limit.per_second)),
        }
    }
}

impl Mod for RateLimiter {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }

    fn guard(&mut self, cx: &Context<'_>, event: &Event) -> Result<(), Rejection> {
        let sender = match cx.join.and_then(|claim| claim.from.clone()) {
            Some(from) => Sender::Joiner(from),
            None => Sender::Address(event.source.clone()),
        };
        if self.buckets.take(&sender, cx.now) {
            return Ok(());
        }
        Err(Rejection::new(
            ErrorCode::RateLimited,
            format!(
                "{} sent more than {} events at once or {} per second",
                event.source, self.limit.burst, self.limit.per_second
            ),
        ))
    }
}
