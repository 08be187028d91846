//! How long HTTP sessions, tickets and OAuth grants live (the stored rows and when they
//! expire), and what one network's object takes in WebSockets: how many,
//! how soon each must join, how many frames that are no events it may send. The host holds one [`Policy`]
//! ([`Policy::default`] in production); tests may shorten it with
//! [`Policy::with_overrides`], which a host honours only with its test hooks on.

use crate::Timestamp;
use crate::throttle::Rate;
use serde::Deserialize;

/// A session unused for this long has expired (refreshed by use).
pub const SESSION_IDLE_MS: u64 = 24 * 3600 * 1000;
/// A session older than this has expired, however often it is used.
pub const SESSION_MAX_AGE_MS: u64 = 7 * 24 * 3600 * 1000;
/// How long a ticket for a WebSocket or a stream stays valid (it is good once).
pub const TICKET_TTL_MS: u64 = 60_000;
/// How long an OAuth authorization code stays redeemable (it is good once).
pub const OAUTH_CODE_TTL_MS: u64 = 60_000;
/// How long an OAuth access token for a network's MCP endpoint is valid.
pub const OAUTH_ACCESS_TTL_MS: u64 = 3600 * 1000;
/// How long an OAuth refresh token is valid (each use replaces it with a new one).
pub const OAUTH_REFRESH_TTL_MS: u64 = 30 * 24 * 3600 * 1000;
/// Most WebSockets one network's object holds.
pub const MAX_SOCKETS: usize = 8_192;
/// Most WebSockets that have not joined (yet) one network's object holds.
pub const MAX_UNJOINED: usize = 1_024;
/// Most WebSockets that have not joined one client IP may hold in a network.
pub const MAX_UNJOINED_PER_PEER: usize = 64;
/// A WebSocket that has not joined this long after it opened (or left) is closed.
pub const JOIN_DEADLINE_MS: u64 = 20_000;
/// Frames that are no event (or anything but a join or challenge before a
/// join) one socket may send: 8 at once, then one every 10 seconds.
pub const BAD_FRAMES: Rate = Rate::new(8, 0.1);
/// While a connection gateway holds sockets its alarm comes at least this
/// often, so a gateway the platform reset without a close it could see
/// finds out and reports the members it lost.
pub const GATEWAY_RECONCILE_MS: u64 = 60_000;

/// The limits a host applies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    /// [`SESSION_IDLE_MS`].
    pub session_idle_ms: u64,
    /// [`SESSION_MAX_AGE_MS`].
    pub session_max_age_ms: u64,
    /// [`TICKET_TTL_MS`].
    pub ticket_ttl_ms: u64,
    /// [`OAUTH_CODE_TTL_MS`].
    pub oauth_code_ttl_ms: u64,
    /// [`OAUTH_ACCESS_TTL_MS`].
    pub oauth_access_ttl_ms: u64,
    /// [`OAUTH_REFRESH_TTL_MS`].
    pub oauth_refresh_ttl_ms: u64,
    /// [`MAX_SOCKETS`].
    pub max_sockets: usize,
    /// [`MAX_UNJOINED`].
    pub max_unjoined: usize,
    /// [`MAX_UNJOINED_PER_PEER`].
    pub max_unjoined_per_peer: usize,
    /// [`JOIN_DEADLINE_MS`].
    pub join_deadline_ms: u64,
    /// [`BAD_FRAMES`].
    pub bad_frames: Rate,
    /// [`GATEWAY_RECONCILE_MS`].
    pub gateway_reconcile_ms: u64,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            session_idle_ms: SESSION_IDLE_MS,
            session_max_age_ms: SESSION_MAX_AGE_MS,
            ticket_ttl_ms: TICKET_TTL_MS,
            oauth_code_ttl_ms: OAUTH_CODE_TTL_MS,
            oauth_access_ttl_ms: OAUTH_ACCESS_TTL_MS,
            oauth_refresh_ttl_ms: OAUTH_REFRESH_TTL_MS,
            max_sockets: MAX_SOCKETS,
            max_unjoined: MAX_UNJOINED,
            max_unjoined_per_peer: MAX_UNJOINED_PER_PEER,
            join_deadline_ms: JOIN_DEADLINE_MS,
            bad_frames: BAD_FRAMES,
            gateway_reconcile_ms: GATEWAY_RECONCILE_MS,
        }
    }
}

