//! Which gateway sockets each member is bound to, as the network object
//! routed the bindings and heard the sockets close: a gateway's
//! [`ToNetwork::Offline`] for one socket of a member still bound through
//! another is stale (the member reconnected before it arrived) and changes
//! nothing.
//!
//! A gateway says a member is offline when its last socket there closes,
//! and when the network binds a socket the gateway no longer holds (it
//! closed before the join's answer came): without that second case the
//! member would stay online with no socket anywhere. Either can cross the
//! member's next join on a new socket; this is how the network tells.

use super::messages::{GatewayId, ToGateway, ToNetwork};
use crate::bindings::transport::sockets::SocketId;
use crate::ids::address::Address;
use std::collections::{BTreeMap, BTreeSet};

/// The open gateway sockets each member is bound to, by the network's account.
#[derive(Debug, Default, Clone)]
pub struct Bound {
    sockets: BTreeMap<Address, BTreeSet<SocketId>>,
    members: BTreeMap<SocketId, (Address, GatewayId)>,
}

impl Bound {
    /// Notes a message the network sends `gateway`: a socket bound (or
    /// handed over bound) to a member, or unbound.
    pub fn sent(&mut self, gateway: GatewayId, message: &ToGateway) {
        if let Some((socket, member)) = message.binds() {
            self.unbind(socket);
            self.sockets
                .entry(member.clone())
                .or_default()
                .insert(socket);
            self.members.insert(socket, (member.clone(), gateway));
        } else if let ToGateway::Unbind { socket } | ToGateway::Refuse { socket, .. } = message {
            self.unbind(*socket);
        }
    }

    /// Takes `gateway`'s message before the network handles it: `false`
    /// for an `Offline` that is stale (its member is bound through another
    /// socket still open), which the network is not to handle.
    pub fn heard(&mut self, gateway: GatewayId, message: &ToNetwork) -> bool {
        match message {
            // Its sockets are gone, with no close for each.
            ToNetwork::Restarted => {
                let gone: Vec<SocketId> = self
                    .members
                    .iter()
                    .filter(|(_, (_, at))| *at == gateway)
                    .map(|(socket, _)| *socket)
                    .collect();
                for socket in gone {
                    self.unbind(socket);
                }
                true
            }
            ToNetwork::Closed { socket } => {
                self.unbind(*socket);
                true
            }
            ToNetwork::Offline { member, socket } => {
                let elsewhere = self
                    .sockets
                    .get(member)
                    .is_some_and(|open| open.iter().any(|s| s != socket));
                // Socket 0: the gateway lost its sockets; none of them is open.
                if elsewhere && *socket != 0 {
                    return false;
                }
                self.forget(member);
                true
            }
            _ => true,
        }
    }

    fn forget(&mut self, member: &Address) {
        if let Some(sockets) = self.sockets.remove(member) {
            for socket in sockets {
                self.members.remove(&socket);
            }
        }
    }

    fn unbind(&mut self, socket: SocketId) {
        let Some((member, _)) = self.members.remove(&socket) else {
            return;
        };
        if let Some(open) = self.sockets.get_mut(&member) {
            open.remove(&socket);
            if open.is_empty() {
                self.sockets.remove(&member);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(name: &str) -> Address {
        name.parse().unwrap()
    }

    fn bind(socket: SocketId, who: &str) -> ToGateway {
        ToGateway::Bind {
            socket,
            member: member(who),
            epoch: 1,
        }
    }

    fn offline(who: &str, socket: SocketId) -> ToNetwork {
        ToNetwork::Offline {
            member: member(who),
            socket,
        }
    }

    #[test]
    fn an_offline_for_a_socket_that_closed_before_its_bind_is_stale_once_the_member_rebound() {
        let mut bound = Bound::default();
        // Socket 1 joined and closed at the gateway before its bind arrived;
        // the member joined again on socket 2.
        bound.sent(0, &bind(1, "agent:a"));
        assert!(bound.heard(0, &ToNetwork::Closed { socket: 1 }));
        bound.sent(0, &bind(2, "agent:a"));
        // The gateway answers the bind of socket 1 it no longer holds.
        assert!(
            !bound.heard(0, &offline("agent:a", 1)),
            "bound through socket 2"
        );
        // Socket 2's own close is news.
        assert!(bound.heard(0, &ToNetwork::Closed { socket: 2 }));
        assert!(bound.heard(0, &offline("agent:a", 2)));
    }

    #[test]
    fn a_member_whose_only_socket_closed_before_its_bind_goes_offline() {
        let mut bound = Bound::default();
        bound.sent(0, &bind(1, "agent:a"));
        assert!(bound.heard(0, &ToNetwork::Closed { socket: 1 }));
        assert!(bound.heard(0, &offline("agent:a", 1)));
    }

    #[test]
    fn the_last_of_two_sockets_closing_takes_the_member_offline_in_either_order() {
        let mut bound = Bound::default();
        bound.sent(0, &bind(1, "agent:a"));
        bound.sent(0, &bind(2, "agent:a"));
        assert!(bound.heard(0, &ToNetwork::Closed { socket: 2 }));
        assert!(bound.heard(0, &ToNetwork::Closed { socket: 1 }));
        assert!(bound.heard(0, &offline("agent:a", 1)));
        // A gateway that lost its sockets (socket 0) is never stale.
        bound.sent(0, &bind(3, "agent:b"));
        bound.sent(0, &bind(4, "agent:b"));
        assert!(bound.heard(0, &offline("agent:b", 0)));
        // A socket bound to another member, or unbound, no longer counts for the first.
        bound.sent(0, &bind(5, "agent:c"));
        bound.sent(0, &bind(6, "agent:c"));
        bound.sent(0, &ToGateway::Unbind { socket: 6 });
        assert!(bound.heard(0, &offline("agent:c", 5)));
        bound.sent(0, &bind(7, "agent:d"));
        bound.sent(0, &bind(8, "agent:d"));
        bound.sent(0, &bind(8, "agent:e"));
        assert!(bound.heard(0, &offline("agent:d", 7)));
        // A gateway that restarted holds none of its sockets.
        bound.sent(1, &bind(9, "agent:f"));
        bound.sent(0, &bind(10, "agent:g"));
        bound.sent(0, &bind(11, "agent:g"));
        assert!(bound.heard(0, &ToNetwork::Restarted));
        bound.sent(0, &bind(12, "agent:g"));
        assert!(bound.heard(0, &offline("agent:g", 12)));
        assert!(
            !bound.heard(1, &offline("agent:f", 13)),
            "gateway 1 did not restart"
        );
    }
}
