//! What the replica exchanges with its host: the effects it returns, the rows
//! it persists, its outbox entries, and the state of its link.

use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OutboxEntry {
    /// The event.
    pub event: Event,
    /// Its state.
    #[serde(flatten)]
    pub state: OutboxState,
}

/// What the host persists so the replica survives restarts. (It is read back
/// by [`super::row_reader`], not by serde's reader for tagged enums.)
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    /// The link is dead (no frame since the heartbeat): close the connection.
    /// The replica is offline already; report the closed link with
    /// [`Replica::lost`] to have the next attempt scheduled.
    Disconnect,
    /// Time to open a new connection (then call [`Replica::connected`], or
    /// [`Replica::lost`] if it cannot be opened).
    Reconnect,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Link {
    Offline,
    /// Proving a key before joining: the challenge's id, frame, when it was
    /// sent, and the other credentials to join with.
    Challenging(EventId, String, Timestamp, Option<Value>),
    /// The join's id, frame and when it was sent.
    Joining(EventId, String, Timestamp),
    Online,
}

/// Signs a challenge's nonce: `(secret, network, address, nonce)` to the signature's hex.
pub(super) type ChallengeSigner = fn(&[u8; 32], &NetworkId, &Address, &str) -> String;

/// An Ed25519 secret key and the function that signs with it; its `Debug`
/// never shows the bytes. The function is named only where a key is set
/// ([`super::Replica::set_signing_key`]), so a host that never sets one (the
/// web workspace) links no Ed25519 or SHA-512 code.
#[derive(Clone)]
pub(super) struct SigningSecret {
    pub(super) secret: [u8; 32],
    pub(super) sign: ChallengeSigner,
}

impl std::fmt::Debug for SigningSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningSecret(..)")
    }
}
