//! The replica's outgoing side and its clock: posting, requests, joining
//! (with a key proof), losing and regaining the link, and timeouts.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::model::received::ChallengeRead;

use super::keepalive::{Due, HEARTBEAT_PING};
use super::state::Replica;
use super::types::{
    ACK_DELAY_MS, Link, OutboxEntry, OutboxState, RESEND_AFTER_MS, ReplicaEffect, ReplicaRow,
};
use serde_json::{Map, Value, json};

impl Replica {
    /// Creates an event; it is sent now when online, else when the replica next connects.
    pub fn post(
        &mut self,
        event_type: EventType,
        target: Address,
        payload: Value,
        metadata: Map<String, Value>,
        now: Timestamp,
    ) -> (EventId, Vec<ReplicaEffect>) {
        self.clock = self.clock.max(now);
        let mut event = self.client.event(event_type, target, payload, now);
        event.metadata = metadata;
        let id = event.id;
        let mut entry = OutboxEntry {
            event,
            state: OutboxState::Pending,
        };
        let mut effects = Vec::new();
        if self.link == Link::Online {
            effects.push(ReplicaEffect::Send(entry.event.encode()));
            entry.state = OutboxState::Sent;
            self.sent_at.insert(id, now);
        }
        effects.insert(0, ReplicaEffect::Persist(ReplicaRow::Outbox(entry.clone())));
        self.outbox.insert(id, entry);
        (id, effects)
    }

    /// Like [`Replica::post`], and resolves with the event whose `in_reply_to` is this one
    /// (or fails on an error or after `timeout_ms`).
    pub fn request(
        &mut self,
        event_type: EventType,
        target: Address,
        payload: Value,
        timeout_ms: u64,
        now: Timestamp,
    ) -> (EventId, Vec<ReplicaEffect>) {
        let (id, effects) = self.post(event_type, target, payload, Map::new(), now);
        self.requests.insert(id, now.plus_millis(timeout_ms));
        (id, effects)
    }

    /// The connection is open: join, resuming from the watermark.
    /// With a signing key it first asks for a challenge (see [`Replica::set_signing_key`]).
    pub fn connected(&mut self, credentials: Option<Value>, now: Timestamp) -> Vec<ReplicaEffect> {
        self.resyncing = false;
        self.peer_batches = false;
        self.liveness.connected(now);
        if self.signing_key.is_some() {
            let challenge = self.client.event(
                EventType::from_static(core_types::AGENT_CHALLENGE),
                Address::core(),
                match &self.did {
                    Some(did) => json!({ "did": did }),
                    None => json!({}),
                },
                now,
            );
            let frame = challenge.encode();
            self.link = Link::Challenging(challenge.id, frame.clone(), now, credentials);
            return vec![ReplicaEffect::Send(frame)];
        }
        self.send_join(credentials, now)
    }

    /// Says on every join whether this member takes tasks (`tasks` in the
    /// join's payload, kept in its profile); `None` says nothing.
    pub fn set_takes_tasks(&mut self, takes: Option<bool>) {
        self.takes_tasks = takes;
    }

    pub(super) fn send_join(
        &mut self,
        credentials: Option<Value>,
        now: Timestamp,
    ) -> Vec<ReplicaEffect> {
        let (credentials, persist) = self.with_member_secret(credentials);
        let mut join = self.client.join(credentials, now);
        if let Value::Object(payload) = &mut join.payload {
            if let Some(after) = self.watermark {
                payload.insert("resume".into(), json!({ "after": after }));
            }
            if let Some(takes) = self.takes_tasks {
                payload.insert("tasks".into(), json!(takes));
            }
        }
        let frame = join.encode();
        self.link = Link::Joining(join.id, frame.clone(), now);
        // The secret is kept before the join that sets it leaves.
        persist
            .into_iter()
            .chain([ReplicaEffect::Send(frame)])
            .collect()
    }

