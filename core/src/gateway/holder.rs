//! One gateway's state machine: the sockets it holds, which member each is
//! bound to and which take batched frames; deliveries written per socket;
//! acks to `core` coalesced into cursors for the network.

use super::messages::{Delivery, ToGateway, ToNetwork};
use crate::bindings::sockets::{Close, SocketId, left};
use crate::event::batch;
use crate::event::{Event, Limits};
use crate::ids::address::Address;
use crate::ids::event_type::core_types;
use std::collections::{BTreeMap, BTreeSet};

/// What the gateway's host does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GatewayEffect {
    /// Write a frame (one event or a batch) on a socket.
    Send {
        /// The socket.
        socket: SocketId,
        /// The frame.
        frame: String,
    },
    /// Close a socket.
    Close {
        /// The socket.
        socket: SocketId,
        /// Why.
        close: Close,
    },
    /// Send this to the network object.
    ToNetwork(ToNetwork),
}

#[derive(Debug, Clone)]
struct Held {
    /// The member and the network instance that bound it.
    member: Option<(Address, u64)>,
    batches: bool,
}

/// One gateway.
#[derive(Debug, Clone, Default)]
pub struct Gateway {
    sockets: BTreeMap<SocketId, Held>,
    by_member: BTreeMap<Address, BTreeSet<SocketId>>,
    /// Acks taken from the sockets, not yet sent: the highest `seq` per member and epoch.
    acked: BTreeMap<(Address, u64), u64>,
}

impl Gateway {
    /// A gateway that holds nothing; its first message says so ([`ToNetwork::Restarted`]).
    pub fn start() -> (Self, ToNetwork) {
        (Self::default(), ToNetwork::Restarted)
    }

    /// A socket opened, bound to `member` (by the network instance `epoch`)
    /// when it joined at its upgrade; `batches` when it asked for batched frames.
    pub fn opened(&mut self, socket: SocketId, member: Option<(Address, u64)>, batches: bool) {
        if let Some((member, _)) = &member {
            self.by_member
                .entry(member.clone())
                .or_default()
                .insert(socket);
        }
        self.sockets.insert(socket, Held { member, batches });
    }

    /// True when it holds `socket` (opened, or announced by [`ToGateway::Open`]).
    pub fn holds(&self, socket: SocketId) -> bool {
        self.sockets.contains_key(&socket)
    }

    /// How many sockets it holds.
    pub fn socket_count(&self) -> usize {
        self.sockets.len()
    }

    /// A frame from a socket: acks to `core` from its member are kept for
    /// [`Self::flush_cursors`]; the other events go to the network in order.
    pub fn on_socket_frame(&mut self, socket: SocketId, frame: &str) -> Vec<GatewayEffect> {
        let Some(held) = self.sockets.get(&socket) else {
            return Vec::new();
        };
        let member = held.member.clone();
        let mut frames = Vec::new();
        for text in batch::split(frame) {
            if let Some(bound) = &member
                && let Some(seq) = ack_of(text, &bound.0)
            {
                let acked = self.acked.entry(bound.clone()).or_default();
                *acked = (*acked).max(seq);
                continue;
            }
            frames.push(text.to_owned());
        }
        if frames.is_empty() {
            return Vec::new();
        }
        vec![GatewayEffect::ToNetwork(ToNetwork::Frames {
            socket,
            member,
            frames,
        })]
    }

    /// The acks taken since the last call, one cursor per member.
    pub fn flush_cursors(&mut self) -> Option<ToNetwork> {
        if self.acked.is_empty() {
            return None;
        }
        let cursors = std::mem::take(&mut self.acked)
            .into_iter()
            .map(|((member, epoch), seq)| (member, seq, epoch))
            .collect();
        Some(ToNetwork::Cursors { cursors })
    }

    /// A socket closed; when it was its member's last here, the member is offline.
    pub fn closed(&mut self, socket: SocketId) -> Vec<GatewayEffect> {
        let Some(held) = self.sockets.remove(&socket) else {
            return Vec::new();
        };
        let Some((member, _)) = held.member else {
            return Vec::new();
        };
        self.unbind_member(&member, socket)
            .map(|member| GatewayEffect::ToNetwork(ToNetwork::Offline { member, socket }))
            .into_iter()
            .collect()
    }

