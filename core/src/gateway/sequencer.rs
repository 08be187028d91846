//! The network object's side of the gateways: the network's effects for
//! one input become messages to the gateways that hold their sockets, and a
//! gateway's messages become the network's inputs.

use super::messages::{Delivery, DeliveryFrame, GatewayId, ToGateway, ToNetwork};
use super::placement::Placement;
use crate::bindings::transport::sockets::SocketId;
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::core_types;
use crate::ids::time::Timestamp;
use crate::network::{Effect, FrameTemplate, Inbound, Network};
use std::collections::BTreeMap;

/// One input the network handled, and the socket it came from (to route its replies).
#[derive(Debug)]
pub struct Input {
    /// The gateway and socket of the frame, `None` for cursors and presence.
    pub origin: Option<(GatewayId, SocketId)>,
    /// The network's effects, for the host to apply and then [`Sequencer::route`].
    pub effects: Vec<Effect>,
}

/// Routes between one network and its gateways.
#[derive(Debug, Clone, Copy)]
pub struct Sequencer {
    placement: Placement,
    epoch: u64,
}

impl Sequencer {
    /// Gateways as `placement` lays them out, for the network object's
    /// instance `epoch` (a value no earlier instance had: a random number, a
    /// count of starts). Sockets bound by another instance are not taken as
    /// joined: their gateway closes them once it hears of the restart.
    pub fn new(placement: Placement, epoch: u64) -> Self {
        Self { placement, epoch }
    }

    /// This instance's epoch.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The layout.
    pub fn placement(&self) -> Placement {
        self.placement
    }

    /// Hands a gateway's message to the network; returns its inputs in order.
    pub fn on_gateway(
        &self,
        network: &mut Network,
        gateway: GatewayId,
        message: ToNetwork,
        now: Timestamp,
    ) -> Vec<Input> {
        self.on_gateway_beside(network, gateway, message, now, &|_| false)
    }

    /// [`Self::on_gateway`] for a network object that also holds sockets of
    /// its own (clients that connected without saying whom they join as):
    /// a member for whom `held_here` is true stays online when its gateway
    /// says it is gone.
    pub fn on_gateway_beside(
        &self,
        network: &mut Network,
        gateway: GatewayId,
        message: ToNetwork,
        now: Timestamp,
        held_here: &dyn Fn(&Address) -> bool,
    ) -> Vec<Input> {
        match message {
            // Bound by an earlier instance: its gateway closes it once it hears of the restart.
            ToNetwork::Frames {
                member: Some((_, epoch)),
                ..
            } if epoch != self.epoch => Vec::new(),
            ToNetwork::Frames {
                socket,
                member,
                frames,
                peer,
            } => {
                let mut member = member.map(|(member, _)| member);
                frames
                    .iter()
                    .map(|frame| {
                        let inbound = Inbound {
                            session: member.as_ref(),
                            connection: Some(socket),
                            peer: peer.as_deref(),
                            didwba: None,
                        };
                        let effects = match self.decode_join(network, frame) {
                            // Its deliveries would never reach this socket.
                            Some(join) if self.placement.of(&join.source) != gateway => {
                                let address = join.source.clone();
                                vec![network.refused_by_host(
                                    member.as_ref().unwrap_or(&address),
                                    Some(join.id),
                                    &Rejection::new(
                                        ErrorCode::InvalidRequest,
                                        format!(
                                            "this socket is held for other members: \
                                             connect with ?member={address} to join as {address}"
                                        ),
                                    ),
                                    now,
                                )]
                            }
                            Some(join) => network.handle_event_on(&inbound, join, now),
                            None => network.handle_frame_on(&inbound, frame, now),
                        };
                        // A join binds the socket for the frames after it.
                        for effect in &effects {
                            match effect {
                                Effect::Bind(address) => member = Some(address.clone()),
                                Effect::Unbind => member = None,
                                _ => {}
                            }
                        }
                        Input {
                            origin: Some((gateway, socket)),
                            effects,
                        }
                    })
                    .collect()
            }
            ToNetwork::Cursors { cursors } => vec![Input {
                origin: None,
                effects: cursors
                    .iter()
                    .filter(|(_, _, epoch)| *epoch == self.epoch)
                    .flat_map(|(member, seq, _)| network.acknowledge(member, *seq, now))
                    .collect(),
            }],
            // The host's table counts the gateways' unjoined sockets; the network has no part in it.
            ToNetwork::Closed { .. } | ToNetwork::Opened { .. } => Vec::new(),
            ToNetwork::Offline { member, .. } if held_here(&member) => Vec::new(),
            ToNetwork::Offline { member, .. } => vec![Input {
                origin: None,
                effects: network.disconnect(&member, now),
            }],
            ToNetwork::Restarted => {
                let placed: Vec<Address> = network
                    .state()
                    .members
                    .values()
                    .filter(|m| {
                        m.is_online()
                            && self.placement.of(&m.address) == gateway
                            && !held_here(&m.address)
                    })
                    .map(|m| m.address.clone())
                    .collect();
                vec![Input {
                    origin: None,
                    effects: placed
                        .iter()
                        .flat_map(|member| network.disconnect(member, now))
                        .collect(),
                }]
            }
        }
    }