    /// The network's nonce arrived: sign it and join with the proof.
    pub(super) fn answer_challenge(
        &mut self,
        response: &Event,
        now: Timestamp,
    ) -> Vec<ReplicaEffect> {
        let Link::Challenging(_, _, _, credentials) = &self.link else {
            return Vec::new();
        };
        let (Some(secret), Some(nonce)) =
            (&self.signing_key, ChallengeRead::nonce(&response.payload))
        else {
            self.link = Link::Offline;
            return vec![ReplicaEffect::JoinFailed(Rejection::new(
                ErrorCode::VerificationFailed,
                "the challenge response carries no nonce",
            ))];
        };
        let signature = (secret.sign)(
            &secret.secret,
            self.client.network(),
            self.client.address(),
            &nonce,
        );
        let mut credentials = match credentials {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        credentials.insert("nonce".into(), json!(nonce));
        match &self.did {
            Some(did) => {
                // A DID proof carries the signature as base64url, with the key's method.
                let raw = crate::crypto::from_hex::<64>(&signature).unwrap_or([0; 64]);
                credentials.insert("did".into(), json!(did));
                credentials.insert("verification_method".into(), json!("key-1"));
                credentials.insert(
                    "signature".into(),
                    json!(crate::identity::encoding::b64url(&raw)),
                );
            }
            None => {
                credentials.insert("signature".into(), json!(signature));
            }
        }
        self.send_join(Some(Value::Object(credentials)), now)
    }

    /// The connection closed (for good, or the host reconnects by itself):
    /// sent events will be sent again on the next connection.
    pub fn disconnected(&mut self) {
        self.liveness.disconnected();
        self.link = Link::Offline;
        self.missed_while_joining = false;
        #[cfg(feature = "documents")]
        self.documents_offline();
        self.sent_at.clear();
        // The next join resumes from the watermark, which acknowledges everything held.
        self.unacked = None;
        for entry in self.outbox.values_mut() {
            if entry.state == OutboxState::Sent {
                entry.state = OutboxState::Pending;
            }
        }
    }

    /// The connection closed, or could not be opened, at `now`: like
    /// [`Replica::disconnected`], and with a keepalive set the next attempt is
    /// scheduled after a backoff (jittered by `random`, any value from a random
    /// source): [`ReplicaEffect::Reconnect`] comes from
    /// [`Replica::handle_timeout`] then.
    pub fn lost(&mut self, now: Timestamp, random: u32) {
        self.clock = self.clock.max(now);
        self.disconnected();
        self.liveness.lost(now, random);
    }

    /// The platform reports whether it has a network (a browser's `online`
    /// and `offline` events) at `now`. Gone while a connection is open: it is
    /// dead, [`ReplicaEffect::Disconnect`] (the host closes it and reports
    /// [`Replica::lost`]), rather than silent until the heartbeat notices.
    /// Back while an attempt waits for its backoff: [`ReplicaEffect::Reconnect`]
    /// now, and the backoff starts afresh.
    pub fn network_changed(&mut self, available: bool, now: Timestamp) -> Vec<ReplicaEffect> {
        self.clock = self.clock.max(now);
        if available {
            if self.liveness.retry_now(now) {
                return self.handle_timeout(now);
            }
        } else if self.liveness.is_connected() || !matches!(self.link, Link::Offline) {
            self.disconnected();
            return vec![ReplicaEffect::Disconnect];
        }
        Vec::new()
    }

    /// When [`Replica::handle_timeout`] should next run: a request's deadline,
    /// the moment an unanswered join or event is due to be sent again, and with
    /// a keepalive the next heartbeat, dead-link check or reconnection.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        let requests = self.requests.earliest();
        let resends = self
            .sent_at
            .earliest()
            .map(|at| at.plus_millis(RESEND_AFTER_MS));
        let join = match &self.link {
            Link::Joining(_, _, at) | Link::Challenging(_, _, at, _) => {
                Some(at.plus_millis(RESEND_AFTER_MS))
            }
            _ => None,
        };
        let ack = self
            .unacked
            .map(|(_, since)| since.plus_millis(ACK_DELAY_MS));
        let link = self.liveness.next();
        [requests, resends, join, ack, link]
            .into_iter()
            .flatten()
            .min()
    }

    /// Fails requests whose time is up and resends what went unanswered; with
    /// a keepalive also sends heartbeats, declares a silent link dead and says
    /// when to reconnect.
    pub fn handle_timeout(&mut self, now: Timestamp) -> Vec<ReplicaEffect> {
        self.clock = self.clock.max(now);
        let mut effects = Vec::new();
        match self.liveness.due(now) {
            Some(Due::Reconnect) => effects.push(ReplicaEffect::Reconnect),
            Some(Due::Ping) => effects.push(ReplicaEffect::Send(HEARTBEAT_PING.to_owned())),
            Some(Due::Dead) => {
                // Offline now: nothing below resends into the dead link.
                self.disconnected();
                effects.push(ReplicaEffect::Disconnect);
            }
            None => {}
        }
        if let Some((_, since)) = self.unacked
            && since.plus_millis(ACK_DELAY_MS) <= now
            && let Some(ack) = self.flush_ack()
        {
            effects.push(ack);
        }
        if let Link::Joining(id, frame, at) = &self.link
            && at.plus_millis(RESEND_AFTER_MS) <= now
        {
            effects.push(ReplicaEffect::Send(frame.clone()));
            self.link = Link::Joining(*id, frame.clone(), now);
        }
        if let Link::Challenging(_, frame, at, _) = &mut self.link
            && at.plus_millis(RESEND_AFTER_MS) <= now
        {
            // A nonce is single use, but an unanswered challenge consumed nothing.
            effects.push(ReplicaEffect::Send(frame.clone()));
            *at = now;
        }
        // Sent at least RESEND_AFTER_MS ago (nothing can be, that early in the clock).
        let due = now
            .checked_minus_millis(RESEND_AFTER_MS)
            .map(|sent_by| self.sent_at.up_to(sent_by))
            .unwrap_or_default();
        for id in due {
            if let Some(entry) = self
                .outbox
                .get(&id)
                .filter(|e| e.state == OutboxState::Sent)
            {
                effects.push(ReplicaEffect::Send(entry.event.encode()));
                self.sent_at.insert(id, now);
            } else {
                self.sent_at.remove(&id);
            }
        }
        let expired = self.requests.up_to(now);
        for request in expired {
            self.requests.remove(&request);
            effects.push(ReplicaEffect::RequestFailed {
                request,
                rejection: Rejection::new(ErrorCode::Timeout, "no reply arrived in time"),
            });
        }
        effects
    }
}
