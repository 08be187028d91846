//! What a gateway keeps of each socket: the attachment the platform keeps
//! with it across hibernation ([`Held`], read back by [`read`]), a socket
//! announced and not arrived yet ([`Waiting`]), and a shared socket's lanes
//! ([`Carrier`], kept in its attachment as one text: [`kept`], [`restored`]).

use crate::network::socket_state::LaneIds;
use agentnet_core::bindings::transport::lanes::Lane;
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
    /// A shared socket's lanes (`crate::gateway::lanes::kept`); its own
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

/// What the network hears of a shared socket [`kept`] as `lanes` that closed
/// while the gateway slept: each lane closed (so none stays counted as unjoined).
pub(crate) fn closed_asleep(lanes: &str) -> Vec<GatewayEffect> {
    restored(lanes)
        .map(|(_, lanes)| lanes)
        .unwrap_or_default()
        .into_iter()
        .map(|lane| {
            GatewayEffect::ToNetwork(ToNetwork::Closed {
                socket: lane.socket,
            })
        })
        .collect()
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
    fn a_carrier_that_closed_asleep_closes_each_of_its_lanes_for_the_network() {
        let text = kept(4, &[lane(0, 10, Some(("agent:ann", 3))), lane(4, 11, None)]);
        let closed: Vec<GatewayEffect> = closed_asleep(&text);
        assert_eq!(
            closed,
            vec![
                GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 10 }),
                GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 11 }),
            ]
        );
        assert!(closed_asleep("not kept").is_empty());
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
