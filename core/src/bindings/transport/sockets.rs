//! One network's WebSockets, by the host's ids for them: how many it takes,
//! which member each is bound to, which must join by when, and which send
//! too many frames that are no events.
//!
//! Sockets the network's connection gateways hold unjoined count against the
//! same limits ([`Sockets::hold_elsewhere`]): the network object announces
//! them, so one client cannot open more unjoined sockets by spreading them
//! over gateways. They count until they join, close or run out of time.
//!
//! The host keeps a [`SocketRecord`] with each socket (the edge: in its
//! hibernation attachment) and gives the table every change; after a wake it
//! [`Sockets::restore`]s the records. Every change is a map update — nothing
//! is rebuilt from all the sockets. When the table refuses or ends a socket
//! it says so with a [`Close`]: a stable close code and a reason.

use crate::bindings::access::policy::Policy;
use crate::bindings::message::status_of;
use crate::ids::time::Timestamp;
use crate::throttle::Buckets;
use crate::{Address, ErrorCode};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The host's id for one of its sockets.
pub type SocketId = u64;

/// Why a socket is closed: `code` is 4000 + the HTTP status of the error
/// code (`rate_limited` 4429, `timeout` 4504, `malformed_event` 4400,
/// `not_joined` 4401); `reason` starts with the error code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Close {
    /// The WebSocket close code.
    pub code: u16,
    /// `"{error code}: {why}"`, at most 123 bytes (what a close frame carries).
    pub reason: String,
}

/// The longest reason a close frame carries.
const MAX_REASON_BYTES: usize = 123;

impl Close {
    /// The close for an error code, with a short explanation.
    pub fn new(code: ErrorCode, why: &str) -> Self {
        let mut reason = format!("{code}: {why}");
        while reason.len() > MAX_REASON_BYTES {
            reason.pop();
        }
        Self {
            code: 4000 + status_of(code),
            reason,
        }
    }
}

/// What the host keeps with a socket, to restore the table after a wake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SocketRecord {
    /// The host's id for it.
    pub id: SocketId,
    /// The member it is bound to, once joined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<Address>,
    /// The client's IP, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peer: Option<String>,
    /// When it opened or was last unbound: unjoined, it must join by this plus the deadline.
    pub since: Timestamp,
}

/// The sockets of one network.
#[derive(Debug, Clone)]
pub struct Sockets {
    policy: Policy,
    open: BTreeMap<SocketId, SocketRecord>,
    by_member: BTreeMap<Address, BTreeSet<SocketId>>,
    /// Unjoined sockets by `(since, id)`: the first is the next to time out.
    unjoined: BTreeSet<(Timestamp, SocketId)>,
    /// Unjoined sockets of this network and of its gateways, by client IP.
    unjoined_by_peer: BTreeMap<String, usize>,
    /// Unjoined sockets the gateways hold: client IP and when they count no more.
    elsewhere: BTreeMap<SocketId, (Option<String>, Timestamp)>,
    bad_frames: Buckets<SocketId>,
    next_id: SocketId,
}

impl Sockets {
    /// No sockets, under `policy`.
    pub fn new(policy: &Policy) -> Self {
        Self {
            policy: *policy,
            open: BTreeMap::new(),
            by_member: BTreeMap::new(),
            unjoined: BTreeSet::new(),
            unjoined_by_peer: BTreeMap::new(),
            elsewhere: BTreeMap::new(),
            bad_frames: Buckets::new(policy.bad_frames),
            next_id: 1,
        }
    }

    /// Takes back a socket the host kept across a wake.
    pub fn restore(&mut self, record: SocketRecord) {
        self.next_id = self.next_id.max(record.id.saturating_add(1));
        self.insert(record);
    }

    /// Whether one more socket from `peer` may open; `joined` when it is
    /// bound to a member as it opens (a join at upgrade, a ticket).
    pub fn admits(&self, peer: Option<&str>, joined: bool) -> Result<(), Close> {
        let full = |why| Err(Close::new(ErrorCode::RateLimited, why));
        if self.open.len() >= self.policy.max_sockets {
            return full("this network has as many connections as it takes; try again later");
        }
        if joined {
            return Ok(());
        }
        if self.unjoined.len() + self.elsewhere.len() >= self.policy.max_unjoined {
            return full("too many connections have not joined yet; try again later");
        }
        if peer.is_some_and(|p| {
            self.unjoined_by_peer.get(p).copied().unwrap_or(0) >= self.policy.max_unjoined_per_peer
        }) {
            return full("too many connections from here have not joined; join on those first");
        }
        Ok(())
    }

    /// Registers a socket the host accepted; returns the record to keep with it.
    pub fn open(
        &mut self,
        peer: Option<String>,
        member: Option<Address>,
        now: Timestamp,
    ) -> SocketRecord {
        let record = SocketRecord {
            id: self.next_id,
            member,
            peer,
            since: now,
        };
        self.next_id += 1;
        self.insert(record.clone());
        record
    }

    /// A gateway holds the unjoined socket `id` from `peer`, which counts
    /// against the limits until `until` (its deadline to arrive and join) or
    /// until [`Self::settle_elsewhere`]. A host that wakes gives back the ones
    /// it kept the same way.
    pub fn hold_elsewhere(&mut self, id: SocketId, peer: Option<String>, until: Timestamp) {
        self.settle_elsewhere(id);
        if let Some(peer) = &peer {
            *self.unjoined_by_peer.entry(peer.clone()).or_default() += 1;
        }
        self.elsewhere.insert(id, (peer, until));
    }

