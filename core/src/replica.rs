//! The client replica: the participant's local-first copy of a network.
//!
//! Used by the web workspace and the npm package. It holds
//! * the **log**: events received (and own events once acknowledged), by
//!   `seq`, up to a **watermark** — the highest `seq` of this member's
//!   delivery chain it holds without gaps;
//! * the **outbox**: events created here, each with a ULID from the
//!   randomness and time passed in, waiting for the network's ack.
//!
//! Like quinn-proto's connection it does no I/O: the host feeds it
//! [`Replica::connected`], [`Replica::receive`], [`Replica::disconnected`]
//! and [`Replica::handle_timeout`], and applies the [`ReplicaEffect`]s it
//! returns — frames to send, rows to persist, events and outcomes to show.
//!
//! On connect it joins with `resume.after = watermark`, receives what it
//! missed in order, then flushes the outbox in creation order. Incoming
//! events are applied idempotently: a `seq` it holds is a duplicate (it
//! re-acks, nothing else); a `prev` beyond the watermark is a gap, and it
//! asks the network to resend (`network.agent.resume`) instead of applying.

use crate::client::{Client, Incoming};
use crate::error::{ErrorCode, Rejection};
use crate::event::{Event, Limits};
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::network_id::NetworkId;
use crate::ids::ulid::EventId;
use crate::verification::sign_challenge;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// How long a sent event or join may go unanswered before it is sent again.
/// The network deduplicates, so a resend is harmless.
pub const RESEND_AFTER_MS: u64 = 5_000;
/// Deliveries are acknowledged together: after this many…
pub const ACK_EVERY: u64 = 32;
/// …or this long after the first unacknowledged one, whichever comes first.
/// Well under the network's redelivery timeout, so nothing is sent twice.
pub const ACK_DELAY_MS: u64 = 20;

/// Where an outbox event stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum OutboxState {
    /// Waiting for a connection.
    Pending,
    /// On the wire, waiting for the ack.
    Sent,
    /// Refused by the network, with its reason.
    Rejected {
        /// The network's error.
        rejection: Rejection,
    },
}

/// An event created here and not yet in the log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutboxEntry {
    /// The event.
    pub event: Event,
    /// Its state.
    #[serde(flatten)]
    pub state: OutboxState,
}

/// What the host persists so the replica survives restarts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "row", rename_all = "snake_case")]
pub enum ReplicaRow {
    /// The watermark.
    Watermark {
        /// Highest gap-free `seq` held.
        seq: u64,
    },
    /// A log entry.
    Logged {
        /// Its `seq`.
        seq: u64,
        /// The event.
        event: Event,
    },
    /// An outbox entry (insert or replace).
    Outbox(OutboxEntry),
    /// An outbox entry left the outbox (it is logged now).
    OutboxRemoved {
        /// The event id.
        id: EventId,
    },
    /// The member secret the network gave this address at its first join.
    MemberSecret {
        /// The address it proves.
        address: Address,
        /// The secret.
        secret: String,
    },
    /// A piece of a shared document's local copy (insert or replace).
    Document(crate::documents::DocumentRow),
    /// A piece of a shared document's local copy is no longer needed.
    DocumentRemoved {
        /// The document.
        address: Address,
        /// Which copy wrote the piece.
        #[serde(default)]
        writer: String,
        /// The piece.
        part: crate::documents::Part,
    },
}