    /// Removes `socket` from `member`'s sockets; returns the member when none is left.
    fn unbind_member(&mut self, member: &Address, socket: SocketId) -> Option<Address> {
        let sockets = self.by_member.get_mut(member)?;
        sockets.remove(&socket);
        if !sockets.is_empty() {
            return None;
        }
        self.by_member.remove(member);
        Some(member.clone())
    }

    /// A message from the network object.
    pub fn on_network(&mut self, message: ToGateway) -> Vec<GatewayEffect> {
        match message {
            ToGateway::Deliveries { deliveries } => self.deliver(&deliveries),
            ToGateway::Open {
                socket,
                member,
                batches,
            } => {
                self.opened(socket, member, batches);
                Vec::new()
            }
            ToGateway::Reply { socket, frame } => self.write(vec![(socket, frame)]),
            ToGateway::Bind {
                socket,
                member,
                epoch,
            } => {
                let Some(held) = self.sockets.get_mut(&socket) else {
                    return Vec::new();
                };
                let old = held.member.replace((member.clone(), epoch));
                if let Some((old, _)) = old.filter(|(old, _)| old != &member) {
                    self.unbind_member(&old, socket);
                }
                self.by_member.entry(member).or_default().insert(socket);
                Vec::new()
            }
            ToGateway::Unbind { socket } => {
                let old = self.sockets.get_mut(&socket).and_then(|h| h.member.take());
                if let Some((old, _)) = old {
                    self.unbind_member(&old, socket);
                }
                Vec::new()
            }
            ToGateway::CloseMember { member } => {
                let sockets = self.by_member.remove(&member).unwrap_or_default();
                sockets
                    .into_iter()
                    .filter_map(|socket| {
                        self.sockets.remove(&socket)?;
                        Some(GatewayEffect::Close {
                            socket,
                            close: left(&member),
                        })
                    })
                    .collect()
            }
            ToGateway::Restarted => {
                self.by_member.clear();
                self.acked.clear();
                let close = Close::new(
                    crate::ErrorCode::NetworkUnavailable,
                    "the network restarted: reconnect",
                );
                std::mem::take(&mut self.sockets)
                    .into_keys()
                    .map(|socket| GatewayEffect::Close {
                        socket,
                        close: close.clone(),
                    })
                    .collect()
            }
        }
    }

    /// Each recipient's frames on each of its sockets, in order; one write
    /// per socket (a batch when it takes them).
    fn deliver(&self, deliveries: &[Delivery]) -> Vec<GatewayEffect> {
        let mut out = Vec::new();
        for delivery in deliveries {
            for (i, (member, prev)) in delivery.to.iter().enumerate() {
                let Some(sockets) = self.by_member.get(member) else {
                    continue;
                };
                let Some(frame) = delivery.frame_for(i, *prev) else {
                    continue;
                };
                out.extend(sockets.iter().map(|socket| (*socket, frame.clone())));
            }
        }
        self.write(out)
    }

    /// Groups frames by socket (keeping their order) and writes them in the socket's format.
    fn write(&self, frames: Vec<(SocketId, String)>) -> Vec<GatewayEffect> {
        let mut by_socket: BTreeMap<SocketId, Vec<String>> = BTreeMap::new();
        for (socket, frame) in frames {
            by_socket.entry(socket).or_default().push(frame);
        }
        let mut out = Vec::new();
        for (socket, frames) in by_socket {
            let Some(held) = self.sockets.get(&socket) else {
                continue;
            };
            out.extend(
                batch::frames(&frames, held.batches)
                    .into_iter()
                    .map(|frame| GatewayEffect::Send { socket, frame }),
            );
        }
        out
    }
}

/// The `seq` of a cumulative ack to `core` from `member`, if `text` is one.
fn ack_of(text: &str, member: &Address) -> Option<u64> {
    if !text.contains(core_types::EVENT_ACK) {
        return None;
    }
    let event = Event::decode(text, &Limits::default()).ok()?;
    let is_ack = event.event_type.as_str() == core_types::EVENT_ACK
        && event.target == Address::core()
        && &event.source == member;
    is_ack.then(|| event.payload.get("seq")?.as_u64()).flatten()
}
