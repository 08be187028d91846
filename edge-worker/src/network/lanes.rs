//! The I/O of shared sockets (`?lanes=1`): several members on one WebSocket,
//! each in a lane that is a connection of the core's table of its own
//! (`agentnet_core::bindings::transport::lanes` says the frames). A shared
//! socket's attachment keeps its open lanes across hibernation; it closes
//! when its last lane does.

use crate::host::now;
use crate::network::object::NetworkHost;
use crate::network::socket_state::{
    Arrived, Attachment, Carrier, CarrierId, Conn, LaneIds, OpenSockets,
};
use agentnet_core::bindings::transport::lanes::{self, FIRST_LANE, Lane, LaneFrame, MAX_LANES};
use agentnet_core::bindings::transport::sockets::SocketRecord;
use agentnet_core::replica::{HEARTBEAT_PING, HEARTBEAT_PONG};
use agentnet_core::{Address, NetworkId};
use worker::{Result, WebSocket};

impl NetworkHost {
    /// Accepts `ws` as a shared socket of `network` whose lane 0 is the
    /// upgrade's connection (bound to `member` when it joined at the upgrade).
    pub(crate) fn open_carrier(
        &self,
        network: &NetworkId,
        ws: &WebSocket,
        peer: Option<String>,
        member: Option<Address>,
        batches: bool,
    ) -> Result<Conn> {
        let (carrier, attachment) = self.with_sockets(|open| {
            let record = open.table.open(peer.clone(), member, now());
            let carrier = open.add_carrier(Carrier {
                ws: ws.clone(),
                peer,
                batches,
                lanes: LaneIds::default(),
                top: FIRST_LANE,
            });
            open.add_lane(carrier, FIRST_LANE, record.id);
            (carrier, open.carrier_attachment(network, carrier))
        });
        self.senders.remember_carrier(ws, network, carrier);
        if let Some(attachment) = attachment {
            ws.serialize_attachment(attachment)?;
        }
        // Before any lane's frame: this object takes any member on it.
        ws.send_with_str(lanes::PLACED_ANYWHERE)?;
        Ok(Conn::lane(ws.clone(), FIRST_LANE))
    }

    /// Takes back a shared socket the platform kept across a wake.
    pub(crate) fn restore_carrier(
        &self,
        open: &mut OpenSockets,
        ws: WebSocket,
        attachment: Attachment,
    ) {
        let Some(network) = attachment
            .network
            .as_deref()
            .and_then(|n| n.parse::<NetworkId>().ok())
        else {
            return;
        };
        let kept = attachment.lanes.as_deref().unwrap_or_default();
        let peer = attachment.peer.as_deref();
        let (top, lanes) = lanes::restored(kept, peer).unwrap_or_default();
        let carrier = open.add_carrier(Carrier {
            ws: ws.clone(),
            peer: attachment.peer.clone(),
            batches: attachment.batches,
            lanes: LaneIds::default(),
            top,
        });
        for (lane, record) in lanes {
            let id = record.id;
            open.table.restore(record);
            open.add_lane(carrier, lane, id);
        }
        self.senders.remember_carrier(&ws, &network, carrier);
    }

    /// The shared socket `ws` is, if it is one.
    pub(crate) fn carrier_of(&self, ws: &WebSocket) -> Option<CarrierId> {
        // Restoring the table remembers every shared socket; an object with
        // none asks no more (a frame of a socket of its own costs no lookup).
        if self.with_sockets(|open| open.carriers.is_empty()) {
            return None;
        }
        self.senders.carrier(ws)
    }

    /// The network and the record of lane `lane` of `ws`.
    pub(crate) fn lane_sender(
        &self,
        ws: &WebSocket,
        lane: Lane,
    ) -> Option<(NetworkId, SocketRecord)> {
        let carrier = self.carrier_of(ws)?;
        let network = self.senders.network()?;
        let record = self.with_sockets(|open| {
            let id = open.carriers.get(carrier)?.lanes.get(lane)?;
            open.table.get(id).cloned()
        })?;
        Some((network, record))
    }

    /// Writes the attachment of the shared socket `ws` as its lanes are now;
    /// `false` (and nothing written) when its lanes' members would not fit
    /// what the platform keeps with a socket (`lanes::MAX_KEPT_BYTES`).
    pub(crate) fn write_carrier(&self, ws: &WebSocket) -> Result<bool> {
        let (Some(carrier), Some(network)) = (self.carrier_of(ws), self.senders.network()) else {
            return Ok(true);
        };
        let Some(attachment) = self.with_sockets(|open| open.carrier_attachment(&network, carrier))
        else {
            return Ok(true);
        };
        if attachment
            .lanes
            .as_deref()
            .is_some_and(|kept| !lanes::fits_kept(kept))
        {
            return Ok(false);
        }
        ws.serialize_attachment(attachment)?;
        Ok(true)
    }

