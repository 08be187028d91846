//! Where deliveries to each member stand: its acknowledged cursor, what it
//! has not acknowledged yet, its catch-up page by page, and redelivery.
//!
//! * A member acknowledges cumulatively (`network.event.ack` to `core` with
//!   `{seq}`); the network keeps that cursor as a row. Deliveries not
//!   acknowledged within [`REDELIVERY_TIMEOUT_MS`] are sent again from the
//!   cursor when the host's alarm calls `Network::on_alarm`.
//! * A member has at most [`MAX_IN_FLIGHT`] deliveries (and
//!   [`MAX_IN_FLIGHT_BYTES`]) unacknowledged (`crate::network::delivery::in_flight`).
//!   When it reaches a bound, what comes next for it waits in the log and is
//!   read for it once it acknowledges.
//! * Catch-up (after a join, a resume, a redelivery, or reaching the bound)
//!   reads the log [`CATCH_UP_PAGE`] rows at a time. While it runs the
//!   member's live deliveries wait in the log, so pages and live events never
//!   interleave out of order. The next page is read only when the member has
//!   room for it, and never in the turn that answered the page before: at
//!   the member's ack, or at the host's next alarm. A host therefore handles
//!   other members' frames between two pages of one member's catch-up.
//!   While it runs it is stored as a row (`Row::CatchUp`: where the next
//!   page reads from, what was delivered last), so a network restarted in
//!   between goes on with it rather than leave a hole in the member's log.

use crate::ids::address::Address;
use crate::ids::time::Timestamp;
pub use crate::network::delivery::in_flight::{InFlight, MAX_IN_FLIGHT, MAX_IN_FLIGHT_BYTES};
use crate::network::floor::Floor;
use std::collections::{BTreeMap, VecDeque};

/// How long a delivery may stay unacknowledged before it is sent again.
pub const REDELIVERY_TIMEOUT_MS: u64 = 10_000;
/// A moving cursor is written to storage when it advanced this many events…
pub const CURSOR_PERSIST_EVERY: u64 = 64;
/// …or this long after its last write. A restart may therefore resend up to
/// that much, which replicas drop as duplicates.
pub const CURSOR_PERSIST_AFTER_MS: u64 = 1_000;
/// Log rows one catch-up page reads at most (hosts also bound a page by bytes).
pub const CATCH_UP_PAGE: usize = 256;
/// Catch-up pages a member may have unacknowledged.
pub const PAGES_IN_FLIGHT: usize = 2;
/// How long a catch-up whose read failed waits before it is read again.
pub const READ_RETRY_MS: u64 = 1_000;
/// The redelivery deadline of deliveries left unacknowledged since `since`.
pub(crate) fn redelivery_at(since: Timestamp) -> Timestamp {
    since.plus_millis(REDELIVERY_TIMEOUT_MS)
}

/// Where deliveries to one member stand.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Progress {
    /// `seq` of the last event delivered to the member (the next `prev`).
    pub last_delivered: u64,
    /// Since when it has had unacknowledged deliveries; `None` when it has none.
    pub unacked_since: Option<Timestamp>,
    /// Its unacknowledged deliveries.
    pub in_flight: InFlight,
}

impl Progress {
    /// Records a delivery of `seq`, `bytes` long, at `now`; returns its `prev`.
    /// `floor` is the tracker's redelivery floor, lowered to this delivery's deadline.
    fn deliver(&mut self, seq: u64, bytes: usize, now: Timestamp, floor: &mut Floor) -> u64 {
        floor.lower(redelivery_at(*self.unacked_since.get_or_insert(now)));
        self.in_flight.push(seq, bytes);
        std::mem::replace(&mut self.last_delivered, seq)
    }
}

/// A member's catch-up in progress.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CatchUp {
    /// The next page reads the log after this `seq`.
    pub after: u64,
    /// A page has been asked for and not answered yet.
    pub reading: bool,
    /// When the next page is to be read without waiting for an ack (the
    /// member has room for it); `None` while it waits for its ack.
    pub next_read_at: Option<Timestamp>,
    /// The last `seq` delivered by each page not yet acknowledged (at most
    /// [`PAGES_IN_FLIGHT`]): hosts bound a page by bytes, so this bounds the
    /// bytes a catch-up has on the way.
    pub pages: VecDeque<u64>,
    /// A row of it is stored (`Row::CatchUp`), to be removed when it ends.
    pub stored: bool,
}

