//! Pruning what the network's retention no longer keeps (see
//! [`crate::model::retention`] for the rules): log rows, idle members and
//! expired invitations.
//!
//! Pruning runs from the alarm ([`Network::on_alarm`]) every
//! [`Retention::prune_every_ms`](crate::model::retention::Retention::prune_every_ms)
//! while the log has grown or has rows whose window is still running. It
//! reads nothing: each run marks how far the log had reached (so a window is
//! a `seq` without reading timestamps) and names what hosts delete with
//! [`Effect::PruneLog`]. The newest event always stays, so a restored
//! network finds its last `seq` in the log. A run deletes at most
//! [`MAX_PRUNED_PER_RUN`] sequence numbers; the next run follows soon after,
//! as it does once a history capped by count has taken in that many events.

use crate::ids::address::Address;
use crate::ids::standing::Role;
use crate::ids::time::Timestamp;
use crate::model::membership::Member;
use crate::model::state::{Row, RowKind};
use crate::network::effects::Effect;
use crate::network::engine::Network;

/// Sequence numbers one run prunes at most, so no alarm deletes without bound.
pub const MAX_PRUNED_PER_RUN: u64 = 20_000;
/// When a run stopped at [`MAX_PRUNED_PER_RUN`], the next runs this soon after.
const CATCH_UP_PRUNE_MS: u64 = 1_000;

impl Network {
    /// When pruning is next due, if anything may need it.
    pub(crate) fn next_prune(&self) -> Option<Timestamp> {
        let marks = &self.log_marks;
        if marks.last_run == Timestamp::EPOCH {
            // Never run: the first run comes with the first alarm for anything
            // else (a member's presence timeout at the latest).
            return None;
        }
        let seq_at_last_run = marks.marks.last().map_or(0, |&(_, seq)| seq);
        let grown = seq_at_last_run < self.last_seq;
        // A history capped by count has no window to take an eighth of: once
        // as many events as the cap have come since the last run, the next
        // run comes soon (at most once a second, and never while idle).
        let cap_reached = self.keeps_history
            && self
                .config
                .retention
                .history_events
                .is_some_and(|cap| self.last_seq.saturating_sub(seq_at_last_run) >= cap.max(1));
        let keep_newest = self.last_seq.saturating_sub(1);
        let history_window = self.keeps_history && self.config.retention.history_ms.is_some();
        let windows_running = marks.marks.len() > 1
            || marks.transient_through < keep_newest && self.appends_log()
            || marks.history_through < keep_newest && history_window;
        let wait = if self.prune_behind || cap_reached {
            CATCH_UP_PRUNE_MS
        } else {
            self.config.retention.prune_every_ms()
        };
        let next_run = marks.last_run.plus_millis(wait);
        let for_log =
            (grown || windows_running || !self.state.invitations.is_empty()).then_some(next_run);
        let for_members = self.member_removal_due.map(|due| due.max(next_run));
        for_log.into_iter().chain(for_members).min()
    }

    /// A member went offline at `now`: it may be removed once idle long enough.
    pub(crate) fn note_idle_from(&mut self, now: Timestamp) {
        let retention = self.config.retention;
        if let Some(after) = retention.member_removal_after(self.keeps_history) {
            let due = now.plus_millis(after);
            self.member_removal_due = Some(self.member_removal_due.map_or(due, |d| d.min(due)));
        }
    }

    /// True when logged events go into the host's log at all.
    fn appends_log(&self) -> bool {
        self.at_least_once() || self.keeps_history
    }

    /// Prunes when a run is due at `now` (the first run at the first alarm); otherwise nothing.
    pub(crate) fn prune_if_due(&mut self, now: Timestamp) -> Vec<Effect> {
        match self.next_prune() {
            _ if self.log_marks.last_run == Timestamp::EPOCH => self.prune(now),
            Some(due) if due <= now => self.prune(now),
            _ => Vec::new(),
        }
    }

    /// One pruning run at `now`: the log, idle members, expired invitations.
    pub fn prune(&mut self, now: Timestamp) -> Vec<Effect> {
        let mut effects = self.prune_log(now);
        effects.extend(self.prune_members(now));
        effects.extend(self.prune_invitations(now));
        effects
    }

    /// The log rows past their retention, and the marks row.
    fn prune_log(&mut self, now: Timestamp) -> Vec<Effect> {
        let retention = self.config.retention;
        let last_seq = self.last_seq;
        let low_water = self.low_water();
        self.log_marks.mark(now, last_seq);
        let marks = &self.log_marks;
        let too_old = marks.seq_at_or_before(now.minus_millis(retention.undelivered_ms));
        // Delivered to everyone it is owed to, or owed too long: no delivery needs it.
        let undeliverable = low_water.max(too_old);
        // The newest row stays: the host finds the last `seq` in the log.
        let keep_newest = last_seq.saturating_sub(1);
        let transient = undeliverable.min(keep_newest);
        let history = if self.keeps_history {
            let by_age = retention
                .history_ms
                .map(|ms| marks.seq_at_or_before(now.minus_millis(ms)));
            let by_count = retention.history_events.map(|n| last_seq.saturating_sub(n));
            by_age.max(by_count).unwrap_or(0).min(transient)
        } else {
            0
        };
        let longest = [Some(retention.undelivered_ms), retention.history_ms]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(retention.undelivered_ms);
        let marks = &mut self.log_marks;
        let transient = transient.min(marks.transient_through + MAX_PRUNED_PER_RUN);
        let history = history.min(marks.history_through + MAX_PRUNED_PER_RUN);
        self.prune_behind = transient < undeliverable.min(keep_newest);
        marks.forget_before(now.minus_millis(longest));
        marks.last_run = now;
        let mut effects = Vec::new();
        if transient > marks.transient_through || history > marks.history_through {
            marks.transient_through = marks.transient_through.max(transient);
            marks.history_through = marks.history_through.max(history);
            effects.push(Effect::PruneLog {
                transient_through: marks.transient_through,
                history_through: marks.history_through,
            });
        }
        effects.push(Effect::Store(Row::LogMarks(marks.clone())));
        effects
    }

