//! When the link needs a heartbeat, when it is dead, and when to reconnect.
//!
//! A socket can die without closing: a laptop sleeps, a NAT forgets the
//! flow, a proxy stops forwarding. Then no frame arrives and nothing says
//! so. The replica therefore watches the link itself: after
//! [`Keepalive::heartbeat_after_ms`] without a frame from the network it
//! sends a heartbeat ([`HEARTBEAT_PING`], which the edge answers with
//! [`HEARTBEAT_PONG`] without waking the network's object); when no frame at
//! all arrives within [`Keepalive::heartbeat_timeout_ms`] after it, the link
//! is dead and the host must close it. A lost link is reopened after an
//! exponential backoff with jitter (from randomness the host passes in), so
//! many clients cut off together do not come back in step.
//!
//! Like the rest of the replica this does no I/O: time and randomness are
//! arguments, and the decisions come back as values.

use crate::ids::time::Timestamp;

/// The heartbeat the replica sends: a text frame the edge answers without
/// waking the network (`set_websocket_auto_response`), not an event.
pub const HEARTBEAT_PING: &str = "ping";
/// The edge's answer to [`HEARTBEAT_PING`]. Like any frame it proves the link
/// alive; the replica ignores it otherwise.
pub const HEARTBEAT_PONG: &str = "pong";

/// How the replica keeps its link alive and reopens it (see
/// [`super::Replica::set_keepalive`]). All times in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keepalive {
    /// A heartbeat goes out after this long without a frame from the network.
    pub heartbeat_after_ms: u64,
    /// The link is dead when no frame arrives this long after a heartbeat.
    pub heartbeat_timeout_ms: u64,
    /// The first reconnection waits up to this long; each further attempt
    /// without a successful join doubles it…
    pub backoff_first_ms: u64,
    /// …up to this.
    pub backoff_max_ms: u64,
}

impl Default for Keepalive {
    /// A heartbeat after 15 s of silence, dead 10 s later; reconnect after
    /// 250 ms doubling to 10 s (each between half and all of that).
    fn default() -> Self {
        Self {
            heartbeat_after_ms: 15_000,
            heartbeat_timeout_ms: 10_000,
            backoff_first_ms: 250,
            backoff_max_ms: 10_000,
        }
    }
}

impl Keepalive {
    /// The wait before reconnection attempt `attempt` (0 for the first after
    /// a working link): `first · 2^attempt`, capped at the maximum, then
    /// between half and all of that as `random` (any value) says.
    pub fn backoff(&self, attempt: u32, random: u32) -> u64 {
        let full = self
            .backoff_first_ms
            .saturating_mul(1u64 << attempt.min(32))
            .min(self.backoff_max_ms);
        let half = full / 2;
        // `random` spread over [0, full - half]: no modulo bias worth the name at these sizes.
        let spread = (u64::from(random) * (full - half + 1)) >> 32;
        half + spread
    }
}

/// What is due on the link now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Due {
    /// Open a new connection.
    Reconnect,
    /// No frame since the heartbeat: close the connection (it is offline now).
    Dead,
    /// Send a heartbeat.
    Ping,
}

/// The link's clock: when a frame last arrived, whether a heartbeat is
/// unanswered, and when to reconnect.
#[derive(Debug, Clone, Default)]
pub(crate) struct Liveness {
    /// `None`: the host manages the link itself (the default).
    keepalive: Option<Keepalive>,
    /// While connected: when a frame last arrived (or the connection opened).
    heard_at: Option<Timestamp>,
    /// When the unanswered heartbeat went out.
    ping_sent: Option<Timestamp>,
    /// While disconnected: when to reconnect.
    reconnect_at: Option<Timestamp>,
    /// Reconnection attempts since the last successful join.
    attempt: u32,
}

impl Liveness {
    pub fn set(&mut self, keepalive: Option<Keepalive>) {
        self.keepalive = keepalive;
        if keepalive.is_none() {
            self.reconnect_at = None;
        }
    }

    /// A connection opened at `now`.
    pub fn connected(&mut self, now: Timestamp) {
        self.heard_at = Some(now);
        self.ping_sent = None;
        self.reconnect_at = None;
    }

    /// A frame arrived at `now`: the link is alive.
    pub fn heard(&mut self, now: Timestamp) {
        if let Some(at) = &mut self.heard_at {
            *at = (*at).max(now);
            self.ping_sent = None;
        }
    }

    /// The join succeeded: the next loss starts the backoff afresh.
    pub fn joined(&mut self) {
        self.attempt = 0;
    }

    /// The connection is gone; nothing is scheduled.
    pub fn disconnected(&mut self) {
        self.heard_at = None;
        self.ping_sent = None;
        self.reconnect_at = None;
    }

    /// The connection was lost at `now` (or could not be opened): schedule the next attempt.
    pub fn lost(&mut self, now: Timestamp, random: u32) {
        self.disconnected();
        if let Some(keepalive) = &self.keepalive {
            let wait = keepalive.backoff(self.attempt, random);
            self.reconnect_at = Some(now.plus_millis(wait));
            self.attempt = self.attempt.saturating_add(1);
        }
    }

    /// The platform says the network is back at `now`: a waiting attempt is
    /// due at once and the backoff starts afresh. True when one was waiting.
    pub fn retry_now(&mut self, now: Timestamp) -> bool {
        match &mut self.reconnect_at {
            Some(at) => {
                *at = (*at).min(now);
                self.attempt = 0;
                true
            }
            None => false,
        }
    }

