//! Ending sockets: one closed with a reason ([`Gateway::end`], for the join
//! deadline, too many bad frames, a socket the network refuses, and the
//! case below), all of them when the network object restarted
//! ([`Gateway::restarted`]), and what a gateway does when its host gives up
//! on a request to the network object
//! ([`Gateway::request_dropped`]): the sockets whose events that request
//! carried are ended with `network_unavailable`, so their clients connect
//! again and resend what the network never acknowledged, rather than wait
//! for answers that will not come.

use super::{Gateway, GatewayEffect};
use crate::ErrorCode;
use crate::bindings::transport::sockets::{Close, SocketId};
use crate::gateway::messages::ToNetwork;
use std::collections::BTreeSet;

impl Gateway {
    /// Ends `socket` with `close`: the network hears of it as of any close
    /// ([`Gateway::closed`]), and the host closes it.
    pub(super) fn end(&mut self, socket: SocketId, close: Close) -> Vec<GatewayEffect> {
        let mut effects = self.closed(socket);
        effects.push(GatewayEffect::Close { socket, close });
        effects
    }

    /// The network object restarted ([`ToGateway::Restarted`]): every socket
    /// is closed (its client reconnects and resumes) and every member is gone.
    pub(super) fn restarted(&mut self) -> Vec<GatewayEffect> {
        let gone = std::mem::take(&mut self.by_member);
        let mut out: Vec<GatewayEffect> = gone
            .into_keys()
            .map(|member| GatewayEffect::Placed {
                member,
                present: false,
            })
            .collect();
        self.unbound.clear();
        self.acked.clear();
        let close = Close::new(
            ErrorCode::NetworkUnavailable,
            "the network restarted: reconnect",
        );
        out.extend(std::mem::take(&mut self.sockets).into_keys().map(|socket| {
            GatewayEffect::Close {
                socket,
                close: close.clone(),
            }
        }));
        out
    }

    /// The host gave up on a request carrying `messages`: each socket whose
    /// events were in it, and that the gateway still holds, is ended.
    pub fn request_dropped(&mut self, messages: &[ToNetwork]) -> Vec<GatewayEffect> {
        let sockets: BTreeSet<SocketId> = messages
            .iter()
            .filter_map(|message| match message {
                ToNetwork::Frames { socket, .. } => Some(*socket),
                _ => None,
            })
            .filter(|socket| self.holds(*socket))
            .collect();
        let close = Close::new(
            ErrorCode::NetworkUnavailable,
            "the network did not answer; connect again",
        );
        sockets
            .into_iter()
            .flat_map(|socket| self.end(socket, close.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gateway::{Opening, ToGateway};
    use crate::ids::time::Timestamp;

    #[test]
    fn a_dropped_request_ends_the_sockets_whose_events_it_carried() {
        let mut gateway = Gateway::default();
        gateway.opened(1, Opening::default());
        gateway.opened(2, Opening::default());
        let frames = |socket| ToNetwork::Frames {
            socket,
            member: None,
            frames: vec!["{}".into()],
            peer: None,
        };
        let effects = gateway.request_dropped(&[
            frames(1),
            frames(1),
            ToNetwork::Closed { socket: 2 },
            frames(9),
        ]);
        let closed: Vec<_> = effects
            .iter()
            .filter_map(|e| match e {
                GatewayEffect::Close { socket, close } => Some((*socket, close.code)),
                _ => None,
            })
            .collect();
        assert_eq!(
            closed,
            vec![(1, 4503)],
            "once, and only a held socket with events"
        );
        assert!(effects.contains(&GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 1 })));
        assert!(!gateway.holds(1) && gateway.holds(2));
        assert!(
            gateway.request_dropped(&[frames(1)]).is_empty(),
            "ended once"
        );
    }

    #[test]
    fn a_socket_the_network_refuses_is_closed_with_its_close_and_sends_no_more() {
        let mut gateway = Gateway::default();
        gateway.opened(1, Opening::default());
        gateway.opened(2, Opening::default());
        let refuse = |socket| ToGateway::Refuse {
            socket,
            code: 4429,
            reason: "rate_limited: too many connections have not joined yet".into(),
        };
        let effects = gateway.on_network(refuse(1), Timestamp::from_millis(5));
        assert_eq!(
            effects,
            vec![
                GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 1 }),
                GatewayEffect::Close {
                    socket: 1,
                    close: Close {
                        code: 4429,
                        reason: "rate_limited: too many connections have not joined yet".into(),
                    },
                },
            ]
        );
        assert!(
            !gateway.holds(1) && gateway.holds(2),
            "the other socket stays"
        );
        let later = gateway.on_socket_frame(1, "{}", Timestamp::from_millis(6));
        assert!(
            !later
                .iter()
                .any(|e| matches!(e, GatewayEffect::ToNetwork(_))),
            "the network hears nothing more of it: {later:?}"
        );
    }
}
