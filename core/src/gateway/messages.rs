//! The messages between a network object and its gateways (serde-encoded
//! JSON between Durable Objects; [`ToGateway`] and [`ToNetwork`] are read
//! back by `super::wire`).

use crate::bindings::transport::sockets::SocketId;
use crate::ids::address::Address;
use crate::network::FrameTemplate;
use serde::{Deserialize, Serialize};

/// A gateway's index among the network's gateways.
pub type GatewayId = u32;

/// The frame of one delivery, written once for all its recipients on a gateway.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryFrame {
    /// The same frame for every recipient (an unsequenced event).
    Same(String),
    /// A logged event's frame, but for each recipient's `prev`.
    Template(FrameTemplate),
    /// One frame per recipient, parallel to [`Delivery::to`].
    Each(Vec<String>),
}

/// One event for its recipients on one gateway.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delivery {
    /// The frame.
    pub frame: DeliveryFrame,
    /// The recipients placed on this gateway, each with its `prev` (0 when unsequenced).
    pub to: Vec<(Address, u64)>,
}

impl Delivery {
    /// The frame for the `i`th recipient, whose `prev` is `prev`.
    pub fn frame_for(&self, i: usize, prev: u64) -> Option<String> {
        match &self.frame {
            DeliveryFrame::Same(frame) => Some(frame.clone()),
            DeliveryFrame::Template(template) => Some(template.with_prev(prev)),
            DeliveryFrame::Each(frames) => frames.get(i).cloned(),
        }
    }
}

/// From the network object to one gateway.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ToGateway {
    /// The deliveries of one input (a commit), in order.
    Deliveries {
        /// The events, each once.
        deliveries: Vec<Delivery>,
    },
    /// A socket is on its way to this gateway: hold it (bound to `member` by
    /// the instance `epoch` when it joined at its upgrade; else it must join
    /// by frame within `join_within_ms`), and write what comes for it until
    /// it arrives (the host keeps those frames for it).
    Open {
        /// The socket's id (unique across the network's gateways).
        socket: SocketId,
        /// The member it is bound to and the network instance that bound it.
        member: Option<(Address, u64)>,
        /// It asked for batched frames.
        batches: bool,
        /// The client's IP, when known (failed joins are throttled by it).
        #[serde(skip_serializing_if = "Option::is_none")]
        peer: Option<String>,
        /// How long an unbound socket has to join ([`crate::bindings::access::policy::Policy::join_deadline_ms`];
        /// read as the default when an older network object leaves it out).
        join_within_ms: u64,
        /// A shared socket (`?lanes=1`): its lanes join by frame, each a socket
        /// of its own to the gateway, and the gateway tells the client which
        /// members it may carry, out of this many gateways (docs/wire.md).
        #[serde(skip_serializing_if = "Option::is_none")]
        lanes: Option<GatewayId>,
    },
    /// The answer to one socket's frame (an ack, an error, a read's answer).
    Reply {
        /// The socket.
        socket: SocketId,
        /// The frame.
        frame: String,
    },
    /// The socket joined as `member`, with the network object's instance that took the join.
    Bind {
        /// The socket.
        socket: SocketId,
        /// The member.
        member: Address,
        /// The network object's instance ([`crate::gateway::Sequencer::epoch`]).
        epoch: u64,
    },
    /// The socket's member left; the socket stays open, unjoined.
    Unbind {
        /// The socket.
        socket: SocketId,
    },
    /// The member left: close its sockets.
    CloseMember {
        /// The member.
        member: Address,
    },
    /// The network refuses a socket the gateway opened (a shared socket's
    /// lane, [`ToNetwork::Opened`], over the network's limits of sockets
    /// not joined yet): close it with this code and reason; its frames are
    /// no longer taken.
    Refuse {
        /// The socket.
        socket: SocketId,
        /// The WebSocket close code ([`crate::bindings::transport::sockets::Close`]).
        code: u16,
        /// Why, starting with the error code.
        reason: String,
    },
    /// The network object restarted: its view of the sockets is gone.
    Restarted,
}

impl ToGateway {
    /// The socket this message binds to a member and the member (a `Bind`,
    /// or an `Open` of a socket that joined at its upgrade).
    pub fn binds(&self) -> Option<(SocketId, &Address)> {
        match self {
            ToGateway::Bind { socket, member, .. }
            | ToGateway::Open {
                socket,
                member: Some((member, _)),
                ..
            } => Some((*socket, member)),
            _ => None,
        }
    }
}

/// From a gateway to the network object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ToNetwork {
    /// Events from one socket, in order (its acks to `core` taken out).
    Frames {
        /// The socket (ids unique across the network's gateways).
        socket: SocketId,
        /// The member it is bound to, once joined, and the instance that bound it.
        member: Option<(Address, u64)>,
        /// The events' texts.
        frames: Vec<String>,
        /// The client's IP, when known.
        #[serde(skip_serializing_if = "Option::is_none")]
        peer: Option<String>,
    },
    /// A lane opened on a shared socket the gateway holds: a socket not
    /// joined yet, counted as the network object counts its own.
    Opened {
        /// The lane's socket id (ids unique across the network's gateways).
        socket: SocketId,
        /// The client's IP, when known.
        #[serde(skip_serializing_if = "Option::is_none")]
        peer: Option<String>,
    },
    /// The highest `seq` each member acknowledged since the last of these.
    Cursors {
        /// `(member, seq, epoch of its binding)`, one per member.
        cursors: Vec<(Address, u64, u64)>,
    },
    /// The member's last socket on this gateway closed. A host that had
    /// already sent the gateway the member's next socket
    /// ([`ToGateway::Open`]) when this left it drops it: the member
    /// reconnected before this arrived.
    Offline {
        /// The member.
        member: Address,
        /// The socket that closed.
        socket: SocketId,
    },
    /// A socket closed (by its client, or by the gateway at its join deadline
    /// or for too many events): the network counts it against its limits on
    /// unjoined sockets no more, if it did
    /// ([`crate::bindings::transport::sockets::Sockets::settle_elsewhere`]).
    Closed {
        /// The socket.
        socket: SocketId,
    },
    /// The gateway started afresh: it holds no sockets.
    Restarted,
}