    /// The `seq` up to which no member is owed anything: a member online
    /// with every delivery acknowledged and no catch-up holds everything
    /// (unless it was online before a restart and has not joined since);
    /// any other holds up to its cursor.
    fn low_water(&self) -> u64 {
        self.state
            .members
            .values()
            .map(|member| {
                let address = &member.address;
                if member.is_online()
                    && self.tracker.settled(address)
                    && !self.restored_online.contains(address)
                {
                    self.last_seq
                } else {
                    let owed_nothing = self.tracker.owed_nothing_through.get(address);
                    self.tracker
                        .cursor(address)
                        .max(owed_nothing.copied().unwrap_or(0))
                }
            })
            .min()
            .unwrap_or(self.last_seq)
    }

    /// A member going offline that has acknowledged everything delivered to
    /// it is owed nothing logged so far: while it is away it holds back only
    /// what comes after (its cursor, where it resumes, is left as it is).
    pub(crate) fn note_settled(&mut self, member: &Address) {
        if self.tracker.settled(member) && !self.restored_online.contains(member) {
            self.tracker
                .owed_nothing_through
                .insert(member.clone(), self.last_seq);
        }
    }

    /// Members idle past their removal time that hold nothing: removed, their
    /// channels left, their cursors and sessions gone.
    fn prune_members(&mut self, now: Timestamp) -> Vec<Effect> {
        let Some(after) = self
            .config
            .retention
            .member_removal_after(self.keeps_history)
        else {
            return Vec::new();
        };
        let idle: Vec<Address> = self
            .state
            .members
            .values()
            .filter(|m| !m.is_online() && m.last_seen.plus_millis(after) <= now)
            .filter(|m| !self.holds_something(m))
            .map(|m| m.address.clone())
            .collect();
        // The next member that will be idle long enough, unless it comes back.
        self.member_removal_due = self
            .state
            .members
            .values()
            .filter(|m| !m.is_online() && !idle.contains(&m.address))
            .filter(|m| !self.holds_something(m))
            .map(|m| m.last_seen.plus_millis(after))
            .min();
        idle.iter()
            .flat_map(|address| self.forget_member(address))
            .collect()
    }

    /// The member is gone (idle, removed or banned by a master): its record,
    /// cursor and channel seats removed, its connections and sessions closed.
    pub(crate) fn forget_member(&mut self, address: &Address) -> Vec<Effect> {
        self.state.members.remove(address);
        self.tracker.forget(address);
        let mut effects = vec![
            Effect::Remove {
                kind: RowKind::Member,
                key: address.to_string(),
            },
            Effect::Remove {
                kind: RowKind::Cursor,
                key: address.to_string(),
            },
        ];
        for channel in self.state.channels.values_mut() {
            if channel.members.remove(address) {
                effects.push(Effect::Store(Row::Channel(channel.clone())));
            }
        }
        effects.push(Effect::EndCredentials(address.clone()));
        effects
    }

    /// True when a member's address carries something beyond the member
    /// itself, so it must not be freed for someone else to take.
    fn holds_something(&self, member: &Member) -> bool {
        let address = &member.address;
        let state = &self.state;
        member.role == Role::Master
            || self.config.masters.contains(address)
            || self.config.keys.contains_key(address)
            || state.bridges.values().any(|b| b == address)
            || state.resources.values().any(|r| &r.owner == address)
            || state
                .channels
                .values()
                .any(|c| &c.created_by == address || c.invited.contains(address))
            || state.groups.values().any(|g| g.members.contains(address))
            || state.remotes.contains_key(address)
            || state.tasks.values().any(|t| t.involves(address))
            || state
                .invitations
                .values()
                .any(|i| &i.created_by == address || i.invitee.as_ref() == Some(address))
    }

    /// Invitations past their expiry: removed.
    fn prune_invitations(&mut self, now: Timestamp) -> Vec<Effect> {
        let expired: Vec<String> = self
            .state
            .invitations
            .values()
            .filter(|i| i.expires_at <= now)
            .map(|i| i.code.clone())
            .collect();
        expired
            .into_iter()
            .map(|code| {
                self.state.invitations.remove(&code);
                Effect::Remove {
                    kind: RowKind::Invitation,
                    key: code,
                }
            })
            .collect()
    }
}