    /// The gateway's socket `id` joined or closed: it counts no more. True when it counted.
    pub fn settle_elsewhere(&mut self, id: SocketId) -> bool {
        let Some((peer, _)) = self.elsewhere.remove(&id) else {
            return false;
        };
        if let Some(peer) = peer {
            self.uncount_peer(&peer);
        }
        true
    }

    /// Forgets the gateways' unjoined sockets whose time ran out by `now`; returns their ids.
    pub fn expire_elsewhere(&mut self, now: Timestamp) -> Vec<SocketId> {
        let expired: Vec<SocketId> = self
            .elsewhere
            .iter()
            .filter(|(_, (_, until))| *until <= now)
            .map(|(id, _)| *id)
            .collect();
        for id in &expired {
            self.settle_elsewhere(*id);
        }
        expired
    }

    /// How many unjoined sockets the gateways hold.
    pub fn unjoined_elsewhere(&self) -> usize {
        self.elsewhere.len()
    }

    fn uncount_peer(&mut self, peer: &str) {
        if let Some(count) = self.unjoined_by_peer.get_mut(peer) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.unjoined_by_peer.remove(peer);
            }
        }
    }

    fn insert(&mut self, record: SocketRecord) {
        match &record.member {
            Some(member) => {
                self.by_member
                    .entry(member.clone())
                    .or_default()
                    .insert(record.id);
            }
            None => {
                self.unjoined.insert((record.since, record.id));
                if let Some(peer) = &record.peer {
                    *self.unjoined_by_peer.entry(peer.clone()).or_default() += 1;
                }
            }
        }
        self.open.insert(record.id, record);
    }

    /// Forgets a socket; returns its record.
    fn remove(&mut self, id: SocketId) -> Option<SocketRecord> {
        let record = self.open.remove(&id)?;
        match &record.member {
            Some(member) => {
                if let Some(ids) = self.by_member.get_mut(member) {
                    ids.remove(&id);
                    if ids.is_empty() {
                        self.by_member.remove(member);
                    }
                }
            }
            None => {
                self.unjoined.remove(&(record.since, id));
                if let Some(peer) = &record.peer {
                    self.uncount_peer(peer);
                }
            }
        }
        Some(record)
    }

    /// The socket is now bound to `member` (or, `None`, to nobody: it left);
    /// returns its new record to keep, `None` for a socket it does not know.
    pub fn bind(
        &mut self,
        id: SocketId,
        member: Option<Address>,
        now: Timestamp,
    ) -> Option<SocketRecord> {
        let mut record = self.remove(id)?;
        if record.member.is_some() && member.is_none() {
            // Unbound: the deadline to join again starts now.
            record.since = now;
        }
        record.member = member;
        self.insert(record.clone());
        Some(record)
    }

    /// A socket closed; returns its record (`None` when it was already gone).
    pub fn close(&mut self, id: SocketId) -> Option<SocketRecord> {
        self.bad_frames.forget(&id);
        self.remove(id)
    }

    /// The record of a socket.
    pub fn get(&self, id: SocketId) -> Option<&SocketRecord> {
        self.open.get(&id)
    }

    /// The sockets bound to `member`.
    pub fn of_member(&self, member: &Address) -> Vec<SocketId> {
        self.by_member
            .get(member)
            .map(|ids| ids.iter().copied().collect())
            .unwrap_or_default()
    }

    /// True when `member` has a socket.
    pub fn is_connected(&self, member: &Address) -> bool {
        self.by_member.contains_key(member)
    }

    /// The members that have a socket.
    pub fn members(&self) -> Vec<Address> {
        self.by_member.keys().cloned().collect()
    }

    /// How many sockets are open, and how many of them have not joined.
    pub fn counts(&self) -> (usize, usize) {
        (self.open.len(), self.unjoined.len())
    }

    /// The socket sent a frame that is no event (or anything but a join or a
    /// challenge before joining): the close when it has sent too many.
    pub fn bad_frame(&mut self, id: SocketId, now: Timestamp) -> Option<Close> {
        (!self.bad_frames.take(&id, now)).then(too_many_bad_frames)
    }

    /// The unjoined sockets whose time to join has run out at `now`.
    pub fn overdue(&self, now: Timestamp) -> Vec<SocketId> {
        let deadline = self.policy.join_deadline_ms;
        self.unjoined
            .iter()
            .take_while(|(since, _)| since.plus_millis(deadline) <= now)
            .map(|(_, id)| *id)
            .collect()
    }

    /// When the next unjoined socket runs out of time, if any.
    pub fn next_deadline(&self) -> Option<Timestamp> {
        self.unjoined
            .first()
            .map(|(since, _)| since.plus_millis(self.policy.join_deadline_ms))
    }

    /// The close for a socket whose time to join ran out.
    pub fn join_timeout(&self) -> Close {
        join_timeout(self.policy.join_deadline_ms)
    }
}

/// The close for a socket that did not join within `deadline_ms` of connecting.
pub fn join_timeout(deadline_ms: u64) -> Close {
    Close::new(
        ErrorCode::Timeout,
        &format!("no join within {deadline_ms} ms of connecting"),
    )
}

/// The close for the sockets of a member that left.
pub fn left(member: &Address) -> Close {
    Close::new(ErrorCode::NotJoined, &format!("{member} left the network"))
}

/// The close for a socket that sent too many frames that are no event
/// (a gateway's sockets are held to the same allowance).
pub fn too_many_bad_frames() -> Close {
    Close::new(
        ErrorCode::MalformedEvent,
        "too many frames that are not events this network takes",
    )
}
