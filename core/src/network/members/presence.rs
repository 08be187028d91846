//! Presence: signs of life, connections attached without a join, disconnects
//! and the alarm that times members out and resends unacknowledged deliveries.

use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::standing::Verification;
use crate::ids::time::Timestamp;
use crate::model::membership::{Member, Presence};
use crate::model::state::Row;
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::stages::Stage;
use serde_json::{Map, json};

impl Network {
    /// The host's alarm fired: time silent members out, resend deliveries
    /// that waited too long for an ack, and read the catch-up pages due.
    pub fn on_alarm(&mut self, now: Timestamp) -> Vec<Effect> {
        let mut effects = Vec::new();
        // Presence: members silent for longer than the timeout go offline.
        let timeout = self.config.presence_timeout_ms;
        let silent: Vec<Address> = self
            .state
            .members
            .values()
            .filter(|m| m.is_online() && m.last_seen.plus_millis(timeout) <= now)
            .map(|m| m.address.clone())
            .collect();
        for member in silent {
            effects.extend(self.disconnect(&member, now));
        }
        for member in self.tracker.overdue(now) {
            let online = self
                .state
                .members
                .get(&member)
                .is_some_and(Member::is_online);
            if online {
                let after = self.tracker.cursor(&member);
                effects.push(self.catch_up(&member, after));
            } else {
                effects.extend(self.stop_catch_up(&member));
            }
        }
        for member in self.tracker.pages_due(now) {
            if self
                .state
                .members
                .get(&member)
                .is_some_and(Member::is_online)
            {
                effects.extend(self.next_catch_up_page(&member, now));
            } else {
                effects.extend(self.stop_catch_up(&member));
            }
        }
        effects.extend(self.prune_if_due(now));
        effects.extend(self.expire_verdicts(now));
        // What the alarm handled is gone: the host's next alarm is set exactly.
        self.refresh_wakeup();
        effects
    }

    /// Records a sign of life from a member (heartbeat); it goes online if it was not.
    pub fn heartbeat(&mut self, address: &Address, now: Timestamp) -> Vec<Effect> {
        match self.state.members.get_mut(address) {
            Some(member) => {
                member.last_seen = now;
                member.status = Presence::Online;
                let row = Effect::Store(Row::Member(member.clone()));
                self.seen_online(now);
                vec![row]
            }
            None => Vec::new(),
        }
    }

    /// Binds a connection to `member` without a join: a WebSocket opened with
    /// a ticket or a session the member got from its HTTP join. The member
    /// is online and is caught up from `after` (else from its cursor).
    pub fn attach(
        &mut self,
        member: &Address,
        after: Option<u64>,
        now: Timestamp,
    ) -> Result<Vec<Effect>, Rejection> {
        self.joined_member(member)?;
        let mut effects = vec![Effect::Bind(member.clone())];
        effects.extend(self.heartbeat(member, now));
        if self.at_least_once() {
            let after = after.unwrap_or_else(|| self.tracker.cursor(member));
            effects.push(self.catch_up(member, after));
        }
        Ok(effects)
    }

    /// Notes a sign of life; returns the row to store when the member comes back online.
    pub(crate) fn heartbeat_if_offline(
        &mut self,
        address: &Address,
        now: Timestamp,
    ) -> Vec<Effect> {
        match self.state.members.get_mut(address) {
            Some(member) if member.is_online() => {
                member.last_seen = now;
                self.seen_online(now);
                Vec::new()
            }
            Some(_) => self.heartbeat(address, now),
            None => Vec::new(),
        }
    }

    /// `member` acknowledged every delivery up to `seq` (cumulative): its
    /// cursor moves (stored now and then) and the next page of its catch-up
    /// goes out. A `network.event.ack` to `core` does this, and so does a
    /// gateway's coalesced cursor (`crate::gateway`).
    pub fn acknowledge(&mut self, member: &Address, seq: u64, now: Timestamp) -> Vec<Effect> {
        let mut effects = Vec::new();
        if let Some(cursor) = self.tracker.acknowledge(member, seq, now)
            && self.tracker.should_persist(member, cursor, now)
        {
            effects.push(Effect::Store(crate::model::state::Row::Cursor {
                address: member.clone(),
                seq: cursor,
            }));
        }
        // The ack made room: the next page of its catch-up goes now.
        effects.extend(self.next_catch_up_page(member, now));
        effects
    }

    /// The last connection of `address` closed or its heartbeat timed out: mark it
    /// offline and let the mods see a `network.agent.leave` with reason `disconnected`.
    pub fn disconnect(&mut self, address: &Address, now: Timestamp) -> Vec<Effect> {
        let Some(member) = self.state.members.get_mut(address) else {
            return Vec::new();
        };
        if !member.is_online() {
            return Vec::new();
        }
        member.status = Presence::Offline;
        let mut effects = vec![Effect::Store(Row::Member(member.clone()))];
        self.note_settled(address);
        self.note_idle_from(now);
        effects.extend(self.stop_catch_up(address));
        let mut metadata = Map::new();
        metadata.insert("reason".into(), json!("disconnected"));
        let leave = Event {
            id: self.ids.next_id(now),
            event_type: EventType::from_static(core_types::AGENT_LEAVE),
            source: address.clone(),
            target: Address::core(),
            payload: json!({}),
            metadata,
            enrichment: None,
            timestamp: now,
            network: Some(self.config.id.clone()),
        };
        let mut leave = leave;
        effects.extend(self.run_stage(Stage::Transform, &mut leave, now));
        effects.extend(self.run_stage(Stage::Observe, &mut leave, now));
        effects.extend(self.close_documents_of(address, now));
        effects
    }
}

impl Network {
    /// Makes the configured A2A guest (`NetworkConfig::a2a_guest`) a member,
    /// once: public A2A callers act as it. Nobody joins as it, so nobody
    /// else receives what its tasks are sent.
    pub fn admit_a2a_guest(&mut self, now: Timestamp) -> Vec<Effect> {
        let Some(guest) = self.config.a2a_guest.clone() else {
            return Vec::new();
        };
        if self.state.members.contains_key(&guest) {
            return Vec::new();
        }
        let member = Member::new(
            guest.clone(),
            Verification::ANONYMOUS,
            Presence::Offline,
            now,
        );
        self.state.members.insert(guest, member.clone());
        vec![Effect::Store(Row::Member(member))]
    }
}

impl Network {
    /// Makes an external A2A agent a member (added by a master, by its card):
    /// nobody joins as it; events for it become A2A calls from the host.
    pub fn admit_remote(
        &mut self,
        remote: crate::model::remote::RemoteAgent,
        now: Timestamp,
    ) -> Vec<Effect> {
        let member = Member::new(
            remote.address.clone(),
            Verification::ANONYMOUS,
            Presence::Online,
            now,
        );
        self.state
            .members
            .insert(member.address.clone(), member.clone());
        self.seen_online(now);
        self.state
            .remotes
            .insert(remote.address.clone(), remote.clone());
        vec![
            Effect::Store(Row::Member(member)),
            Effect::Store(Row::Remote(remote)),
        ]
    }
}
