//! Shared sockets a gateway holds (`?lanes=1` with `?member=`): one
//! WebSocket carrying several members, each in a lane that is a socket of its
//! own to the core's [`Gateway`] (its join deadline, its bad frames, its
//! member), as the network object's lanes are connections of its table
//! (`crate::network::lanes`; docs/wire.md, "Shared sockets").
//!
//! Lane 0's socket id is the one the network announced for the upgrade
//! (the carrier's key); a lane the client opens later gets a new id here and
//! the network hears of it ([`ToNetwork::Opened`]) so it counts as an
//! unjoined socket. A lane may join only as a member placed on this gateway
//! (the network refuses the others, as on any gateway socket); the socket's
//! first frame tells the client which those are ([`lanes::placed_on`]).
//! The carrier's attachment keeps its lanes across hibernation
//! ([`lanes::kept_lanes`], with the epoch that bound each member).
//!
//! [`Gateway`]: agentnet_core::gateway::Gateway

use crate::gateway::held::{Carrier, Held};
use crate::gateway::object::GatewayHost;
use crate::host::now;
use crate::network::gateway_link::Links;
use crate::network::socket_state::LaneIds;
use agentnet_core::bindings::transport::lanes::{
    self, FIRST_LANE, KeptLane, Lane, LaneFrame, MAX_LANES,
};
use agentnet_core::bindings::transport::sockets::{Close, SocketId};
use agentnet_core::gateway::{GatewayEffect, Opening, ToNetwork};
use agentnet_core::replica::{HEARTBEAT_PING, HEARTBEAT_PONG};
use worker::WebSocket;

impl GatewayHost {
    /// The announced shared socket `ws` arrives: lane 0 is `held.socket`,
    /// and the client first hears whom it may carry (gateway `gateway` of `gateways`).
    pub(crate) fn open_carrier(&self, ws: &WebSocket, held: Held, gateways: u32) {
        let base = held.socket;
        let _ = ws.send_with_str(lanes::placed_on(held.gateway, gateways));
        let mut ids = LaneIds::default();
        ids.insert(FIRST_LANE, base);
        self.lanes.borrow_mut().insert(base, (base, FIRST_LANE));
        self.sockets.borrow_mut().insert(base, ws.clone());
        self.carriers.borrow_mut().insert(
            base,
            Carrier {
                ws: ws.clone(),
                lanes: ids,
                top: FIRST_LANE,
                held,
            },
        );
        self.write_carrier(base);
    }

    /// Takes back, after a wake, a shared socket whose attachment is `held`,
    /// opening each of its lanes in `core`.
    pub(crate) fn restore_carrier(
        &self,
        core: &mut agentnet_core::gateway::Gateway,
        ws: WebSocket,
        held: Held,
    ) {
        let Some((top, kept)) = held.lanes.as_deref().and_then(lanes::restored_lanes) else {
            return;
        };
        let base = held.socket;
        let mut ids = LaneIds::default();
        for lane in kept {
            let opening = Opening {
                member: lane.member.zip(lane.epoch),
                since: lane.since,
                ..held.opening()
            };
            // What it says of the member is what storage already keeps.
            let _kept = core.opened(lane.id, opening);
            ids.insert(lane.lane, lane.id);
            self.lanes.borrow_mut().insert(lane.id, (base, lane.lane));
            self.sockets.borrow_mut().insert(lane.id, ws.clone());
        }
        self.ids.borrow().remember(&ws, base);
        let carrier = Carrier {
            ws,
            lanes: ids,
            top,
            held,
        };
        self.carriers.borrow_mut().insert(base, carrier);
    }

    /// The carrier whose lane `socket` is, if it is a lane.
    pub(crate) fn lane_of(&self, socket: SocketId) -> Option<(SocketId, Lane)> {
        self.lanes.borrow().get(&socket).copied()
    }

    /// Writes the attachment of carrier `base` as its lanes are now in the
    /// core; `false` (and nothing written) when its lanes' members would not
    /// fit what the platform keeps with a socket (`lanes::MAX_KEPT_BYTES`).
    pub(crate) fn write_carrier(&self, base: SocketId) -> bool {
        let Some((ws, ids, top, held)) = self.carriers.borrow().get(&base).map(|carrier| {
            let ids: Vec<(Lane, SocketId)> = carrier.lanes.iter().collect();
            (carrier.ws.clone(), ids, carrier.top, carrier.held.clone())
        }) else {
            return true;
        };
        let lanes: Vec<KeptLane> = self.with_core(|core| {
            ids.iter()
                .copied()
                .filter_map(|(lane, id)| {
                    let opening = core.opening(id)?;
                    let (member, epoch) = opening.member.clone().unzip();
                    Some(KeptLane {
                        lane,
                        id,
                        since: opening.since,
                        member,
                        epoch,
                    })
                })
                .collect()
        });
        let kept = lanes::kept_lanes(top, lanes.iter());
        if !lanes::fits_kept(&kept) {
            return false;
        }
        let held = Held {
            lanes: Some(kept),
            member: None,
            ..held
        };
        if let Err(err) = ws.serialize_attachment(&held) {
            worker::console_error!("keeping a shared socket's lanes failed: {err}");
        }
        true
    }

    /// Lane `socket`'s member, just bound, would not fit what its carrier
    /// keeps: the lane is refused as a 17th is (the client opens another
    /// socket), and the core hears it closed.
    pub(crate) fn refuse_overfull_lane(&self, socket: SocketId) {
        let effects = self.with_core(|core| core.closed(socket));
        self.drop_lane(socket, Some(&lanes::full()));
        self.apply(effects);
    }

