//! One gateway's state machine: the sockets it holds, which member each is
//! bound to and which take batched frames; deliveries written per socket;
//! acks to `core` coalesced into cursors for the network (`super::cursors`).

use super::cursors::PendingCursors;
use super::messages::{Delivery, ToGateway, ToNetwork};
use crate::bindings::transport::sockets::{Close, SocketId, join_timeout, left};
use crate::event::batch;
use crate::event::{Event, Limits};
use crate::ids::address::Address;
use crate::ids::event_type::core_types;
use crate::ids::time::Timestamp;
use crate::model::requests::field::read;
use crate::model::requests::history::Acknowledge;
use std::collections::{BTreeMap, BTreeSet};

mod dropped;
mod policing;

pub use policing::MAX_UNBOUND_EVENTS;

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
    /// The gateway now holds a socket of `member` (`present`), or none any
    /// more: for its host to keep, so that after the platform resets it
    /// ([`Gateway::reconcile`]) the members it held are announced gone.
    Placed {
        /// The member.
        member: Address,
        /// It holds at least one socket of the member.
        present: bool,
    },
}

/// What the gateway knows of a socket as it opens (or, after a wake, as its
/// host kept it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Opening {
    /// The member and the network instance that bound it, when joined at its upgrade.
    pub member: Option<(Address, u64)>,
    /// It takes batched frames.
    pub batches: bool,
    /// The client's IP, when known.
    pub peer: Option<String>,
    /// How long it has to join while unbound.
    pub join_within_ms: u64,
    /// When it opened or was last unbound.
    pub since: Timestamp,
}

#[derive(Debug, Clone)]
struct Held {
    opening: Opening,
    /// Events it sent while unbound.
    unbound_events: u32,
}

impl Held {
    fn join_by(&self) -> Timestamp {
        self.opening.since.plus_millis(self.opening.join_within_ms)
    }
}

/// One gateway.
#[derive(Debug, Clone, Default)]
pub struct Gateway {
    sockets: BTreeMap<SocketId, Held>,
    by_member: BTreeMap<Address, BTreeSet<SocketId>>,
    /// Unbound sockets by `(join_by, socket)`: the first is the next to time out.
    unbound: BTreeSet<(Timestamp, SocketId)>,
    /// Acks taken from the sockets, not yet sent.
    acked: PendingCursors,
    /// Each socket's allowance of frames that are no event.
    bad_frames: policing::BadFrames,
}

impl Gateway {
    /// A gateway that holds nothing; its first message says so ([`ToNetwork::Restarted`]).
    pub fn start() -> (Self, ToNetwork) {
        (Self::default(), ToNetwork::Restarted)
    }

    /// A socket opened as `opening` says (bound when it joined at its
    /// upgrade; else it must join by `since + join_within_ms`).
    pub fn opened(&mut self, socket: SocketId, opening: Opening) -> Vec<GatewayEffect> {
        let held = Held {
            opening,
            unbound_events: 0,
        };
        let placed = match &held.opening.member {
            Some((member, _)) => self.bind_member(member.clone(), socket),
            None => {
                self.unbound.insert((held.join_by(), socket));
                None
            }
        };
        self.sockets.insert(socket, held);
        placed.into_iter().collect()
    }

    /// Adds `socket` to `member`'s sockets; [`GatewayEffect::Placed`] when it is the first.
    fn bind_member(&mut self, member: Address, socket: SocketId) -> Option<GatewayEffect> {
        let sockets = self.by_member.entry(member.clone()).or_default();
        sockets.insert(socket);
        (sockets.len() == 1).then_some(GatewayEffect::Placed {
            member,
            present: true,
        })
    }

