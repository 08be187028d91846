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
//! ([`kept`], [`restored`]).
//!
//! [`Gateway`]: agentnet_core::gateway::Gateway

use crate::gateway::held::{Carrier, Held};
use crate::gateway::object::GatewayHost;
use crate::host::now;
use crate::network::gateway_link::Links;
use crate::network::socket_state::LaneIds;
use agentnet_core::bindings::transport::lanes::{self, FIRST_LANE, Lane, LaneFrame, MAX_LANES};
use agentnet_core::bindings::transport::sockets::{Close, SocketId};
use agentnet_core::gateway::{GatewayEffect, Opening, ToNetwork};
use agentnet_core::replica::{HEARTBEAT_PING, HEARTBEAT_PONG};
use agentnet_core::{Address, Timestamp};
use worker::WebSocket;

/// One lane as kept in its carrier's attachment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeptLane {
    pub(crate) lane: Lane,
    pub(crate) socket: SocketId,
    pub(crate) since: Timestamp,
    pub(crate) member: Option<(Address, u64)>,
}

/// A carrier's lanes as one short text: its highest lane, then each open
/// lane as `<lane> <socket> <since ms>[ <epoch> <member>]` (an address has
/// no spaces), separated by `;`.
pub(crate) fn kept(top: Lane, lanes: &[KeptLane]) -> String {
    let mut text = top.to_string();
    for lane in lanes {
        text.push_str(&format!(";{} {} {}", lane.lane, lane.socket, lane.since));
        if let Some((member, epoch)) = &lane.member {
            text.push_str(&format!(" {epoch} {member}"));
        }
    }
    text
}

/// A carrier's lanes [`kept`] as text (`None` when it is not one; a lane
/// that does not read is left out, one whose member does not comes back unjoined).
pub(crate) fn restored(text: &str) -> Option<(Lane, Vec<KeptLane>)> {
    let mut parts = text.split(';');
    let top = parts.next()?.parse().ok()?;
    let lanes = parts
        .filter_map(|part| {
            let mut fields = part.splitn(5, ' ');
            let lane = fields.next()?.parse().ok()?;
            let socket = fields.next()?.parse().ok()?;
            let since = Timestamp::from(fields.next()?.parse::<u64>().ok()?);
            let epoch = fields.next().and_then(|e| e.parse::<u64>().ok());
            let member = fields.next().and_then(|m| m.parse::<Address>().ok());
            Some(KeptLane {
                lane,
                socket,
                since,
                member: member.zip(epoch),
            })
        })
        .collect();
    Some((top, lanes))
}

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
        let Some((top, kept)) = held.lanes.as_deref().and_then(restored) else {
            return;
        };
        let base = held.socket;
        let mut ids = LaneIds::default();
        for lane in kept {
            let opening = Opening {
                member: lane.member,
                since: lane.since,
                ..held.opening()
            };
            // What it says of the member is what storage already keeps.
            let _kept = core.opened(lane.socket, opening);
            ids.insert(lane.lane, lane.socket);
            self.lanes
                .borrow_mut()
                .insert(lane.socket, (base, lane.lane));
            self.sockets.borrow_mut().insert(lane.socket, ws.clone());
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

    /// Writes the attachment of carrier `base` as its lanes are now in the core.
    pub(crate) fn write_carrier(&self, base: SocketId) {
        let carriers = self.carriers.borrow();
        let Some(carrier) = carriers.get(&base) else {
            return;
        };
        let lanes: Vec<KeptLane> = self.with_core(|core| {
            carrier
                .lanes
                .iter()
                .filter_map(|(lane, socket)| {
                    let opening = core.opening(socket)?;
                    Some(KeptLane {
                        lane,
                        socket,
                        since: opening.since,
                        member: opening.member.clone(),
                    })
                })
                .collect()
        });
        let held = Held {
            lanes: Some(kept(carrier.top, &lanes)),
            member: None,
            ..carrier.held.clone()
        };
        if let Err(err) = carrier.ws.serialize_attachment(&held) {
            worker::console_error!("keeping a shared socket's lanes failed: {err}");
        }
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
                Some(socket) => self.with_core(|core| core.on_socket_frame(socket, text, now())),
                None => Vec::new(),
            },
        }
    }

    /// The socket of lane `lane` of carrier `base`, opening it when it is
    /// new and there is room (a lane refused is told so); `None` for a lane
    /// that closed before.
    fn open_lane(&self, base: SocketId, ws: &WebSocket, lane: Lane) -> Option<SocketId> {
        let mut carriers = self.carriers.borrow_mut();
        let carrier = carriers.get_mut(&base)?;
        if let Some(socket) = carrier.lanes.get(lane) {
            return Some(socket);
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
        self.up
            .borrow_mut()
            .push(ToNetwork::Opened { socket, peer });
        self.write_carrier(base);
        // Its time to join is the alarm's to watch.
        if let Some(me) = self.me.upgrade() {
            worker::wasm_bindgen_futures::spawn_local(async move {
                if let Err(err) = me.schedule_alarm().await {
                    worker::console_error!("setting the gateway's alarm failed: {err}");
                }
            });
        }
        Some(socket)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(lane: Lane, socket: SocketId, member: Option<(&str, u64)>) -> KeptLane {
        KeptLane {
            lane,
            socket,
            since: Timestamp::from(1_700_000_000_000),
            member: member.map(|(m, e)| (m.parse().expect("an address"), e)),
        }
    }

    #[test]
    fn a_carriers_lanes_read_back_as_they_were_kept() {
        let lanes = vec![
            lane(0, 9_007_199_254_740_991, Some(("agent:ann", 77))),
            lane(3, 12, None),
            lane(7, 13, Some(("net1::agent:ben", 2))),
        ];
        let text = kept(7, &lanes);
        assert_eq!(restored(&text), Some((7, lanes)));
        assert_eq!(restored("5"), Some((5, Vec::new())));
    }

    #[test]
    fn a_lane_that_does_not_read_is_left_out_and_a_bad_member_comes_back_unjoined() {
        let (top, lanes) =
            restored("4;1 10 5 3 agent:ann;x y z;2 11 6 3 not an address").expect("a carrier");
        assert_eq!(top, 4);
        assert_eq!(lanes.len(), 2);
        assert!(lanes[0].member.is_some());
        assert_eq!(lanes[1].member, None);
        assert_eq!(restored("not a lane"), None);
    }
}
