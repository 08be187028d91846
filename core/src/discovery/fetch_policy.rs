//! What passive registration may fetch, and how often one caller may ask:
//! the URL policy ([`FetchPolicy::check_url`]: the deployment's
//! [`OutboundPolicy`], which every fetch on a caller's say-so goes through),
//! the bounds on a fetch (bytes and time), and the per-caller limit on
//! submissions ([`Submissions`]).

use super::error::DiscoveryError;
use crate::ids::time::Timestamp;
use crate::outbound::{Checked, OutboundPolicy};
use std::collections::{BTreeMap, VecDeque};

/// The older name of [`crate::outbound::ALLOW_HOSTS_VAR`], still read by every outbound fetch.
pub const ALLOW_HOSTS_VAR: &str = crate::outbound::DISCOVERY_ALLOW_HOSTS_VAR;
/// Variable setting [`FetchPolicy::per_minute`].
pub const PER_MINUTE_VAR: &str = "AGENTNET_DESCRIPTIONS_PER_MINUTE";
/// The window submissions are counted over.
pub const WINDOW_MS: u64 = 60_000;

/// The bounds of passive registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchPolicy {
    /// Which URLs may be fetched at all.
    pub outbound: OutboundPolicy,
    /// Largest document read, in bytes.
    pub max_bytes: usize,
    /// Longest a fetch may take, in milliseconds.
    pub timeout_ms: u64,
    /// Submissions one caller may make in [`WINDOW_MS`].
    pub per_minute: u32,
}

impl Default for FetchPolicy {
    fn default() -> Self {
        Self {
            outbound: OutboundPolicy::strict(),
            max_bytes: 64 * 1024,
            timeout_ms: 5_000,
            per_minute: 10,
        }
    }
}

impl FetchPolicy {
    /// The policy from the deployment's outbound policy and variable
    /// [`PER_MINUTE_VAR`] (unset or unreadable: the default).
    pub fn from_vars(outbound: OutboundPolicy, per_minute: Option<&str>) -> Self {
        let defaults = Self::default();
        Self {
            outbound,
            per_minute: per_minute
                .and_then(|n| n.trim().parse().ok())
                .filter(|n| *n > 0)
                .unwrap_or(defaults.per_minute),
            ..defaults
        }
    }

    /// Whether `url` may be fetched ([`OutboundPolicy::check`]): the URL to
    /// fetch, or `url_invalid`, `url_scheme_refused`,
    /// `url_credentials_refused` or `url_private_address`.
    pub fn check_url(&self, url: &str) -> Result<Checked, DiscoveryError> {
        Ok(self.outbound.check(url)?)
    }
}

/// Recent submissions by caller (kept in memory by the registry object).
#[derive(Debug, Clone, Default)]
pub struct Submissions {
    by_caller: BTreeMap<String, VecDeque<Timestamp>>,
}

impl Submissions {
    /// Counts one submission of `caller` at `now`, or refuses it with
    /// `rate_limited` and the seconds until one is allowed again.
    pub fn admit(
        &mut self,
        caller: &str,
        now: Timestamp,
        limit: u32,
    ) -> Result<(), DiscoveryError> {
        let since = now.checked_minus_millis(WINDOW_MS);
        self.by_caller.retain(|_, times| {
            while times
                .front()
                .is_some_and(|t| since.is_some_and(|since| *t <= since))
            {
                times.pop_front();
            }
            !times.is_empty()
        });
        let times = self.by_caller.entry(caller.to_owned()).or_default();
        if times.len() >= limit as usize {
            let free_at = times.front().map_or(now, |t| t.plus_millis(WINDOW_MS));
            let retry_after_s = free_at.millis_since(now).div_ceil(1000).max(1);
            return Err(DiscoveryError::RateLimited { retry_after_s });
        }
        times.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
#[path = "fetch_policy_tests.rs"]
mod tests;