    /// After the platform reset the gateway (its sockets gone with no close
    /// seen), given the members its host kept ([`GatewayEffect::Placed`]):
    /// those it holds no socket of are gone, for the network as for the host.
    pub fn reconcile(&self, kept: impl IntoIterator<Item = Address>) -> Vec<GatewayEffect> {
        kept.into_iter()
            .filter(|member| !self.by_member.contains_key(member))
            .flat_map(|member| {
                [
                    GatewayEffect::ToNetwork(ToNetwork::Offline {
                        member: member.clone(),
                        socket: 0,
                    }),
                    GatewayEffect::Placed {
                        member,
                        present: false,
                    },
                ]
            })
            .collect()
    }

    /// What the gateway knows of `socket` (for its host to keep with it).
    pub fn opening(&self, socket: SocketId) -> Option<&Opening> {
        self.sockets.get(&socket).map(|held| &held.opening)
    }

    /// Closes the unbound sockets whose time to join ran out at `now`.
    pub fn overdue(&mut self, now: Timestamp) -> Vec<GatewayEffect> {
        let late: Vec<(Timestamp, SocketId)> = self
            .unbound
            .iter()
            .take_while(|(join_by, _)| *join_by <= now)
            .copied()
            .collect();
        late.into_iter()
            .filter_map(|(_, socket)| {
                let close = join_timeout(self.sockets.get(&socket)?.opening.join_within_ms);
                Some(self.end(socket, close))
            })
            .flatten()
            .collect()
    }

    /// When the next unbound socket runs out of time to join, if any.
    pub fn next_deadline(&self) -> Option<Timestamp> {
        self.unbound.first().map(|(join_by, _)| *join_by)
    }

    /// True when it holds `socket` (opened, or announced by [`ToGateway::Open`]).
    pub fn holds(&self, socket: SocketId) -> bool {
        self.sockets.contains_key(&socket)
    }

    /// How many sockets it holds.
    pub fn socket_count(&self) -> usize {
        self.sockets.len()
    }

    /// A frame from a socket at `now`: acks to `core` from its member are
    /// held for [`Self::cursors_to_send`]; the other events go to the network
    /// in order.
    pub fn on_socket_frame(
        &mut self,
        socket: SocketId,
        frame: &str,
        now: Timestamp,
    ) -> Vec<GatewayEffect> {
        let Some(held) = self.sockets.get(&socket) else {
            return Vec::new();
        };
        let member = held.opening.member.clone();
        let peer = held.opening.peer.clone();
        let mut frames = Vec::new();
        for text in batch::split(frame) {
            if let Some(bound) = &member
                && let Some(seq) = ack_of(text, &bound.0)
            {
                self.acked.take(bound, seq, now);
                continue;
            }
            frames.push(text.to_owned());
        }
        if let Some(held) = self.sockets.get_mut(&socket) {
            let unbound = held
                .opening
                .member
                .is_none()
                .then_some(&mut held.unbound_events);
            if let Some(close) = self.bad_frames.verdict(socket, &frames, unbound, now) {
                return self.end(socket, close);
            }
        }
        if frames.is_empty() {
            return Vec::new();
        }
        vec![GatewayEffect::ToNetwork(ToNetwork::Frames {
            socket,
            member,
            frames,
            peer,
        })]
    }

    /// The cursors to send the network at `now`, one per member: every ack
    /// held when a request goes to the network anyway (`riding`: they go
    /// first in it), else only once the oldest has waited
    /// [`CURSOR_DELAY_MS`](super::CURSOR_DELAY_MS) — the acks of one
    /// broadcast's audience then cost the network one request, not one each.
    pub fn cursors_to_send(&mut self, now: Timestamp, riding: bool) -> Option<ToNetwork> {
        self.acked.take_to_send(now, riding)
    }

    /// When the acks held are due to go on their own ([`Self::cursors_to_send`]), if any are.
    pub fn cursors_due(&self) -> Option<Timestamp> {
        self.acked.due()
    }