/// What an answered catch-up page leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageAnswered {
    /// No such page was asked for (the answer is stale): nothing changed.
    Stale,
    /// The log holds no more for the member: live deliveries go on;
    /// `stored` when its row is to be removed.
    Done {
        /// The catch-up had a stored row.
        stored: bool,
    },
    /// More pages follow.
    More,
}

/// Per-member delivery progress.
#[derive(Debug, Default, Clone)]
pub struct Tracker {
    /// Cumulative acknowledgement cursor per member (persisted).
    pub cursors: BTreeMap<Address, u64>,
    /// Last delivery, unacknowledged time and deliveries per member: one entry,
    /// so a delivery (once per recipient of every event) looks the member up once.
    pub progress: BTreeMap<Address, Progress>,
    /// Members whose catch-up is in progress: live deliveries wait in the log.
    pub catching_up: BTreeMap<Address, CatchUp>,
    /// The cursor last written to storage per member, and when.
    pub persisted: BTreeMap<Address, (u64, Timestamp)>,
    /// Members that went offline owing nothing: nothing up to this `seq` is owed
    /// to them (in memory only; after a restart their cursors alone count).
    pub owed_nothing_through: BTreeMap<Address, u64>,
    /// No later than the first redelivery deadline (`crate::network::wakeup`).
    pub redelivery_floor: Floor,
}

impl Tracker {
    /// Records a delivery of `seq`, `bytes` long, to `member` at `now`; returns its `prev`.
    pub fn delivered(&mut self, member: &Address, seq: u64, bytes: usize, now: Timestamp) -> u64 {
        // Look up before inserting: cloning the key is only needed the first time.
        if let Some(progress) = self.progress.get_mut(member) {
            return progress.deliver(seq, bytes, now, &mut self.redelivery_floor);
        }
        let mut progress = Progress::default();
        let prev = progress.deliver(seq, bytes, now, &mut self.redelivery_floor);
        self.progress.insert(member.clone(), progress);
        prev
    }