/// The fields [`Policy::with_overrides`] reads; each is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Overrides {
    session_idle_ms: Option<u64>,
    session_max_age_ms: Option<u64>,
    ticket_ttl_ms: Option<u64>,
    oauth_code_ttl_ms: Option<u64>,
    oauth_access_ttl_ms: Option<u64>,
    oauth_refresh_ttl_ms: Option<u64>,
    max_sockets: Option<usize>,
    max_unjoined: Option<usize>,
    max_unjoined_per_peer: Option<usize>,
    join_deadline_ms: Option<u64>,
    bad_frames_burst: Option<u32>,
    gateway_reconcile_ms: Option<u64>,
}

impl Policy {
    /// Session refreshes are written at most this often: a session's idle
    /// time is measured to within this (a twenty-fourth of the idle limit).
    pub fn session_touch_ms(&self) -> u64 {
        self.session_idle_ms / 24
    }

    /// This policy with the fields of a JSON object replaced (for tests: a
    /// short join deadline, a short session). Unknown fields are an error.
    pub fn with_overrides(mut self, json: &str) -> Result<Self, String> {
        let o: Overrides =
            serde_json::from_str(json).map_err(|e| format!("policy overrides: {e}"))?;
        let set = |field: &mut u64, value: Option<u64>| *field = value.unwrap_or(*field);
        set(&mut self.session_idle_ms, o.session_idle_ms);
        set(&mut self.session_max_age_ms, o.session_max_age_ms);
        set(&mut self.ticket_ttl_ms, o.ticket_ttl_ms);
        set(&mut self.oauth_code_ttl_ms, o.oauth_code_ttl_ms);
        set(&mut self.oauth_access_ttl_ms, o.oauth_access_ttl_ms);
        set(&mut self.oauth_refresh_ttl_ms, o.oauth_refresh_ttl_ms);
        set(&mut self.join_deadline_ms, o.join_deadline_ms);
        set(&mut self.gateway_reconcile_ms, o.gateway_reconcile_ms);
        self.max_sockets = o.max_sockets.unwrap_or(self.max_sockets);
        self.max_unjoined = o.max_unjoined.unwrap_or(self.max_unjoined);
        self.max_unjoined_per_peer = o
            .max_unjoined_per_peer
            .unwrap_or(self.max_unjoined_per_peer);
        if let Some(burst) = o.bad_frames_burst {
            self.bad_frames.burst = burst;
        }
        Ok(self)
    }
}

/// A stored session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRow {
    /// The member it authenticates.
    pub address: String,
    /// When it was started.
    pub created: Timestamp,
    /// When it was last refreshed by use.
    pub last_used: Timestamp,
}

/// A stored ticket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketRow {
    /// The member it authenticates.
    pub address: String,
    /// When it stops being valid.
    pub expires_at: Timestamp,
}

/// What a stored session is worth at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionState {
    /// Valid; `touch` says its use should be written down now.
    Live {
        /// Refresh `last_used`.
        touch: bool,
    },
    /// Idle too long or too old.
    Expired,
}

impl SessionRow {
    /// The session's state at `now` under `policy`.
    pub fn state(&self, policy: &Policy, now: Timestamp) -> SessionState {
        let idle = now.millis_since(self.last_used.max(self.created));
        let age = now.millis_since(self.created);
        if idle >= policy.session_idle_ms || age >= policy.session_max_age_ms {
            SessionState::Expired
        } else {
            SessionState::Live {
                touch: idle >= policy.session_touch_ms(),
            }
        }
    }
}

/// Which sessions have expired at `now`: those last used (or started) at
/// or before `idle_before`, and those started at or before `created_before`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expired {
    /// Unused since this moment or earlier (`None` while no session can be that idle).
    pub idle_before: Option<Timestamp>,
    /// Started at this moment or earlier (`None` while no session can be that old).
    pub created_before: Option<Timestamp>,
}

