//! What the object keeps of its WebSockets: each socket's attachment (kept
//! across hibernation: its network and its `SocketRecord`), the core's table
//! beside the sockets by id, and the last frame's sender. `crate::sockets`
//! does the I/O with them.

use agentnet_core::NetworkId;
use agentnet_core::bindings::sockets::{SocketId, SocketRecord, Sockets};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use worker::WebSocket;

/// What a socket's attachment remembers across hibernation.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(crate) struct Attachment {
    pub(crate) network: Option<String>,
    /// The member it is bound to (kept in this field since before socket ids).
    pub(crate) address: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<SocketId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) peer: Option<String>,
    #[serde(default)]
    pub(crate) since: u64,
    /// It asked for batched frames at its upgrade.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) batches: bool,
}

impl Attachment {
    /// The attachment of a socket of `network` that `record` describes.
    pub(crate) fn of(network: &NetworkId, record: &SocketRecord, batches: bool) -> Self {
        Self {
            network: Some(network.to_string()),
            address: record.member.as_ref().map(ToString::to_string),
            id: Some(record.id),
            peer: record.peer.clone(),
            since: record.since,
            batches,
        }
    }

    /// A socket's attachment (empty when it has none or it does not parse).
    pub(crate) fn read(ws: &WebSocket) -> Self {
        ws.deserialize_attachment::<Self>()
            .ok()
            .flatten()
            .unwrap_or_default()
    }
}

/// The table and the sockets it names.
pub(crate) struct OpenSockets {
    pub(crate) table: Sockets,
    pub(crate) by_id: BTreeMap<SocketId, WebSocket>,
    /// The sockets that asked for batched frames.
    pub(crate) batched: BTreeSet<SocketId>,
}

/// A socket to send to: its id, the socket, and whether it takes batched frames.
pub(crate) struct Recipient {
    pub(crate) id: SocketId,
    pub(crate) ws: WebSocket,
    pub(crate) batches: bool,
}

/// The last frame's socket, so a burst of frames reads its attachment once.
pub(crate) struct LastSender {
    pub(crate) socket: WebSocket,
    pub(crate) network: NetworkId,
    pub(crate) id: SocketId,
}
