//! At-least-once delivery: sequence chains, ack cursors, catch-up and redelivery,
//! and deduplication by event id.
//!
//! * Every logged event has a network-wide `seq`. Each delivery to a member
//!   carries `metadata.delivery = {seq, prev}`, where `prev` is the `seq` of
//!   the previous event delivered to that member, so a replica can tell a
//!   gap (`prev` beyond what it holds) from a duplicate (`seq` it holds).
//! * Each log row names its *audiences* — `public`, `member:{address}`,
//!   `channel/{name}`, `group/{name}` — which the host indexes as
//!   `(audience, seq)`. "What comes after cursor N for member X" is then a
//!   range scan over X's few audiences, never a scan of the whole log.
//! * A member acknowledges cumulatively (`network.event.ack` to `core` with
//!   `{seq}`); the network keeps that cursor as a row. Deliveries not
//!   acknowledged within [`REDELIVERY_TIMEOUT_MS`] are sent again from the
//!   cursor when the host's alarm calls `Network::on_alarm`.
//! * While a member catches up (after joining, resuming or a redelivery) its
//!   live deliveries wait in the log, so pages and live events never
//!   interleave out of order.
//! * Deduplication: the last [`DEDUPE_WINDOW`] logged ids are kept in
//!   memory (`super::dedupe`); older ids are looked up in the host's
//!   [`EventIndex`] (the log's unique id column). A resubmitted event gets
//!   its original ack.

use crate::event::Event;
use crate::event::metadata::Visibility;
use crate::ids::address::{Address, Entity};
use crate::ids::ulid::EventId;
use crate::model::state::State;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

/// Logged ids remembered in memory for deduplication.
pub const DEDUPE_WINDOW: usize = 65_536;
/// How long a delivery may stay unacknowledged before it is sent again.
pub const REDELIVERY_TIMEOUT_MS: u64 = 10_000;
/// A moving cursor is written to storage when it advanced this many events…
pub const CURSOR_PERSIST_EVERY: u64 = 64;
/// …or this long after its last write. A restart may therefore resend up to
/// that much, which replicas drop as duplicates.
pub const CURSOR_PERSIST_AFTER_MS: u64 = 1_000;

/// Where older event ids are looked up (the host's log index).
pub trait EventIndex {
    /// The `seq` of a logged event with this id, if the log still has it.
    fn seq_of(&self, id: &EventId) -> Option<u64>;

    /// The greatest id timestamp (ms) among the logged events, `None` for an
    /// empty log. Ids with a later timestamp that are not in the in-memory
    /// window are new without asking [`EventIndex::seq_of`]. The default,
    /// `Some(u64::MAX)`, always asks.
    fn newest_timestamp(&self) -> Option<u64> {
        Some(u64::MAX)
    }
}

/// An index that knows nothing: deduplication is then limited to the window.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoIndex;

impl EventIndex for NoIndex {
    fn seq_of(&self, _id: &EventId) -> Option<u64> {
        None
    }

    fn newest_timestamp(&self) -> Option<u64> {
        None
    }
}

