//! At-least-once delivery: sequence chains, audiences, delivery frames and
//! the index of logged ids.
//!
//! In this folder too: [`routing`] (who receives an event), [`tracker`]
//! (cursors, catch-up pages, the bound on unacknowledged deliveries, counted
//! by [`in_flight`]) and [`ack`] (an acknowledgement kept typed).
//!
//! * Every logged event has a network-wide `seq`. Each delivery to a member
//!   carries `metadata.delivery = {seq, prev}`, where `prev` is the `seq` of
//!   the previous event delivered to that member, so a replica can tell a
//!   gap (`prev` beyond what it holds) from a duplicate (`seq` it holds).
//! * Each log row names its *audiences* — `public`, `member:{address}`,
//!   `channel/{name}`, `group/{name}` — which the host indexes as
//!   `(audience, seq)`. "What comes after cursor N for member X" is then a
//!   range scan over X's few audiences, never a scan of the whole log.
//! * Acks, cursors, catch-up pages, the bound on unacknowledged deliveries
//!   and redelivery are kept per member by `tracker`.
//! * Deduplication: the last [`DEDUPE_WINDOW`] logged ids are kept in
//!   memory (`crate::network::log::dedupe`); older ids are looked up in the host's
//!   [`EventIndex`] (the log's unique id column). A resubmitted event gets
//!   its original ack.

pub(super) mod ack;
pub(super) mod in_flight;
pub(super) mod routing;
pub(super) mod tracker;

use crate::event::Event;
use crate::event::metadata::Visibility;
use crate::ids::address::{Address, Entity};
use crate::ids::ulid::EventId;
use crate::model::state::State;
use serde_json::json;

/// Logged ids remembered in memory for deduplication.
pub const DEDUPE_WINDOW: usize = 65_536;

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

    /// The message graph's link rows and the log, when the host keeps them
    /// ([`crate::model::graph`]); without it parents are checked only for existence.
    fn graph(&self) -> Option<&dyn crate::model::graph::GraphIndex> {
        None
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