    /// What a frame from `ws` is: a socket of its own hands it on as it is; a
    /// shared one's names its lane (opening it on its first frame) or closes one.
    pub(crate) fn arrived<'a>(&self, ws: WebSocket, frame: &'a str) -> Result<Arrived<'a>> {
        let Some(carrier) = self.carrier_of(&ws) else {
            return Ok(Arrived::Frame(Conn::whole(ws), frame));
        };
        // The socket's own heartbeat (the runtime answers it first, unless it cannot).
        if frame == HEARTBEAT_PING {
            let _ = ws.send_with_str(HEARTBEAT_PONG);
            return Ok(Arrived::Done);
        }
        match lanes::parse(frame) {
            Err(refused) => {
                self.close_later(Conn::whole(ws), refused.close());
                Ok(Arrived::Done)
            }
            Ok(LaneFrame::Close { lane, .. }) => {
                self.forget_lane(&ws, lane)?;
                Ok(Arrived::Done)
            }
            Ok(LaneFrame::Frame { lane, text }) => {
                Ok(match self.open_lane(&ws, carrier, lane)? {
                    true => Arrived::Frame(Conn::lane(ws, lane), text),
                    false => Arrived::Done,
                })
            }
        }
    }

    /// Whether lane `lane` of `carrier` is open, opening it if it is new and
    /// there is room (a lane refused is told so on the socket).
    fn open_lane(&self, ws: &WebSocket, carrier: CarrierId, lane: Lane) -> Result<bool> {
        let opened = self.with_sockets(|open| {
            let shared = open.carriers.get(carrier)?;
            if shared.lanes.get(lane).is_some() {
                return Some(Ok(false));
            }
            // Lanes open in increasing order: a lower one is one that closed.
            if lane <= shared.top {
                return None;
            }
            let peer = shared.peer.clone();
            let admitted = if shared.lanes.len() >= MAX_LANES {
                Err(lanes::full())
            } else {
                open.table.admits(peer.as_deref(), false)
            };
            if let Err(close) = admitted {
                if let Some(shared) = open.carriers.get_mut(carrier) {
                    shared.top = lane;
                }
                return Some(Err(close));
            }
            let record = open.table.open(peer, None, now());
            open.add_lane(carrier, lane, record.id);
            Some(Ok(true))
        });
        match opened {
            None => Ok(false),
            Some(Ok(new)) => {
                if new {
                    self.write_carrier(ws)?;
                }
                Ok(true)
            }
            Some(Err(close)) => {
                Conn::lane(ws.clone(), lane).close(&close);
                self.write_carrier(ws)?;
                Ok(false)
            }
        }
    }

    /// Lane `lane` of `ws` closed: forget it (its member goes offline if it
    /// has no other connection); the socket closes with its last lane.
    pub(crate) fn forget_lane(&self, ws: &WebSocket, lane: Lane) -> Result<()> {
        let (Some(carrier), Some(network)) = (self.carrier_of(ws), self.senders.network()) else {
            return Ok(());
        };
        let closed = self.with_sockets(|open| {
            let shared = open.carriers.get_mut(carrier)?;
            let id = shared.lanes.remove(lane)?;
            let emptied = shared.lanes.is_empty();
            open.remove_conn(id);
            let member = open.table.close(id).and_then(|closed| closed.member);
            if emptied {
                open.carriers.remove(carrier);
            }
            Some((member, emptied))
        });
        let Some((member, emptied)) = closed else {
            return Ok(());
        };
        if emptied {
            let close = lanes::emptied();
            let _ = ws.close(Some(close.code), Some(close.reason.as_str()));
            self.senders.forget(ws);
        } else {
            self.write_carrier(ws)?;
        }
        self.left_socket(&network, member)
    }

    /// The shared socket `ws` closed: every lane of it closes.
    pub(crate) fn forget_carrier(&self, ws: &WebSocket) -> Result<()> {
        let network = self.senders.network();
        let members = self.with_sockets(|open| {
            let Some(carrier) = self.senders.carrier(ws) else {
                return Vec::new();
            };
            let Some(shared) = open.carriers.remove(carrier) else {
                return Vec::new();
            };
            shared
                .lanes
                .iter()
                .map(|(_, id)| {
                    open.remove_conn(id);
                    open.table.close(id).and_then(|closed| closed.member)
                })
                .collect::<Vec<_>>()
        });
        self.senders.forget(ws);
        let Some(network) = network else {
            return Ok(());
        };
        let mut result = Ok(());
        for member in members {
            if let Err(err) = self.left_socket(&network, member) {
                result = Err(err);
            }
        }
        result
    }
}