    /// True while a connection is open (or opening, with frames heard).
    pub fn is_connected(&self) -> bool {
        self.heard_at.is_some()
    }

    /// When something is next due.
    pub fn next(&self) -> Option<Timestamp> {
        let keepalive = self.keepalive.as_ref()?;
        if let Some(at) = self.reconnect_at {
            return Some(at);
        }
        let heard = self.heard_at?;
        Some(match self.ping_sent {
            Some(sent) => sent.plus_millis(keepalive.heartbeat_timeout_ms),
            None => heard.plus_millis(keepalive.heartbeat_after_ms),
        })
    }

    /// What is due at `now`, if anything; the caller acts on it.
    pub fn due(&mut self, now: Timestamp) -> Option<Due> {
        if self.next()? > now {
            return None;
        }
        if self.reconnect_at.take().is_some() {
            return Some(Due::Reconnect);
        }
        if self.ping_sent.is_some() {
            self.disconnected();
            return Some(Due::Dead);
        }
        self.ping_sent = Some(now);
        Some(Due::Ping)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on() -> Liveness {
        let mut liveness = Liveness::default();
        liveness.set(Some(Keepalive::default()));
        liveness
    }

    #[test]
    fn the_backoff_doubles_to_its_cap_and_jitters_between_half_and_all() {
        let k = Keepalive::default();
        assert_eq!(k.backoff(0, 0), 125);
        assert_eq!(k.backoff(0, u32::MAX), 250);
        assert_eq!(k.backoff(1, 0), 250);
        assert_eq!(k.backoff(1, u32::MAX), 500);
        assert_eq!(k.backoff(5, u32::MAX), 8_000);
        assert_eq!(k.backoff(6, u32::MAX), 10_000, "capped");
        assert_eq!(
            k.backoff(u32::MAX, 0),
            5_000,
            "no overflow, however many attempts"
        );
        for random in [1, 1 << 20, 1 << 31, u32::MAX - 1] {
            let wait = k.backoff(3, random);
            assert!((1_000..=2_000).contains(&wait), "{wait}");
        }
    }

    #[test]
    fn off_by_default_nothing_is_ever_due() {
        let mut liveness = Liveness::default();
        liveness.connected(Timestamp::from(0));
        liveness.lost(Timestamp::from(5), 0);
        assert_eq!(liveness.next().map(Timestamp::as_millis), None);
        assert_eq!(liveness.due(Timestamp::from(u64::MAX)), None);
    }

    #[test]
    fn silence_brings_a_heartbeat_and_an_unanswered_one_a_dead_link() {
        let mut liveness = on();
        liveness.connected(Timestamp::from(1_000));
        assert_eq!(liveness.next().map(Timestamp::as_millis), Some(16_000));
        assert_eq!(liveness.due(Timestamp::from(15_999)), None);
        // A frame moves the heartbeat back.
        liveness.heard(Timestamp::from(10_000));
        assert_eq!(liveness.next().map(Timestamp::as_millis), Some(25_000));
        assert_eq!(liveness.due(Timestamp::from(25_000)), Some(Due::Ping));
        assert_eq!(
            liveness.next().map(Timestamp::as_millis),
            Some(35_000),
            "dead ten seconds after the ping"
        );
        assert_eq!(liveness.due(Timestamp::from(34_999)), None);
        assert_eq!(liveness.due(Timestamp::from(35_000)), Some(Due::Dead));
        assert_eq!(
            liveness.next().map(Timestamp::as_millis),
            None,
            "offline: nothing until the host reports the loss"
        );
    }

    #[test]
    fn any_frame_answers_a_heartbeat() {
        let mut liveness = on();
        liveness.connected(Timestamp::from(0));
        assert_eq!(liveness.due(Timestamp::from(15_000)), Some(Due::Ping));
        liveness.heard(Timestamp::from(15_050));
        assert_eq!(liveness.next().map(Timestamp::as_millis), Some(30_050));
        assert_eq!(liveness.due(Timestamp::from(30_050)), Some(Due::Ping));
    }

    #[test]
    fn losses_back_off_until_a_join_succeeds() {
        let mut liveness = on();
        liveness.lost(Timestamp::from(0), u32::MAX);
        assert_eq!(liveness.next().map(Timestamp::as_millis), Some(250));
        assert_eq!(liveness.due(Timestamp::from(250)), Some(Due::Reconnect));
        assert_eq!(
            liveness.next().map(Timestamp::as_millis),
            None,
            "reconnecting: nothing due until it opens"
        );
        liveness.lost(Timestamp::from(300), u32::MAX);
        assert_eq!(liveness.next().map(Timestamp::as_millis), Some(800));
        liveness.lost(Timestamp::from(900), u32::MAX);
        assert_eq!(liveness.next().map(Timestamp::as_millis), Some(1_900));
        liveness.connected(Timestamp::from(2_000));
        liveness.joined();
        liveness.lost(Timestamp::from(3_000), u32::MAX);
        assert_eq!(
            liveness.next().map(Timestamp::as_millis),
            Some(3_250),
            "a successful join resets the backoff"
        );
        // Closing for good cancels the reconnection.
        liveness.disconnected();
        assert_eq!(liveness.next().map(Timestamp::as_millis), None);
    }
}