/// The audiences a logged event is indexed under.
pub fn audiences_of(state: &State, event: &Event, visibility: Visibility) -> Vec<String> {
    if visibility == Visibility::ModOnly {
        return Vec::new();
    }
    if !event.target.is_local() {
        return state
            .bridge_for(&event.target)
            .map(|bridge| vec![member_audience(bridge)])
            .unwrap_or_default();
    }
    match event.target.entity() {
        Entity::Broadcast => vec!["public".to_owned()],
        e if e.is_participant() => vec![member_audience(&event.target)],
        // Written as `member_audiences` writes them, so the two always match.
        Entity::Channel(name) => vec![format!("channel/{name}")],
        Entity::Group(name) => vec![format!("group/{name}")],
        Entity::Tool(_) | Entity::File(_) | Entity::Context(_) => state
            .resources
            .get(&event.target)
            .map(|r| vec![member_audience(&r.owner)])
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// `member:{address}`: the audience of what is addressed to one member.
/// Built without `format!`, as it is for nearly every logged event.
fn member_audience(address: &Address) -> String {
    const PREFIX: &str = "member:";
    let mut audience = String::with_capacity(PREFIX.len() + 24);
    audience.push_str(PREFIX);
    address.push_to(&mut audience);
    audience
}

/// The audiences member `address` reads from.
pub fn member_audiences(state: &State, address: &Address) -> Vec<String> {
    let mut audiences = vec!["public".to_owned(), member_audience(address)];
    audiences.extend(
        state
            .channels
            .values()
            .filter(|c| c.members.contains(address))
            .map(|c| format!("channel/{}", c.name)),
    );
    audiences.extend(
        state
            .groups
            .values()
            .filter(|g| g.members.contains(address))
            .map(|g| format!("group/{}", g.name)),
    );
    audiences
}

/// The event as delivered to one member: `metadata.delivery = {seq, prev}`.
pub fn delivery_frame(event: &Event, seq: u64, prev: u64) -> Event {
    let mut framed = event.clone();
    framed
        .metadata
        .insert("delivery".into(), json!({"seq": seq, "prev": prev}));
    framed
}

/// From this many recipients on, a fan-out's frames are made from a [`FrameTemplate`].
pub const FRAME_TEMPLATE_FROM: usize = 3;

/// A delivery frame's text split around the digits of its `metadata.delivery.prev`,
/// so a fan-out encodes the event twice instead of once per recipient.
///
/// The split is found by encoding the frame with `prev` 0 and with `prev` 1:
/// the two texts differ in exactly that digit, wherever the serializer put it,
/// whatever the payload and the other metadata hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameTemplate {
    head: String,
    tail: String,
}

impl FrameTemplate {
    /// The template of `event`'s frames as the logged event `seq`.
    pub fn new(event: &Event, seq: u64) -> Option<Self> {
        let zero = event.encode_delivered(seq, 0);
        let one = event.encode_delivered(seq, 1);
        if zero.len() != one.len() {
            return None;
        }
        let at = zero.bytes().zip(one.bytes()).position(|(a, b)| a != b)?;
        let digit_only = zero.as_bytes()[at] == b'0' && zero[at + 1..] == one[at + 1..];
        digit_only.then(|| Self {
            head: zero[..at].to_owned(),
            tail: zero[at + 1..].to_owned(),
        })
    }

    /// The frame with `metadata.delivery.prev = prev`.
    pub fn with_prev(&self, prev: u64) -> String {
        let digits = prev.to_string();
        let mut frame = String::with_capacity(self.head.len() + digits.len() + self.tail.len());
        frame.push_str(&self.head);
        frame.push_str(&digits);
        frame.push_str(&self.tail);
        frame
    }
}

/// Where deliveries to one member stand.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// `seq` of the last event delivered to the member (the next `prev`).
    pub last_delivered: u64,
    /// Since when it has had unacknowledged deliveries; `None` when it has none.
    pub unacked_since: Option<u64>,
}

/// Per-member delivery progress.
#[derive(Debug, Default, Clone)]
pub struct Tracker {
    /// Cumulative acknowledgement cursor per member (persisted).
    pub cursors: BTreeMap<Address, u64>,
    /// Last delivery and unacknowledged time per member: one entry, so a
    /// delivery (once per recipient of every event) looks the member up once.
    pub progress: BTreeMap<Address, Progress>,
    /// Members whose catch-up is in progress: live deliveries wait in the log.
    pub catching_up: BTreeSet<Address>,
    /// The cursor last written to storage per member, and when.
    pub persisted: BTreeMap<Address, (u64, u64)>,
}

impl Tracker {
    /// Records a delivery of `seq` to `member` at `now`; returns its `prev`.
    pub fn delivered(&mut self, member: &Address, seq: u64, now: u64) -> u64 {
        // Look up before inserting: cloning the key is only needed the first time.
        match self.progress.get_mut(member) {
            Some(progress) => {
                progress.unacked_since.get_or_insert(now);
                std::mem::replace(&mut progress.last_delivered, seq)
            }
            None => {
                let progress = Progress {
                    last_delivered: seq,
                    unacked_since: Some(now),
                };
                self.progress.insert(member.clone(), progress);
                0
            }
        }
    }