    /// A live delivery of `seq`, `bytes` long, to `member`: its `prev`, or
    /// `None` when the member catches up or has reached a bound of
    /// [`InFlight`] (then it starts waiting for room, and what comes next is
    /// read from the log for it).
    pub fn deliver_live(
        &mut self,
        member: &Address,
        seq: u64,
        bytes: usize,
        now: Timestamp,
    ) -> Option<u64> {
        if self.catching_up.contains_key(member) {
            return None;
        }
        let after = match self.progress.get_mut(member) {
            Some(progress) if progress.in_flight.has_room() => {
                return Some(progress.deliver(seq, bytes, now, &mut self.redelivery_floor));
            }
            Some(progress) => progress.last_delivered,
            None => return Some(self.delivered(member, seq, bytes, now)),
        };
        let waiting = CatchUp {
            after,
            ..CatchUp::default()
        };
        self.catching_up.insert(member.clone(), waiting);
        None
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
            progress.in_flight = InFlight::default();
        }
    }

    /// `member` went offline or left: its catch-up stops and what it has not
    /// acknowledged is sent again from its cursor when it comes back. True
    /// when the catch-up had a stored row (to remove).
    pub fn stop(&mut self, member: &Address) -> bool {
        self.forget_unacked(member);
        self.catching_up
            .remove(member)
            .is_some_and(|catch_up| catch_up.stored)
    }

    /// A catch-up the network stored before it restarted: its next page is due at once.
    pub fn restore_catch_up(&mut self, member: Address, after: u64, delivered: u64) {
        let restored = CatchUp {
            after,
            next_read_at: Some(Timestamp::EPOCH),
            stored: true,
            ..CatchUp::default()
        };
        self.catching_up.insert(member.clone(), restored);
        let progress = Progress {
            last_delivered: delivered,
            ..Progress::default()
        };
        self.progress.insert(member, progress);
    }

    /// The row that records `member`'s catch-up as it stands, when it has
    /// one that is not stored yet or has moved on.
    pub fn catch_up_row(&mut self, member: &Address) -> Option<crate::model::state::Row> {
        let delivered = self.last_delivered(member);
        let catch_up = self.catching_up.get_mut(member)?;
        catch_up.stored = true;
        Some(crate::model::state::Row::CatchUp {
            address: member.clone(),
            after: catch_up.after,
            delivered,
        })
    }

    /// Applies a cumulative ack at `now`; returns the new cursor when it moved.
    ///
    /// Every ack of every member comes here: each of the member's maps is
    /// looked up once, and its address is cloned only for a first cursor.
    pub fn acknowledge(&mut self, member: &Address, seq: u64, now: Timestamp) -> Option<u64> {
        let mut progress = self.progress.get_mut(member);
        let delivered = progress.as_ref().map_or(0, |p| p.last_delivered);
        let cursor_slot = self.cursors.get_mut(member);
        let cursor = cursor_slot.as_ref().map_or(0, |c| **c);
        // A member cannot acknowledge what it was never sent.
        let seq = seq.min(delivered.max(cursor));
        let moved = seq > cursor;
        if let Some(progress) = progress.as_deref_mut() {
            if seq >= delivered {
                // Nothing is unacknowledged any more.
                progress.unacked_since = None;
                progress.in_flight = InFlight::default();
            } else {
                progress.in_flight.acknowledge(seq);
                if moved {
                    // Progress: the rest has its full time again before it is resent.
                    progress.unacked_since = Some(now);
                    self.redelivery_floor.lower(redelivery_at(now));
                }
            }
        }
        let idle = progress.is_none_or(|p| p.in_flight.count() == 0);
        if moved {
            match cursor_slot {
                Some(slot) => *slot = seq,
                None => {
                    self.cursors.insert(member.clone(), seq);
                }
            }
        }
        self.mark_ready(member, cursor.max(seq), idle, now);
        moved.then_some(seq)
    }

    /// The member holds everything up to `seq` (a poll's `after`, an SSE write):
    /// that is both its delivery point and its acknowledgement. Returns the new
    /// cursor when it moved.
    pub fn holds_up_to(&mut self, member: &Address, seq: u64, now: Timestamp) -> Option<u64> {
        let progress = self.progress.entry(member.clone()).or_default();
        progress.last_delivered = progress.last_delivered.max(seq);
        self.acknowledge(member, seq, now)
    }

    /// Whether a cursor that moved to `cursor` should be written now.
    pub fn should_persist(&mut self, member: &Address, cursor: u64, now: Timestamp) -> bool {
        match self.persisted.get_mut(member) {
            None => {
                self.persisted.insert(member.clone(), (cursor, now));
                true
            }
            Some(last) => {
                let (seq, at) = *last;
                let due = cursor >= seq.saturating_add(CURSOR_PERSIST_EVERY)
                    || now >= at.plus_millis(CURSOR_PERSIST_AFTER_MS);
                if due {
                    *last = (cursor, now);
                }
                due
            }
        }
    }

    /// True when `member` has acknowledged all delivered to it and waits for no catch-up.
    pub fn settled(&self, member: &Address) -> bool {
        !self.catching_up.contains_key(member) && self.last_delivered(member) <= self.cursor(member)
    }

    /// Forgets a member that is removed: its cursor, progress and catch-up.
    pub fn forget(&mut self, member: &Address) {
        self.cursors.remove(member);
        self.progress.remove(member);
        self.catching_up.remove(member);
        self.persisted.remove(member);
        self.owed_nothing_through.remove(member);
    }

    /// The member's acknowledged cursor.
    pub fn cursor(&self, member: &Address) -> u64 {
        self.cursors.get(member).copied().unwrap_or(0)
    }

    /// Starts a catch-up of `member` from `after`; its first page is being read.
    /// What was unacknowledged is sent again from `after`.
    pub fn start_catch_up(&mut self, member: &Address, after: u64) {
        let reading = CatchUp {
            after,
            reading: true,
            ..CatchUp::default()
        };
        self.catching_up.insert(member.clone(), reading);
        self.progress.insert(
            member.clone(),
            Progress {
                last_delivered: after,
                ..Progress::default()
            },
        );
    }

    /// The page of `member`'s catch-up read after `after` is answered: the
    /// log was read up to `last`; `exhausted` when it holds nothing more.
    pub fn page_answered(
        &mut self,
        member: &Address,
        after: u64,
        last: u64,
        exhausted: bool,
        now: Timestamp,
    ) -> PageAnswered {
        let Some(catch_up) = self
            .catching_up
            .get_mut(member)
            .filter(|c| c.reading && c.after == after)
        else {
            return PageAnswered::Stale;
        };
        if exhausted {
            let stored = catch_up.stored;
            self.catching_up.remove(member);
            return PageAnswered::Done { stored };
        }
        let delivered = self.progress.get(member).map_or(0, |p| p.last_delivered);
        if delivered > after {
            catch_up.pages.push_back(delivered);
        }
        catch_up.after = last;
        catch_up.reading = false;
        let idle = self
            .progress
            .get(member)
            .is_none_or(|progress| progress.in_flight.count() == 0);
        self.mark_ready(member, self.cursor(member), idle, now);
        PageAnswered::More
    }

    /// The page of `member`'s catch-up could not be read (the host failed):
    /// it is read again after [`READ_RETRY_MS`]; live deliveries keep waiting.
    pub fn page_failed(&mut self, member: &Address, now: Timestamp) {
        if let Some(catch_up) = self.catching_up.get_mut(member) {
            catch_up.reading = false;
            catch_up.next_read_at = Some(now.plus_millis(READ_RETRY_MS));
        }
    }

    /// After a page or an ack: forgets the pages the cursor covers, and when
    /// `member` waits for its next page with nothing unacknowledged (no ack
    /// will come to ask for it) makes that page due at the next alarm.
    /// `cursor` is the member's cursor now; `idle` says it has nothing in flight.
    fn mark_ready(&mut self, member: &Address, cursor: u64, idle: bool, now: Timestamp) {
        if let Some(catch_up) = self.catching_up.get_mut(member) {
            while catch_up.pages.front().is_some_and(|last| *last <= cursor) {
                catch_up.pages.pop_front();
            }
            if idle && !catch_up.reading && catch_up.next_read_at.is_none() {
                catch_up.next_read_at = Some(now);
            }
        }
    }

    /// Takes the next page of `member`'s catch-up when it has room for one
    /// (an ack made room, or the alarm found it due): the `seq` to read after.
    pub fn next_page(&mut self, member: &Address, now: Timestamp) -> Option<u64> {
        let has_room_for_a_page = self
            .progress
            .get(member)
            .is_none_or(|progress| progress.in_flight.has_room_for(CATCH_UP_PAGE));
        let catch_up = self.catching_up.get_mut(member)?;
        // A read that failed waits until its retry.
        if catch_up.reading || catch_up.next_read_at.is_some_and(|at| at > now) {
            return None;
        }
        catch_up.next_read_at = None;
        let room = has_room_for_a_page && catch_up.pages.len() < PAGES_IN_FLIGHT;
        if !room {
            return None;
        }
        catch_up.reading = true;
        Some(catch_up.after)
    }

    /// Members whose next catch-up page is due at `now`.
    pub fn pages_due(&self, now: Timestamp) -> Vec<Address> {
        self.catching_up
            .iter()
            .filter(|(_, c)| !c.reading && c.next_read_at.is_some_and(|at| at <= now))
            .map(|(member, _)| member.clone())
            .collect()
    }

    /// Members whose deliveries have waited too long for an ack.
    pub fn overdue(&self, now: Timestamp) -> Vec<Address> {
        self.progress
            .iter()
            .filter(|(_, p)| {
                p.unacked_since
                    .is_some_and(|since| now >= redelivery_at(since))
            })
            .map(|(a, _)| a.clone())
            .collect()
    }
}

#[cfg(test)]
#[path = "tracker_tests.rs"]
mod tests;