    /// A frame of the carrier `base`: a lane's frame goes to the core as its
    /// socket's (the lane opened by its first frame), a lane's close closes it,
    /// anything else closes the whole socket. Returns the core's effects.
    pub(crate) fn carrier_frame(&self, base: SocketId, text: &str) -> Vec<GatewayEffect> {
        let Some(ws) = self.carriers.borrow().get(&base).map(|c| c.ws.clone()) else {
            return Vec::new();
        };
        if text == HEARTBEAT_PING {
            let _ = ws.send_with_str(HEARTBEAT_PONG);
            return Vec::new();
        }
        match lanes::parse(text) {
            Err(refused) => self.end_carrier(base, Some(refused.close())),
            Ok(LaneFrame::Close { lane, .. }) => {
                let socket = self
                    .carriers
                    .borrow()
                    .get(&base)
                    .and_then(|c| c.lanes.get(lane));
                let Some(socket) = socket else {
                    return Vec::new();
                };
                let effects = self.with_core(|core| core.closed(socket));
                self.drop_lane(socket, None);
                effects
            }
            Ok(LaneFrame::Frame { lane, text }) => match self.open_lane(base, &ws, lane) {
                Some((socket, opened)) => {
                    // A lane opened now is news to the network before its frame,
                    // and after what the message's earlier lines did (a join, a close).
                    let mut effects: Vec<GatewayEffect> =
                        opened.map(GatewayEffect::ToNetwork).into_iter().collect();
                    effects
                        .extend(self.with_core(|core| core.on_socket_frame(socket, text, now())));
                    effects
                }
                None => Vec::new(),
            },
        }
    }

    /// The socket of lane `lane` of carrier `base`, opening it when it is
    /// new and there is room (a lane refused is told so), with what the
    /// network is to hear of a lane opened now; `None` for a lane that
    /// closed before.
    fn open_lane(
        &self,
        base: SocketId,
        ws: &WebSocket,
        lane: Lane,
    ) -> Option<(SocketId, Option<ToNetwork>)> {
        let mut carriers = self.carriers.borrow_mut();
        let carrier = carriers.get_mut(&base)?;
        if let Some(socket) = carrier.lanes.get(lane) {
            return Some((socket, None));
        }
        // Lanes open in increasing order: a lower one is one that closed.
        if lane <= carrier.top {
            return None;
        }
        carrier.top = lane;
        if carrier.lanes.len() >= MAX_LANES {
            let _ = ws.send_with_str(lanes::close_frame(lane, &lanes::full()));
            drop(carriers);
            self.write_carrier(base);
            return None;
        }
        let socket = Links::new_socket_id();
        carrier.lanes.insert(lane, socket);
        let opening = Opening {
            member: None,
            since: now(),
            ..carrier.held.opening()
        };
        let peer = carrier.held.peer.clone();
        drop(carriers);
        self.lanes.borrow_mut().insert(socket, (base, lane));
        self.sockets.borrow_mut().insert(socket, ws.clone());
        let effects = self.with_core(|core| core.opened(socket, opening));
        self.apply(effects);
        self.write_carrier(base);
        // Its time to join is the alarm's to watch.
        if let Some(me) = self.me.upgrade() {
            worker::wasm_bindgen_futures::spawn_local(async move {
                if let Err(err) = me.schedule_alarm().await {
                    worker::console_error!("setting the gateway's alarm failed: {err}");
                }
            });
        }
        Some((socket, Some(ToNetwork::Opened { socket, peer })))
    }

    /// Lane `socket` is over (the core already knows): the client is told
    /// with `close` unless it closed the lane itself; the carrier closes
    /// with its last lane.
    pub(crate) fn drop_lane(&self, socket: SocketId, close: Option<&Close>) {
        let Some((base, lane)) = self.lanes.borrow_mut().remove(&socket) else {
            return;
        };
        self.sockets.borrow_mut().remove(&socket);
        let mut carriers = self.carriers.borrow_mut();
        let Some(carrier) = carriers.get_mut(&base) else {
            return;
        };
        if let Some(close) = close {
            let _ = carrier.ws.send_with_str(lanes::close_frame(lane, close));
        }
        carrier.lanes.remove(lane);
        if !carrier.lanes.is_empty() {
            drop(carriers);
            self.write_carrier(base);
            return;
        }
        if let Some(carrier) = carriers.remove(&base) {
            let emptied = lanes::emptied();
            // Forgotten first, so its close is no news.
            let _ = carrier.ws.serialize_attachment(Held::default());
            let _ = carrier
                .ws
                .close(Some(emptied.code), Some(emptied.reason.as_str()));
            self.ids.borrow().forget(&carrier.ws);
        }
    }

    /// The carrier `base` is over (the client closed it, or with `close` for
    /// a frame that names no lane): every lane closes. Returns the core's effects.
    pub(crate) fn end_carrier(&self, base: SocketId, close: Option<Close>) -> Vec<GatewayEffect> {
        let Some(carrier) = self.carriers.borrow_mut().remove(&base) else {
            return Vec::new();
        };
        let mut effects = Vec::new();
        for (_, socket) in carrier.lanes.iter() {
            self.lanes.borrow_mut().remove(&socket);
            self.sockets.borrow_mut().remove(&socket);
            effects.extend(self.with_core(|core| core.closed(socket)));
        }
        self.ids.borrow().forget(&carrier.ws);
        if let Some(close) = close {
            let _ = carrier.ws.serialize_attachment(Held::default());
            let _ = carrier
                .ws
                .close(Some(close.code), Some(close.reason.as_str()));
        }
        effects
    }
}
