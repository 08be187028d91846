//! `mod/rate-limiter`: a token bucket per source (priority 10).
//!
//! Each source may send `burst` events at once and `per_second` more every
//! second after that. Time comes from the pipeline context; nothing reads a
//! clock. Buckets live in memory: after a restart every source starts with
//! a full bucket, which is at most one burst more than it would have had.

use super::api::{Context, Mod, ModMode, ModSpec};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::model::config::RateLimit;
use std::collections::BTreeMap;

struct Bucket {
    tokens: f64,
    updated: u64,
}

pub(super) struct RateLimiter {
    spec: ModSpec,
    limit: RateLimit,
    buckets: BTreeMap<Address, Bucket>,
}

impl RateLimiter {
    pub(super) fn new(limit: RateLimit) -> Self {
        Self {
            spec: ModSpec::standard("rate-limiter", &["*"], 10, ModMode::Guard),
            limit,
            buckets: BTreeMap::new(),
        }
    }
}

impl Mod for RateLimiter {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }

    fn guard(&mut self, cx: &Context<'_>, event: &Event) -> Result<(), Rejection> {
        let burst = f64::from(self.limit.burst);
        // One search of the map; cloning an address only bumps reference counts.
        let bucket = self.buckets.entry(event.source.clone()).or_insert(Bucket {
            tokens: burst,
            updated: cx.now,
        });
        let elapsed_s = cx.now.saturating_sub(bucket.updated) as f64 / 1000.0;
        bucket.tokens = (bucket.tokens + elapsed_s * self.limit.per_second.max(0.0)).min(burst);
        bucket.updated = cx.now.max(bucket.updated);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Rejection::new(
                ErrorCode::RateLimited,
                format!(
                    "{} sent more than {} events at once or {} per second",
                    event.source, self.limit.burst, self.limit.per_second
                ),
            ))
        }
    }
}