/// What the host must do.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplicaEffect {
    /// Send this frame on the connection.
    Send(String),
    /// Persist this row.
    Persist(ReplicaRow),
    /// The join was accepted: the replica is online.
    Online,
    /// An open document changed by others' edits (or its editors changed).
    DocumentChanged {
        /// The document.
        address: Address,
        /// Its text now.
        text: String,
        /// The members with it open, as the network says.
        editors: Vec<Address>,
    },
    /// The network refused edits of a document; they are undone here.
    DocumentRejected {
        /// The document.
        address: Address,
        /// Why.
        rejection: Rejection,
    },
    /// The join was refused.
    JoinFailed(Rejection),
    /// A new event for the application, in `seq` order for logged events.
    Received(Event),
    /// An own event was acknowledged at `seq`.
    Accepted {
        /// The event id.
        id: EventId,
        /// Its `seq` (0 when it was answered without entering the log).
        seq: u64,
        /// The whole ack payload: an invitation's `code`, a new channel's address, …
        ack: Value,
    },
    /// An own event was refused.
    Rejected {
        /// The event id.
        id: EventId,
        /// Why.
        rejection: Rejection,
    },
    /// A request got its reply.
    Replied {
        /// The request's id.
        request: EventId,
        /// The reply.
        reply: Event,
    },
    /// A request failed (error from the network or timeout).
    RequestFailed {
        /// The request's id.
        request: EventId,
        /// Why.
        rejection: Rejection,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Link {
    Offline,
    /// Proving a key before joining: the challenge's id, frame, when it was
    /// sent, and the other credentials to join with.
    Challenging(EventId, String, u64, Option<Value>),
    /// The join's id, frame and when it was sent.
    Joining(EventId, String, u64),
    Online,
}

/// An Ed25519 secret key; its `Debug` never shows the bytes.
#[derive(Clone)]
struct SigningSecret([u8; 32]);

impl std::fmt::Debug for SigningSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningSecret(..)")
    }
}

/// A participant's replica of one network.
#[derive(Debug, Clone)]
pub struct Replica {
    client: Client,
    watermark: Option<u64>,
    log: BTreeMap<u64, Event>,
    outbox: BTreeMap<EventId, OutboxEntry>,
    /// When each open request times out.
    requests: Deadlines,
    link: Link,
    resyncing: bool,
    /// The time of the latest call, for the ids of acks and resumes.
    clock: u64,
    /// When each sent outbox event went out.
    sent_at: Deadlines,
    /// The Ed25519 secret that proves this registered address (verification level 1).
    signing_key: Option<SigningSecret>,
    /// Applied deliveries not yet acknowledged: how many, and since when.
    unacked: Option<(u64, u64)>,
    /// At most this many events are kept in [`Replica::log`]; `None`: all.
    log_limit: Option<usize>,
    /// The secret this address's joins present (see `member_secret.rs`).
    member_secret: Option<String>,
    /// Deliveries beyond the watermark came before the join's answer.
    missed_while_joining: bool,
    /// Open shared documents and stored copies.
    #[cfg(feature = "documents")]
    documents: documents::ClientDocuments,
}

impl Replica {
    /// An empty replica for `address` in `network`; `seed` is 32 random bytes.
    pub fn new(address: Address, network: NetworkId, seed: [u8; 32]) -> Self {
        Self {
            client: Client::new(address, network, seed),
            watermark: None,
            log: BTreeMap::new(),
            outbox: BTreeMap::new(),
            requests: Deadlines::default(),
            link: Link::Offline,
            resyncing: false,
            clock: 0,
            sent_at: Deadlines::default(),
            signing_key: None,
            unacked: None,
            log_limit: None,
            member_secret: None,
            missed_while_joining: false,
            #[cfg(feature = "documents")]
            documents: documents::ClientDocuments::default(),
        }
    }

    /// Proves the address with this Ed25519 secret on every connection: the
    /// replica asks for a challenge, signs its nonce and joins with
    /// `credentials: {nonce, signature}` (seed 000 §5, level 1).
    pub fn set_signing_key(&mut self, secret: [u8; 32]) {
        self.signing_key = Some(SigningSecret(secret));
    }

