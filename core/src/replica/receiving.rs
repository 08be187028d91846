//! The replica's incoming side: acks, errors, deliveries in order (gaps and
//! duplicates), unsequenced answers, and the acks it owes the network.

use super::state::Replica;
use super::types::{ACK_EVERY, Link, OutboxState, ReplicaEffect, ReplicaRow};
use crate::client::Incoming;
use crate::error::Rejection;
use crate::event::{Event, Limits};
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::model::received::{AckRead, DeliveryRead};
use serde_json::{Value, json};

impl Replica {
    /// Handles one frame from the network: one event, or a batch of them
    /// (`crate::event::batch`), handled in order.
    pub fn receive(&mut self, frame: &str, now: Timestamp) -> Vec<ReplicaEffect> {
        self.clock = self.clock.max(now);
        // Any frame, a heartbeat's answer included, proves the link alive.
        self.liveness.heard(now);
        if crate::event::batch::is_batch(frame) {
            self.peer_batches = true;
            return crate::event::batch::split(frame)
                .into_iter()
                .flat_map(|event| self.receive_event(event, now))
                .collect();
        }
        self.receive_event(frame, now)
    }

    fn receive_event(&mut self, frame: &str, now: Timestamp) -> Vec<ReplicaEffect> {
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

    pub(super) fn on_ack(
        &mut self,
        id: EventId,
        seq: Option<u64>,
        frame: &str,
        ack: Value,
    ) -> Vec<ReplicaEffect> {
        if matches!(&self.link, Link::Joining(join, _, _) if *join == id) {
            self.link = Link::Online;
            self.liveness.joined();
            if self.watermark.is_none() {
                let start = Event::decode(frame, &Limits::default())
                    .ok()
                    .and_then(|e| AckRead::of(&e.payload).resume_after.given())
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

    pub(super) fn on_error(
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

    pub(super) fn on_delivery(&mut self, event: Event, delivery: &Value) -> Vec<ReplicaEffect> {
        let Some((seq, prev)) = DeliveryRead::place(delivery) else {
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
    pub(super) fn flush_ack(&mut self) -> Option<ReplicaEffect> {
        self.unacked.take()?;
        let watermark = self.watermark?;
        Some(self.ack(watermark))
    }

    pub(super) fn on_unsequenced(&mut self, event: Event) -> Vec<ReplicaEffect> {
        #[cfg(feature = "documents")]
        if let Some(effects) = self.on_document_message(&event, self.clock) {
            return effects;
        }
        let mut effects = self.resolve_request(&event);
        effects.push(ReplicaEffect::Received(event));
        effects
    }

    pub(super) fn resolve_request(&mut self, event: &Event) -> Vec<ReplicaEffect> {
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

    pub(super) fn ack(&mut self, seq: u64) -> ReplicaEffect {
        let ack = self.client.event(
            EventType::from_static(core_types::EVENT_ACK),
            Address::core(),
            json!({ "seq": seq }),
            self.clock,
        );
        ReplicaEffect::Send(ack.encode())
    }

    /// Sends every unsent outbox event, oldest first.
    pub(super) fn flush(&mut self) -> Vec<ReplicaEffect> {
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