    /// The `seq` last delivered to `member` (0 when none).
    fn last_delivered(&self, member: &Address) -> u64 {
        self.progress.get(member).map_or(0, |p| p.last_delivered)
    }

    /// Forgets that `member` has unacknowledged deliveries (it left, or they
    /// will be sent again from its cursor).
    pub fn forget_unacked(&mut self, member: &Address) {
        if let Some(progress) = self.progress.get_mut(member) {
            progress.unacked_since = None;
        }
    }

    /// Applies a cumulative ack; returns the new cursor when it moved.
    pub fn acknowledge(&mut self, member: &Address, seq: u64) -> Option<u64> {
        let delivered = self.last_delivered(member);
        // A member cannot acknowledge what it was never sent.
        let seq = seq.min(delivered.max(self.cursor(member)));
        if seq >= delivered {
            self.forget_unacked(member);
        }
        if seq > self.cursor(member) {
            self.cursors.insert(member.clone(), seq);
            Some(seq)
        } else {
            None
        }
    }

    /// The member holds everything up to `seq` (a poll's `after`, an SSE write):
    /// that is both its delivery point and its acknowledgement. Returns the new
    /// cursor when it moved.
    pub fn holds_up_to(&mut self, member: &Address, seq: u64) -> Option<u64> {
        let progress = self.progress.entry(member.clone()).or_default();
        progress.last_delivered = progress.last_delivered.max(seq);
        self.acknowledge(member, seq)
    }

    /// Whether a cursor that moved to `cursor` should be written now.
    pub fn should_persist(&mut self, member: &Address, cursor: u64, now: u64) -> bool {
        let due = match self.persisted.get(member) {
            None => true,
            Some((seq, at)) => {
                cursor >= seq.saturating_add(CURSOR_PERSIST_EVERY)
                    || now >= at.saturating_add(CURSOR_PERSIST_AFTER_MS)
            }
        };
        if due {
            self.persisted.insert(member.clone(), (cursor, now));
        }
        due
    }

    /// The member's acknowledged cursor.
    pub fn cursor(&self, member: &Address) -> u64 {
        self.cursors.get(member).copied().unwrap_or(0)
    }

    /// Starts a catch-up of `member` from `after`.
    pub fn start_catch_up(&mut self, member: &Address, after: u64) {
        self.catching_up.insert(member.clone());
        self.progress.insert(
            member.clone(),
            Progress {
                last_delivered: after,
                unacked_since: None,
            },
        );
    }

    /// When the network next needs the host to call `on_alarm`.
    pub fn next_wakeup(&self) -> Option<u64> {
        self.progress
            .values()
            .filter_map(|p| p.unacked_since)
            .min()
            .map(|since| since.saturating_add(REDELIVERY_TIMEOUT_MS))
    }

    /// Members whose deliveries have waited too long for an ack.
    pub fn overdue(&self, now: u64) -> Vec<Address> {
        self.progress
            .iter()
            .filter(|(_, p)| {
                p.unacked_since
                    .is_some_and(|since| now >= since.saturating_add(REDELIVERY_TIMEOUT_MS))
            })
            .map(|(a, _)| a.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> Address {
        s.parse().unwrap()
    }

    #[test]
    fn tracker_chains_prev_and_moves_cursors() {
        let mut t = Tracker::default();
        let a = addr("agent:a");
        assert_eq!(t.delivered(&a, 5, 100), 0);
        assert_eq!(t.delivered(&a, 9, 101), 5);
        assert_eq!(t.next_wakeup(), Some(100 + REDELIVERY_TIMEOUT_MS));
        assert_eq!(t.acknowledge(&a, 5), Some(5));
        assert!(t.overdue(100 + REDELIVERY_TIMEOUT_MS).contains(&a));
        assert_eq!(
            t.acknowledge(&a, 50),
            Some(9),
            "capped at what was delivered"
        );
        assert_eq!(t.next_wakeup(), None);
        assert_eq!(t.acknowledge(&a, 3), None, "cursors never go back");
    }
}