    /// Keeps at most `limit` events in [`Replica::log`], forgetting the
    /// oldest; `None` (the default) keeps every one. A host that shows the
    /// history (the web workspace) keeps it; an agent that only handles events
    /// as they come sets `Some(0)`, or its memory grows with every event.
    /// Ordering, deduplication and acknowledgements do not depend on it.
    pub fn set_log_limit(&mut self, limit: Option<usize>) {
        self.log_limit = limit;
        self.trim_log();
    }

    /// Adds an event to the log at `seq`, within the limit.
    fn remember(&mut self, seq: u64, event: impl FnOnce() -> Event) {
        if self.log_limit == Some(0) {
            return;
        }
        self.log.insert(seq, event());
        self.trim_log();
    }

    fn trim_log(&mut self) {
        if let Some(limit) = self.log_limit {
            while self.log.len() > limit {
                self.log.pop_first();
            }
        }
    }

    /// Restores persisted rows (in the order they were written).
    pub fn restore(&mut self, rows: impl IntoIterator<Item = ReplicaRow>) {
        for row in rows {
            match row {
                ReplicaRow::Watermark { seq } => self.watermark = Some(seq),
                ReplicaRow::Logged { seq, event } => self.remember(seq, || event),
                ReplicaRow::Outbox(mut entry) => {
                    if entry.state == OutboxState::Sent {
                        entry.state = OutboxState::Pending;
                    }
                    self.outbox.insert(entry.event.id, entry);
                }
                ReplicaRow::OutboxRemoved { id } => {
                    self.outbox.remove(&id);
                }
                ReplicaRow::MemberSecret { address, secret } => {
                    self.restore_member_secret(&address, secret);
                }
                #[cfg(feature = "documents")]
                row @ (ReplicaRow::Document(_) | ReplicaRow::DocumentRemoved { .. }) => {
                    self.documents.restore(row);
                }
                #[cfg(not(feature = "documents"))]
                ReplicaRow::Document(_) | ReplicaRow::DocumentRemoved { .. } => {}
            }
        }
    }

    /// The participant's address.
    pub fn address(&self) -> &Address {
        self.client.address()
    }

    /// Highest gap-free `seq` held, once the replica has synced.
    pub fn watermark(&self) -> Option<u64> {
        self.watermark
    }

    /// The log by `seq`.
    pub fn log(&self) -> &BTreeMap<u64, Event> {
        &self.log
    }

    /// Events created here that are not in the log yet (pending, sent or rejected), oldest first.
    pub fn outbox(&self) -> impl Iterator<Item = &OutboxEntry> {
        self.outbox.values()
    }

    /// True once the join is acknowledged on the current connection.
    pub fn is_online(&self) -> bool {
        self.link == Link::Online
    }

    /// Creates an event; it is sent now when online, else when the replica next connects.
    pub fn post(
        &mut self,
        event_type: EventType,
        target: Address,
        payload: Value,
        metadata: Map<String, Value>,
        now: u64,
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
        now: u64,
    ) -> (EventId, Vec<ReplicaEffect>) {
        let (id, effects) = self.post(event_type, target, payload, Map::new(), now);
        self.requests.insert(id, now.saturating_add(timeout_ms));
        (id, effects)
    }

    /// The connection is open: join, resuming from the watermark.
    /// With a signing key it first asks for a challenge (see [`Replica::set_signing_key`]).
    pub fn connected(&mut self, credentials: Option<Value>, now: u64) -> Vec<ReplicaEffect> {
        self.resyncing = false;
        if self.signing_key.is_some() {
            let challenge = self.client.event(
                EventType::from_static(core_types::AGENT_CHALLENGE),
                Address::core(),
                json!({}),
                now,
            );
            let frame = challenge.encode();
            self.link = Link::Challenging(challenge.id, frame.clone(), now, credentials);
            return vec![ReplicaEffect::Send(frame)];
        }
        self.send_join(credentials, now)
    }