    /// The join `frame` holds, decoded (only a frame that names the join's
    /// type is decoded here; any other goes to the network as text).
    fn decode_join(&self, network: &Network, frame: &str) -> Option<Event> {
        if !frame.contains(core_types::AGENT_JOIN) {
            return None;
        }
        Event::decode(frame, &network.config().limits)
            .ok()
            .filter(|event| event.event_type.as_str() == core_types::AGENT_JOIN)
    }

    /// The messages to gateways for the effects a host applied for one input
    /// from `origin`, in order per gateway; each delivery's frame is written
    /// once and sent once to each gateway with recipients.
    pub fn route(
        &self,
        origin: Option<(GatewayId, SocketId)>,
        effects: &[Effect],
    ) -> Vec<(GatewayId, ToGateway)> {
        let mut out: BTreeMap<GatewayId, Vec<ToGateway>> = BTreeMap::new();
        let mut to_origin = |message: ToGateway| {
            if let Some((gateway, _)) = origin {
                out.entry(gateway).or_default().push(message);
            }
        };
        let socket = origin.map(|(_, socket)| socket).unwrap_or_default();
        let mut deliveries: Vec<(GatewayId, Delivery)> = Vec::new();
        let mut other: Vec<(GatewayId, ToGateway)> = Vec::new();
        for effect in effects {
            match effect {
                Effect::Reply(_) | Effect::Ack(_) => {
                    if let Some(frame) = effect.reply_text() {
                        to_origin(ToGateway::Reply { socket, frame });
                    }
                }
                Effect::Bind(member) => to_origin(ToGateway::Bind {
                    socket,
                    member: member.clone(),
                    epoch: self.epoch,
                }),
                Effect::Unbind => to_origin(ToGateway::Unbind { socket }),
                Effect::EndCredentials(member) => other.push((
                    self.placement.of(member),
                    ToGateway::CloseMember {
                        member: member.clone(),
                    },
                )),
                Effect::Deliver { .. } => deliveries.extend(self.split(effect)),
                _ => {}
            }
        }
        for (gateway, delivery) in deliveries {
            let queue = out.entry(gateway).or_default();
            match queue.last_mut() {
                Some(ToGateway::Deliveries { deliveries }) => deliveries.push(delivery),
                _ => queue.push(ToGateway::Deliveries {
                    deliveries: vec![delivery],
                }),
            }
        }
        for (gateway, message) in other {
            out.entry(gateway).or_default().push(message);
        }
        out.into_iter()
            .flat_map(|(gateway, messages)| messages.into_iter().map(move |m| (gateway, m)))
            .collect()
    }

    /// A delivery's recipients by gateway, the frame written once.
    fn split(&self, effect: &Effect) -> Vec<(GatewayId, Delivery)> {
        let Effect::Deliver { to, event, order } = effect else {
            return Vec::new();
        };
        let prevs: Vec<u64> = match order {
            Some(order) => order.prev.clone(),
            None => vec![0; to.len()],
        };
        let template = order
            .as_ref()
            .map(|order| (order.seq, FrameTemplate::new(event, order.seq)));
        let mut by_gateway: BTreeMap<GatewayId, Vec<(Address, u64)>> = BTreeMap::new();
        for (member, prev) in to.iter().zip(prevs) {
            by_gateway
                .entry(self.placement.of(member))
                .or_default()
                .push((member.clone(), prev));
        }
        let same = match &template {
            None => Some(DeliveryFrame::Same(event.encode())),
            Some((_, Some(template))) => Some(DeliveryFrame::Template(template.clone())),
            Some((_, None)) => None,
        };
        by_gateway
            .into_iter()
            .map(|(gateway, to)| {
                let frame = match (&same, &template) {
                    (Some(frame), _) => frame.clone(),
                    (None, Some((seq, _))) => DeliveryFrame::Each(
                        to.iter()
                            .map(|(_, prev)| event.encode_delivered(*seq, *prev))
                            .collect(),
                    ),
                    (None, None) => DeliveryFrame::Same(event.encode()),
                };
                (gateway, Delivery { frame, to })
            })
            .collect()
    }
}
