//! What the object keeps of its WebSockets: each socket's attachment (kept
//! across hibernation: its network and its `SocketRecord`), the core's table
//! beside the sockets by id, and the index that names a frame's sender. `crate::network::sockets`
//! does the I/O with them.

use agentnet_core::bindings::transport::sockets::{SocketId, SocketRecord, Sockets};
use agentnet_core::{NetworkId, Timestamp};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use worker::WebSocket;
use worker::js_sys::{Object, WeakMap};
use worker::wasm_bindgen::{JsCast, JsValue};

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
    pub(crate) since: Timestamp,
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

/// Socket ids by socket, in a JS `WeakMap` keyed by the socket itself
/// (workerd hands the same object to every event of one socket), so a
/// frame's socket is named without deserializing its attachment: a
/// structured-clone read that was the largest cost of an ack.
pub(crate) struct SocketIds(WeakMap);

impl Default for SocketIds {
    fn default() -> Self {
        Self(WeakMap::new())
    }
}

impl SocketIds {
    /// `ws` has the id `id`.
    pub(crate) fn remember(&self, ws: &WebSocket, id: SocketId) {
        // Ids count up from 1: far below 2^53, so exact as a JS number.
        self.0.set(key(ws), &JsValue::from_f64(id as f64));
    }

    /// The id of `ws`, if it was remembered.
    pub(crate) fn get(&self, ws: &WebSocket) -> Option<SocketId> {
        self.0.get(key(ws)).as_f64().map(|id| id as SocketId)
    }

    /// Forgets `ws` (it closed).
    pub(crate) fn forget(&self, ws: &WebSocket) {
        self.0.delete(key(ws));
    }
}

/// Which of the network object's sockets a frame came from: the sockets'
/// ids ([`SocketIds`]) and the object's network, learned once. A socket not
/// in it (none after the table is restored) is read from its attachment.
#[derive(Default)]
pub(crate) struct SenderIndex {
    ids: SocketIds,
    network: RefCell<Option<NetworkId>>,
}

impl SenderIndex {
    /// `ws` of `network` has the id `id`.
    pub(crate) fn remember(&self, ws: &WebSocket, network: &NetworkId, id: SocketId) {
        self.ids.remember(ws, id);
        let mut known = self.network.borrow_mut();
        if known.as_ref() != Some(network) {
            *known = Some(network.clone());
        }
    }

    /// The network and id of `ws`, if it was remembered.
    pub(crate) fn lookup(&self, ws: &WebSocket) -> Option<(NetworkId, SocketId)> {
        let id = self.ids.get(ws)?;
        let network = self.network.borrow().clone()?;
        Some((network, id))
    }

    /// Forgets `ws` (it closed).
    pub(crate) fn forget(&self, ws: &WebSocket) {
        self.ids.forget(ws);
    }
}

/// The JS object of `ws`, as a `WeakMap` key.
fn key(ws: &WebSocket) -> &Object {
    ws.as_ref().unchecked_ref()
}
