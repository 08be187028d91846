//! What the object keeps of its WebSockets: each socket's attachment (kept
//! across hibernation: its network and its `SocketRecord`, or a shared
//! socket's lanes), the core's table beside the connections by id, the shared
//! sockets, and the index that names a frame's sender. `crate::network::sockets`
//! and `crate::network::lanes` do the I/O with them.

pub(crate) use crate::host::conn::Conn;
use agentnet_core::bindings::transport::lanes::{self, Lane};
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
    /// A shared socket's highest lane so far and its open lanes (then `id`
    /// and `address` are empty), as `agentnet_core::bindings::transport::lanes::kept`
    /// writes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) lanes: Option<String>,
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
            lanes: None,
        }
    }

    /// The attachment of a shared socket of `network` whose lanes `records` describe.
    pub(crate) fn of_carrier<'a>(
        network: &NetworkId,
        carrier: &Carrier,
        records: impl Iterator<Item = (Lane, &'a SocketRecord)>,
    ) -> Self {
        Self {
            network: Some(network.to_string()),
            peer: carrier.peer.clone(),
            batches: carrier.batches,
            lanes: Some(lanes::kept(carrier.top, records)),
            ..Self::default()
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

/// What to do with a frame that came on a socket (`crate::network::lanes`).
pub(crate) enum Arrived<'a> {
    /// Hand `text` to the network as from `conn`.
    Frame(Conn, &'a str),
    /// Nothing more (a lane closed, a lane refused, a frame on a closed lane).
    Done,
}

/// A shared socket (`?lanes=1`): its lanes and what they share.
pub(crate) struct Carrier {
    pub(crate) ws: WebSocket,
    pub(crate) peer: Option<String>,
    pub(crate) batches: bool,
    /// The open lanes' connection ids.
    pub(crate) lanes: LaneIds,
    /// The highest lane opened so far.
    pub(crate) top: Lane,
}

/// The open lanes of a shared socket and their connection ids: at most
/// `MAX_LANES`, so a short list (no map's code for one more key type).
#[derive(Default)]
pub(crate) struct LaneIds(Vec<(Lane, SocketId)>);

impl LaneIds {
    pub(crate) fn get(&self, lane: Lane) -> Option<SocketId> {
        self.0.iter().find(|(l, _)| *l == lane).map(|(_, id)| *id)
    }

    pub(crate) fn insert(&mut self, lane: Lane, id: SocketId) {
        self.remove(lane);
        self.0.push((lane, id));
    }

    pub(crate) fn remove(&mut self, lane: Lane) -> Option<SocketId> {
        let at = self.0.iter().position(|(l, _)| *l == lane)?;
        Some(self.0.swap_remove(at).1)
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (Lane, SocketId)> + '_ {
        self.0.iter().copied()
    }
}

/// The object's id for one of its shared sockets (in memory only): its
/// place in [`Carriers`].
pub(crate) type CarrierId = u64;

/// The shared sockets, by id: a list whose free places are taken again,
/// and how many are open.
#[derive(Default)]
pub(crate) struct Carriers(Vec<Option<Carrier>>, usize);

impl Carriers {
    /// Whether there are none (then a frame's socket is not looked up as one).
    pub(crate) fn is_empty(&self) -> bool {
        self.1 == 0
    }

    pub(crate) fn get(&self, id: CarrierId) -> Option<&Carrier> {
        self.0.get(usize::try_from(id).ok()?)?.as_ref()
    }

    pub(crate) fn get_mut(&mut self, id: CarrierId) -> Option<&mut Carrier> {
        self.0.get_mut(usize::try_from(id).ok()?)?.as_mut()
    }

    pub(crate) fn remove(&mut self, id: CarrierId) -> Option<Carrier> {
        let removed = self.0.get_mut(usize::try_from(id).ok()?)?.take()?;
        self.1 -= 1;
        Some(removed)
    }

    fn insert(&mut self, carrier: Carrier) -> CarrierId {
        let at = match self.0.iter().position(Option::is_none) {
            Some(free) => free,
            None => {
                self.0.push(None);
                self.0.len() - 1
            }
        };
        self.0[at] = Some(carrier);
        self.1 += 1;
        at as CarrierId
    }
}

/// The table and the connections it names.
pub(crate) struct OpenSockets {
    pub(crate) table: Sockets,
    /// The sockets by connection id (a lane's: its shared socket).
    by_id: BTreeMap<SocketId, WebSocket>,
    /// The connections that are lanes, with their lane, sorted by id (a list:
    /// no map's code for one more value type).
    lane_of: Vec<(SocketId, Lane)>,
    /// The connections that asked for batched frames.
    pub(crate) batched: BTreeSet<SocketId>,
    /// The shared sockets.
    pub(crate) carriers: Carriers,
}

impl OpenSockets {
    /// An empty set under `table`.
    pub(crate) fn new(table: Sockets) -> Self {
        Self {
            table,
            by_id: BTreeMap::new(),
            lane_of: Vec::new(),
            batched: BTreeSet::new(),
            carriers: Carriers::default(),
        }
    }

    /// Connection `id` is `conn`.
    pub(crate) fn insert_conn(&mut self, id: SocketId, conn: Conn) {
        self.by_id.insert(id, conn.ws);
        if let Some(lane) = conn.lane {
            match self.lane_of.binary_search_by_key(&id, |(id, _)| *id) {
                Ok(at) => self.lane_of[at].1 = lane,
                Err(at) => self.lane_of.insert(at, (id, lane)),
            }
        }
    }

    /// Connection `id`, if it is open.
    pub(crate) fn conn(&self, id: SocketId) -> Option<Conn> {
        let ws = self.by_id.get(&id)?.clone();
        let lane = match self.lane_of.binary_search_by_key(&id, |(id, _)| *id) {
            Ok(at) => Some(self.lane_of[at].1),
            Err(_) => None,
        };
        Some(Conn { ws, lane })
    }

    /// Forgets connection `id`.
    pub(crate) fn remove_conn(&mut self, id: SocketId) {
        self.by_id.remove(&id);
        self.batched.remove(&id);
        if let Ok(at) = self.lane_of.binary_search_by_key(&id, |(id, _)| *id) {
            self.lane_of.remove(at);
        }
    }

    /// Adds a shared socket; returns its id.
    pub(crate) fn add_carrier(&mut self, carrier: Carrier) -> CarrierId {
        self.carriers.insert(carrier)
    }

    /// Adds lane `lane` of `carrier`, the table's connection `id`.
    pub(crate) fn add_lane(&mut self, carrier: CarrierId, lane: Lane, id: SocketId) {
        let Some(shared) = self.carriers.get_mut(carrier) else {
            return;
        };
        shared.lanes.insert(lane, id);
        shared.top = shared.top.max(lane);
        let (ws, batches) = (shared.ws.clone(), shared.batches);
        self.insert_conn(id, Conn::lane(ws, lane));
        if batches {
            self.batched.insert(id);
        }
    }

    /// The attachment of shared socket `carrier` as it is now.
    pub(crate) fn carrier_attachment(
        &self,
        network: &NetworkId,
        carrier: CarrierId,
    ) -> Option<Attachment> {
        let shared = self.carriers.get(carrier)?;
        let records = shared
            .lanes
            .iter()
            .filter_map(|(lane, id)| Some((lane, self.table.get(id)?)));
        Some(Attachment::of_carrier(network, shared, records))
    }
}

/// A connection to send to: its id, the connection, and whether it takes batched frames.
pub(crate) struct Recipient {
    pub(crate) id: SocketId,
    pub(crate) conn: Conn,
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
    /// Shared sockets' ids, by socket.
    carriers: SocketIds,
    network: RefCell<Option<NetworkId>>,
}

impl SenderIndex {
    /// `ws` of `network` has the id `id`.
    pub(crate) fn remember(&self, ws: &WebSocket, network: &NetworkId, id: SocketId) {
        self.ids.remember(ws, id);
        self.remember_network(network);
    }

    /// `ws` of `network` is the shared socket `id`.
    pub(crate) fn remember_carrier(&self, ws: &WebSocket, network: &NetworkId, id: CarrierId) {
        self.carriers.remember(ws, id);
        self.remember_network(network);
    }

    /// The shared socket `ws` is, if it was remembered as one.
    pub(crate) fn carrier(&self, ws: &WebSocket) -> Option<CarrierId> {
        self.carriers.get(ws)
    }

    /// The object's network, once a socket named it.
    pub(crate) fn network(&self) -> Option<NetworkId> {
        self.network.borrow().clone()
    }

    fn remember_network(&self, network: &NetworkId) {
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
        self.carriers.forget(ws);
    }
}

/// The JS object of `ws`, as a `WeakMap` key.
fn key(ws: &WebSocket) -> &Object {
    ws.as_ref().unchecked_ref()
}