impl Expired {
    /// The bounds at `now` under `policy`.
    pub fn at(policy: &Policy, now: Timestamp) -> Self {
        Self {
            idle_before: now.checked_minus_millis(policy.session_idle_ms),
            created_before: now.checked_minus_millis(policy.session_max_age_ms),
        }
    }

    /// True when a session started at `created` and last used at `last_used` has expired.
    pub fn covers(&self, created: Timestamp, last_used: Timestamp) -> bool {
        self.idle_before
            .is_some_and(|bound| last_used.max(created) <= bound)
            || self.created_before.is_some_and(|bound| created <= bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_replace_only_what_they_name() {
        let policy = Policy::default()
            .with_overrides(r#"{"join_deadline_ms": 1500, "max_sockets": 3}"#)
            .unwrap();
        assert_eq!(policy.join_deadline_ms, 1500);
        assert_eq!(policy.max_sockets, 3);
        assert_eq!(policy.session_idle_ms, SESSION_IDLE_MS);
        assert_eq!(policy.gateway_reconcile_ms, GATEWAY_RECONCILE_MS);
        let quick = Policy::default()
            .with_overrides(r#"{"gateway_reconcile_ms": 1000}"#)
            .unwrap();
        assert_eq!(quick.gateway_reconcile_ms, 1000);
        assert_eq!(
            Policy::default().with_overrides("{}"),
            Ok(Policy::default())
        );
        assert!(Policy::default().with_overrides(r#"{"typo": 1}"#).is_err());
        assert!(Policy::default().with_overrides("[").is_err());
        assert_eq!(Policy::default().session_touch_ms(), 3600 * 1000);
    }

    fn row(created: u64, last_used: u64) -> SessionRow {
        SessionRow {
            address: "agent:a".into(),
            created: Timestamp::from(created),
            last_used: Timestamp::from(last_used),
        }
    }

    #[test]
    fn a_session_expires_when_idle_or_old_and_is_refreshed_by_use() {
        let policy = Policy::default();
        let day = policy.session_idle_ms;
        let fresh = row(0, 0);
        assert_eq!(
            fresh.state(&policy, Timestamp::from(1)),
            SessionState::Live { touch: false }
        );
        // Used within the hour: nothing to write.
        assert_eq!(
            fresh.state(&policy, Timestamp::from(day / 24 - 1)),
            SessionState::Live { touch: false }
        );
        assert_eq!(
            fresh.state(&policy, Timestamp::from(day / 24)),
            SessionState::Live { touch: true }
        );
        assert_eq!(
            fresh.state(&policy, Timestamp::from(day)),
            SessionState::Expired
        );
        // Used every hour it lives on, until its maximum age.
        let used = row(0, 6 * day);
        assert_eq!(
            used.state(&policy, Timestamp::from(6 * day + 1)),
            SessionState::Live { touch: false }
        );
        assert_eq!(
            used.state(&policy, Timestamp::from(policy.session_max_age_ms)),
            SessionState::Expired
        );
        // A clock that went back does not expire or refresh anything.
        assert_eq!(
            row(100, 100).state(&policy, Timestamp::from(50)),
            SessionState::Live { touch: false }
        );
    }

    #[test]
    fn the_prune_bounds_are_the_expiry_rules() {
        let policy = Policy::default();
        let now = 10 * policy.session_max_age_ms;
        let expired = Expired::at(&policy, Timestamp::from(now));
        let idle_before = expired.idle_before.unwrap().as_millis();
        let created_before = expired.created_before.unwrap().as_millis();
        // A row is pruned exactly when it has expired.
        for (created, last_used) in [
            (now - 1, now - 1),
            (idle_before, idle_before),
            (idle_before + 1, idle_before + 1),
            (idle_before - 1, now),
            (created_before, now),
            (created_before + 1, now),
        ] {
            assert_eq!(
                expired.covers(Timestamp::from(created), Timestamp::from(last_used)),
                row(created, last_used).state(&policy, Timestamp::from(now))
                    == SessionState::Expired,
                "created {created}, used {last_used}"
            );
        }
        // Early on (a test clock) nothing can have expired.
        assert!(
            !Expired::at(&policy, Timestamp::from(5)).covers(Timestamp::EPOCH, Timestamp::EPOCH)
        );
    }
}