    /// A socket closed: the network hears it ([`ToNetwork::Closed`]), and,
    /// when it was its member's last here, that the member is offline.
    pub fn closed(&mut self, socket: SocketId) -> Vec<GatewayEffect> {
        let Some(held) = self.sockets.remove(&socket) else {
            return Vec::new();
        };
        self.unbound.remove(&(held.join_by(), socket));
        self.bad_frames.forget(socket);
        // Said of a joined socket too: its member may have left in a frame the
        // network handled before this close, and counted it as unjoined again.
        let mut effects = vec![GatewayEffect::ToNetwork(ToNetwork::Closed { socket })];
        if let Some((member, _)) = held.opening.member
            && let Some(member) = self.unbind_member(&member, socket)
        {
            effects.push(GatewayEffect::ToNetwork(ToNetwork::Offline {
                member: member.clone(),
                socket,
            }));
            effects.push(GatewayEffect::Placed {
                member,
                present: false,
            });
        }
        effects
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

    /// A message from the network object, at `now`.
    pub fn on_network(&mut self, message: ToGateway, now: Timestamp) -> Vec<GatewayEffect> {
        match message {
            ToGateway::Deliveries { deliveries } => self.deliver(&deliveries),
            ToGateway::Open {
                socket,
                member,
                batches,
                peer,
                join_within_ms,
                // Its host reads the lanes; each lane is a socket here.
                lanes: _,
            } => {
                let opening = Opening {
                    member,
                    batches,
                    peer,
                    join_within_ms,
                    since: now,
                };
                self.opened(socket, opening)
            }
            ToGateway::Reply { socket, frame } => self.write(vec![(socket, frame)]),
            ToGateway::Bind {
                socket,
                member,
                epoch,
            } => self.rebind(socket, Some((member, epoch)), now),
            ToGateway::Unbind { socket } => self.rebind(socket, None, now),
            ToGateway::CloseMember { member } => {
                let Some(sockets) = self.by_member.remove(&member) else {
                    return Vec::new();
                };
                let closes = sockets.into_iter().filter_map(|socket| {
                    self.sockets.remove(&socket)?;
                    Some(GatewayEffect::Close {
                        socket,
                        close: left(&member),
                    })
                });
                let mut out: Vec<GatewayEffect> = closes.collect();
                out.push(GatewayEffect::Placed {
                    member,
                    present: false,
                });
                out
            }
            ToGateway::Refuse {
                socket,
                code,
                reason,
            } => self.end(socket, Close { code, reason }),
            ToGateway::Restarted => self.restarted(),
        }
    }

    /// `socket` is now bound to `member` (or, with `None`, unbound: its time
    /// to join starts again at `now`).
    fn rebind(
        &mut self,
        socket: SocketId,
        member: Option<(Address, u64)>,
        now: Timestamp,
    ) -> Vec<GatewayEffect> {
        let Some(held) = self.sockets.get_mut(&socket) else {
            // Closed before the join's answer came: the network took it as
            // joined, so its member is offline unless it has a socket here
            // (the network knows a stale one by [`super::Bound`]).
            return match member {
                Some((member, _)) if !self.by_member.contains_key(&member) => {
                    vec![GatewayEffect::ToNetwork(ToNetwork::Offline {
                        member,
                        socket,
                    })]
                }
                _ => Vec::new(),
            };
        };
        let was_unbound = held.opening.member.is_none();
        let join_by = held.join_by();
        let old = std::mem::replace(&mut held.opening.member, member.clone());
        if member.is_none() {
            held.opening.since = now;
            held.unbound_events = 0;
        }
        let join_by_now = held.join_by();
        if was_unbound {
            self.unbound.remove(&(join_by, socket));
        }
        let mut out = Vec::new();
        if let Some((old, _)) = old
            && member.as_ref().is_none_or(|(new, _)| new != &old)
            && let Some(gone) = self.unbind_member(&old, socket)
        {
            out.push(GatewayEffect::Placed {
                member: gone,
                present: false,
            });
        }
        match member {
            Some((member, _)) => out.extend(self.bind_member(member, socket)),
            None => {
                self.unbound.insert((join_by_now, socket));
            }
        }
        out
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
                batch::frames(&frames, held.opening.batches)
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
    is_ack
        .then(|| read::<Acknowledge>(&event.payload).seq.given())
        .flatten()
}