    fn send_join(&mut self, credentials: Option<Value>, now: u64) -> Vec<ReplicaEffect> {
        let (credentials, persist) = self.with_member_secret(credentials);
        let mut join = self.client.join(credentials, now);
        if let (Some(after), Value::Object(payload)) = (self.watermark, &mut join.payload) {
            payload.insert("resume".into(), json!({ "after": after }));
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
    fn answer_challenge(&mut self, response: &Event, now: u64) -> Vec<ReplicaEffect> {
        let Link::Challenging(_, _, _, credentials) = &self.link else {
            return Vec::new();
        };
        let (Some(secret), Some(nonce)) = (
            &self.signing_key,
            response.payload.get("nonce").and_then(Value::as_str),
        ) else {
            self.link = Link::Offline;
            return vec![ReplicaEffect::JoinFailed(Rejection::new(
                ErrorCode::VerificationFailed,
                "the challenge response carries no nonce",
            ))];
        };
        let signature = sign_challenge(
            &secret.0,
            self.client.network(),
            self.client.address(),
            nonce,
        );
        let mut credentials = match credentials {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        credentials.insert("nonce".into(), json!(nonce));
        credentials.insert("signature".into(), json!(signature));
        self.send_join(Some(Value::Object(credentials)), now)
    }

    /// The connection closed: sent events will be sent again on the next connection.
    pub fn disconnected(&mut self) {
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

    /// When [`Replica::handle_timeout`] should next run: a request's deadline, or
    /// the moment an unanswered join or event is due to be sent again.
    pub fn poll_timeout(&self) -> Option<u64> {
        let requests = self.requests.earliest();
        let resends = self.sent_at.earliest().map(|at| at + RESEND_AFTER_MS);
        let join = match &self.link {
            Link::Joining(_, _, at) | Link::Challenging(_, _, at, _) => Some(at + RESEND_AFTER_MS),
            _ => None,
        };
        let ack = self.unacked.map(|(_, since)| since + ACK_DELAY_MS);
        [requests, resends, join, ack].into_iter().flatten().min()
    }

    /// Fails requests whose time is up and resends what went unanswered.
    pub fn handle_timeout(&mut self, now: u64) -> Vec<ReplicaEffect> {
        self.clock = self.clock.max(now);
        let mut effects = Vec::new();
        if let Some((_, since)) = self.unacked
            && since + ACK_DELAY_MS <= now
            && let Some(ack) = self.flush_ack()
        {
            effects.push(ack);
        }
        if let Link::Joining(id, frame, at) = &self.link
            && at + RESEND_AFTER_MS <= now
        {
            effects.push(ReplicaEffect::Send(frame.clone()));
            self.link = Link::Joining(*id, frame.clone(), now);
        }
        if let Link::Challenging(_, frame, at, _) = &mut self.link
            && *at + RESEND_AFTER_MS <= now
        {
            // A nonce is single use, but an unanswered challenge consumed nothing.
            effects.push(ReplicaEffect::Send(frame.clone()));
            *at = now;
        }
        // Sent at least RESEND_AFTER_MS ago (nothing can be, that early in the clock).
        let due = now
            .checked_sub(RESEND_AFTER_MS)
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

    /// Handles one frame from the network.
    pub fn receive(&mut self, frame: &str, now: u64) -> Vec<ReplicaEffect> {
        self.clock = self.clock.max(now);
        let Ok(event) = Event::decode(frame, &Limits::default()) else {
            return Vec::new();
        };
        let delivery = event.metadata.get("delivery").cloned();
        let ack_payload = if event.event_type.as_str() == core_types::EVENT_ACK {
            event.payload.clone()
        } else {
            Value::Null
        };
        match self.client.interpret(event) {
            Incoming::Ack { id, seq } => self.on_ack(id, seq, frame, ack_payload),
            Incoming::Error {
                in_reply_to,
                rejection,
            } => self.on_error(in_reply_to, rejection),
            Incoming::Event(event) if matches!(&self.link, Link::Challenging(id, ..) if event.in_reply_to() == Some(*id)) => {
                self.answer_challenge(&event, now)
            }
            Incoming::Event(event) => match delivery {
                Some(d) => self.on_delivery(*event, &d),
                None => self.on_unsequenced(*event),
            },
        }
    }

    fn on_ack(
        &mut self,
        id: EventId,
        seq: Option<u64>,
        frame: &str,
        ack: Value,
    ) -> Vec<ReplicaEffect> {
        if matches!(&self.link, Link::Joining(join, _, _) if *join == id) {
            self.link = Link::Online;
            if self.watermark.is_none() {
                let start = Event::decode(frame, &Limits::default())
                    .ok()
                    .and_then(|e| e.payload.get("resume_after").and_then(Value::as_u64))
                    .unwrap_or(0);
                self.watermark = Some(start);
            }
            let mut effects = vec![ReplicaEffect::Online];
            effects.extend(self.learn_member_secret(&ack));
            if std::mem::take(&mut self.missed_while_joining) {
                self.resyncing = true;
                let resume = self.client.event(
                    EventType::from_static(core_types::AGENT_RESUME),
                    Address::core(),
                    json!({ "after": self.watermark.unwrap_or(0) }),
                    self.clock,
                );
                effects.push(ReplicaEffect::Send(resume.encode()));
            }
            if let Some(seq) = self.watermark {
                effects.push(ReplicaEffect::Persist(ReplicaRow::Watermark { seq }));
            }
            effects.extend(self.flush());
            #[cfg(feature = "documents")]
            effects.extend(self.sync_documents(self.clock));
            return effects;
        }
        let Some(entry) = self.outbox.remove(&id) else {
            return Vec::new();
        };
        self.sent_at.remove(&id);
        let mut effects = vec![ReplicaEffect::Persist(ReplicaRow::OutboxRemoved { id })];
        match seq {
            Some(seq) => {
                self.remember(seq, || entry.event.clone());
                effects.push(ReplicaEffect::Persist(ReplicaRow::Logged {
                    seq,
                    event: entry.event,
                }));
                effects.push(ReplicaEffect::Accepted { id, seq, ack });
            }
            // Accepted without a log entry (e.g. an answered read): nothing to keep.
            None => effects.push(ReplicaEffect::Accepted { id, seq: 0, ack }),
        }
        effects
    }

    fn on_error(
        &mut self,
        in_reply_to: Option<EventId>,
        rejection: Rejection,
    ) -> Vec<ReplicaEffect> {
        let Some(id) = in_reply_to else {
            return Vec::new();
        };
        #[cfg(feature = "documents")]
        if let Some(effects) = self.on_document_error(id, &rejection) {
            return effects;
        }
        let refused = match &self.link {
            Link::Joining(join, ..) | Link::Challenging(join, ..) => *join == id,
            _ => false,
        };
        if refused {
            self.link = Link::Offline;
            return vec![ReplicaEffect::JoinFailed(rejection)];
        }
        let mut effects = Vec::new();
        if self.requests.remove(&id).is_some() {
            effects.push(ReplicaEffect::RequestFailed {
                request: id,
                rejection: rejection.clone(),
            });
        }
        if let Some(entry) = self.outbox.get_mut(&id) {
            self.sent_at.remove(&id);
            entry.state = OutboxState::Rejected {
                rejection: rejection.clone(),
            };
            effects.push(ReplicaEffect::Persist(ReplicaRow::Outbox(entry.clone())));
            effects.push(ReplicaEffect::Rejected { id, rejection });
        }
        effects
    }

    fn on_delivery(&mut self, event: Event, delivery: &Value) -> Vec<ReplicaEffect> {
        let (Some(seq), Some(prev)) = (
            delivery.get("seq").and_then(Value::as_u64),
            delivery.get("prev").and_then(Value::as_u64),
        ) else {
            return self.on_unsequenced(event);
        };
        let watermark = self.watermark.unwrap_or(0);
        if seq <= watermark || self.log.contains_key(&seq) {
            // Already held: acknowledge again so the network's cursor catches up.
            return vec![self.ack(watermark)];
        }
        if prev > watermark {
            if self.resyncing || self.link != Link::Online {
                // A new process for a known member learns where it starts only from
                // the join's answer: what came before it is asked for again then.
                self.missed_while_joining |= self.link != Link::Online;
                return Vec::new();
            }
            self.resyncing = true;
            let resume = self.client.event(
                EventType::from_static(core_types::AGENT_RESUME),
                Address::core(),
                json!({ "after": watermark }),
                self.clock,
            );
            return vec![ReplicaEffect::Send(resume.encode())];
        }
        self.resyncing = false;
        self.watermark = Some(seq);
        let mut stored = event;
        stored.metadata.remove("delivery");
        self.remember(seq, || stored.clone());
        let mut effects = vec![
            ReplicaEffect::Persist(ReplicaRow::Logged {
                seq,
                event: stored.clone(),
            }),
            ReplicaEffect::Persist(ReplicaRow::Watermark { seq }),
        ];
        effects.extend(self.resolve_request(&stored));
        effects.push(ReplicaEffect::Received(stored));
        let (count, since) = self.unacked.unwrap_or((0, self.clock));
        self.unacked = Some((count + 1, since));
        if count + 1 >= ACK_EVERY {
            effects.extend(self.flush_ack());
        }
        effects
    }

    /// Acknowledges everything up to the watermark (cumulative), if anything is unacknowledged.
    fn flush_ack(&mut self) -> Option<ReplicaEffect> {
        self.unacked.take()?;
        let watermark = self.watermark?;
        Some(self.ack(watermark))
    }

    fn on_unsequenced(&mut self, event: Event) -> Vec<ReplicaEffect> {
        #[cfg(feature = "documents")]
        if let Some(effects) = self.on_document_message(&event, self.clock) {
            return effects;
        }
        let mut effects = self.resolve_request(&event);
        effects.push(ReplicaEffect::Received(event));
        effects
    }

    fn resolve_request(&mut self, event: &Event) -> Vec<ReplicaEffect> {
        let Some(request) = event.in_reply_to() else {
            return Vec::new();
        };
        let mut effects = Vec::new();
        // An answer means the network took the event, even when it sends no ack
        // (a read or a discover is answered, not logged): stop resending it.
        if self.outbox.remove(&request).is_some() {
            self.sent_at.remove(&request);
            effects.push(ReplicaEffect::Persist(ReplicaRow::OutboxRemoved {
                id: request,
            }));
            effects.push(ReplicaEffect::Accepted {
                id: request,
                seq: 0,
                ack: Value::Null,
            });
        }
        if self.requests.remove(&request).is_some() {
            effects.push(ReplicaEffect::Replied {
                request,
                reply: event.clone(),
            });
        }
        effects
    }

    fn ack(&mut self, seq: u64) -> ReplicaEffect {
        let ack = self.client.event(
            EventType::from_static(core_types::EVENT_ACK),
            Address::core(),
            json!({ "seq": seq }),
            self.clock,
        );
        ReplicaEffect::Send(ack.encode())
    }

    /// Sends every unsent outbox event, oldest first.
    fn flush(&mut self) -> Vec<ReplicaEffect> {
        let mut effects = Vec::new();
        for entry in self.outbox.values_mut() {
            if entry.state == OutboxState::Pending {
                entry.state = OutboxState::Sent;
                self.sent_at.insert(entry.event.id, self.clock);
                effects.push(ReplicaEffect::Send(entry.event.encode()));
            }
        }
        effects
    }
}

mod deadlines;
#[cfg(feature = "documents")]
mod documents;
mod member_secret;
use deadlines::Deadlines;
#[cfg(feature = "documents")]
pub use documents::DocumentEdit;

#[cfg(test)]
mod tests;
