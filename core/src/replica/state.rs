//! The [`Replica`] itself: what it holds, how it is restored, and what hosts read of it.

use crate::client::Client;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;

use super::deadlines::Deadlines;
use super::keepalive::{Keepalive, Liveness};
use super::types::{Link, OutboxEntry, OutboxState, ReplicaEffect, ReplicaRow, SigningSecret};
use std::collections::BTreeMap;

/// A participant's replica of one network.
#[derive(Debug)]
pub struct Replica {
    pub(super) client: Client,
    pub(super) watermark: Option<u64>,
    pub(super) log: BTreeMap<u64, Event>,
    pub(super) outbox: BTreeMap<EventId, OutboxEntry>,
    /// When each open request times out.
    pub(super) requests: Deadlines,
    pub(super) link: Link,
    pub(super) resyncing: bool,
    /// The time of the latest call, for the ids of acks and resumes.
    pub(super) clock: Timestamp,
    /// When each sent outbox event went out.
    pub(super) sent_at: Deadlines,
    /// The Ed25519 secret that proves this registered address (verification level 1).
    pub(super) signing_key: Option<SigningSecret>,
    /// The DID the signing key proves (verification level 3), if any.
    pub(super) did: Option<String>,
    /// Applied deliveries not yet acknowledged: how many, and since when.
    pub(super) unacked: Option<(u64, Timestamp)>,
    /// At most this many events are kept in [`Replica::log`]; `None`: all.
    pub(super) log_limit: Option<usize>,
    /// The secret this address's joins present (see `member_secret.rs`).
    pub(super) member_secret: Option<String>,
    /// Deliveries beyond the watermark came before the join's answer.
    pub(super) missed_while_joining: bool,
    /// What each join says about taking tasks (`tasks` in its payload), if anything.
    pub(super) takes_tasks: Option<bool>,
    /// Open shared documents and stored copies.
    #[cfg(feature = "documents")]
    pub(super) documents: super::document_store::DocumentSlot,
    /// Heartbeats, dead links and reconnection (off unless set).
    pub(super) liveness: Liveness,
    /// The network sent a batched frame on this connection: it takes them too.
    pub(super) peer_batches: bool,
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
            clock: Timestamp::from_millis(0),
            sent_at: Deadlines::default(),
            signing_key: None,
            did: None,
            unacked: None,
            log_limit: None,
            member_secret: None,
            missed_while_joining: false,
            takes_tasks: None,
            #[cfg(feature = "documents")]
            documents: super::document_store::DocumentSlot::default(),
            liveness: Liveness::default(),
            peer_batches: false,
        }
    }

    /// True once the network has sent a batched frame on this connection
    /// (`crate::event::batch`): the host may then send several frames as one.
    pub fn sends_batches(&self) -> bool {
        self.peer_batches
    }

    /// `effects` with their frames to send merged into one batched frame (at
    /// the place of the last, so every row is persisted before it leaves)
    /// when the network takes batches; unchanged otherwise.
    pub fn coalesce_sends(&self, effects: Vec<ReplicaEffect>) -> Vec<ReplicaEffect> {
        let sends = effects
            .iter()
            .filter(|e| matches!(e, ReplicaEffect::Send(_)))
            .count();
        if !self.peer_batches || sends < 2 {
            return effects;
        }
        let mut frames = Vec::with_capacity(sends);
        let mut out = Vec::with_capacity(effects.len() - sends + 1);
        for effect in effects {
            match effect {
                ReplicaEffect::Send(frame) => {
                    frames.push(frame);
                    if frames.len() == sends {
                        out.push(ReplicaEffect::Send(crate::event::batch::join(
                            &frames, true,
                        )));
                    }
                }
                other => out.push(other),
            }
        }
        out
    }

    /// Has the replica watch its link and schedule reconnections (see
    /// [`keepalive`]); `None` (the default) leaves the link to the host.
    /// With it the host reports a closed connection with [`Replica::lost`],
    /// sends the heartbeats that come as [`ReplicaEffect::Send`], closes the
    /// connection on [`ReplicaEffect::Disconnect`] and opens a new one on
    /// [`ReplicaEffect::Reconnect`].
    pub fn set_keepalive(&mut self, keepalive: Option<Keepalive>) {
        self.liveness.set(keepalive);
    }

    /// Proves the address with this Ed25519 secret on every connection: the
    /// replica asks for a challenge, signs its nonce and joins with
    /// `credentials: {nonce, signature}` (ONM §5, level 1).
    pub fn set_signing_key(&mut self, secret: [u8; 32]) {
        self.signing_key = Some(SigningSecret {
            secret,
            sign: crate::verification::sign_challenge,
        });
    }

    /// Proves `did` (whose document lists the signing key as `key-1`) instead
    /// of a registered key: the challenge names the DID and the join carries
    /// `credentials: {did, nonce, signature, verification_method}` (level 3).
    pub fn set_did(&mut self, did: String) {
        self.did = Some(did);
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
    pub(super) fn remember(&mut self, seq: u64, event: impl FnOnce() -> Event) {
        if self.log_limit == Some(0) {
            return;
        }
        self.log.insert(seq, event());
        self.trim_log();
    }

    pub(super) fn trim_log(&mut self) {
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
}
