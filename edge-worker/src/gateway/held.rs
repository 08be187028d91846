//! What a gateway keeps of each socket: the attachment the platform keeps
//! with it across hibernation ([`Held`], read back by [`read`]), a socket
//! announced and not arrived yet ([`Waiting`]), and a shared socket's lanes
//! ([`Carrier`], kept in its attachment as one text: `lanes::kept_lanes`).

use crate::network::socket_state::LaneIds;
use agentnet_core::bindings::transport::lanes::{self, Lane};
use agentnet_core::bindings::transport::sockets::SocketId;
use agentnet_core::gateway::{GatewayEffect, GatewayId, Opening, ToNetwork};
use agentnet_core::{Address, Timestamp};
use serde::{Deserialize, Serialize};
use worker::WebSocket;

/// What a socket's attachment keeps: what the core knows of it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Held {
    pub(crate) network: String,
    pub(crate) gateway: GatewayId,
    pub(crate) socket: SocketId,
    pub(crate) member: Option<(Address, u64)>,
    pub(crate) batches: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) peer: Option<String>,
    #[serde(default)]
    pub(crate) join_within_ms: u64,
    /// When it opened or was last unbound (its time to join runs from there).
    #[serde(default)]
    pub(crate) since: Timestamp,
    /// A shared socket's lanes (`lanes::kept_lanes`, with their epochs); its own
    /// `member` and `since` are then its lanes'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) lanes: Option<String>,
}

impl Held {
    /// What the core knows of the socket.
    pub(crate) fn opening(&self) -> Opening {
        Opening {
            member: self.member.clone(),
            batches: self.batches,
            peer: self.peer.clone(),
            join_within_ms: self.join_within_ms,
            since: self.since,
        }
    }
}

/// A socket announced and not arrived yet, with what was written for it.
pub(crate) struct Waiting {
    pub(crate) since: Timestamp,
    pub(crate) held: Held,
    pub(crate) frames: Vec<String>,
    /// A shared socket, on a network of this many gateways.
    pub(crate) shared: Option<GatewayId>,
}

/// One shared socket: its lanes' socket ids and what they have in common.
pub(crate) struct Carrier {
    pub(crate) ws: WebSocket,
    pub(crate) lanes: LaneIds,
    /// The highest lane opened so far (a lower one is never opened again).
    pub(crate) top: Lane,
    /// What its lanes share (network, gateway, format, client, time to join);
    /// its `socket` is the carrier's key.
    pub(crate) held: Held,
}

/// A socket's attachment.
pub(crate) fn read(ws: &WebSocket) -> Option<Held> {
    ws.deserialize_attachment::<Held>().ok().flatten()
}

/// What the network hears of a shared socket kept as `lanes`
/// ([`lanes::kept_lanes`]) that closed while the gateway slept: each lane
/// closed (so none stays counted as unjoined).
pub(crate) fn closed_asleep(lanes: &str) -> Vec<GatewayEffect> {
    lanes::restored_lanes(lanes)
        .map(|(_, lanes)| lanes)
        .unwrap_or_default()
        .into_iter()
        .map(|lane| GatewayEffect::ToNetwork(ToNetwork::Closed { socket: lane.id }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_carrier_that_closed_asleep_closes_each_of_its_lanes_for_the_network() {
        let lane = |lane, id, member: Option<&str>| lanes::KeptLane {
            lane,
            id,
            since: Timestamp::from(5),
            member: member.map(|m| m.parse().expect("an address")),
            epoch: member.map(|_| 3),
        };
        let text = lanes::kept_lanes(
            4,
            [lane(0, 10, Some("agent:ann")), lane(4, 11, None)].iter(),
        );
        assert_eq!(
            closed_asleep(&text),
            vec![
                GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 10 }),
                GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 11 }),
            ]
        );
        assert!(closed_asleep("not kept").is_empty());
    }
}
