//! An upgrade handed by the Worker to the gateway its network named, and
//! its arrival there: the socket the network announced is accepted with what
//! was written for it meanwhile; one that does not come in time counts as closed.

use crate::gateway::object::GatewayHost;
use crate::host::frame_texts::FrameTexts;
use crate::host::now;
use crate::network::gateway_link;
use agentnet_core::bindings::transport::lanes::FIRST_LANE;
use agentnet_core::bindings::transport::sockets::{Close, SocketId};
use agentnet_core::{ErrorCode, Timestamp};
use worker::{Env, Method, Request, RequestInit, Response, Result, WebSocketPair};

/// How long an announced socket may take to arrive before it counts as closed.
const ARRIVAL_MS: u64 = 30_000;

/// Takes an upgrade to the gateway its network named, with the socket id the
/// gateway expects (set here, whatever the client sent).
pub(crate) async fn to_gateway(
    env: &Env,
    gateway: &str,
    url: worker::Url,
    headers: Vec<(String, String)>,
    socket: String,
) -> Result<Response> {
    let forwarded = worker::Headers::new();
    for (name, value) in headers {
        forwarded.set(&name, &value)?;
    }
    forwarded.set(gateway_link::SOCKET_HEADER, &socket)?;
    let mut init = RequestInit::new();
    init.with_method(Method::Get).with_headers(forwarded);
    let request = Request::new_with_init(url.as_str(), &init)?;
    env.durable_object(gateway_link::GATEWAYS_BINDING)?
        .id_from_name(gateway)?
        .get_stub()?
        .fetch_with_request(request)
        .await
}

impl GatewayHost {
    /// An announced socket arrives (the Worker forwards its upgrade).
    pub(crate) fn arrive(&self, socket: Option<SocketId>) -> Result<Response> {
        self.with_core(|_| ());
        self.expire(now());
        let waiting = socket.and_then(|s| self.waiting.borrow_mut().remove(&s));
        let Some(waiting) = waiting.filter(|w| self.with_core(|core| core.holds(w.held.socket)))
        else {
            let close = Close::new(ErrorCode::NetworkUnavailable, "reconnect");
            let pair = WebSocketPair::new()?;
            pair.server.accept()?;
            pair.server
                .close(Some(close.code), Some(close.reason.as_str()))?;
            return Response::from_websocket(pair.client);
        };
        let pair = WebSocketPair::new()?;
        self.state.accept_web_socket(&pair.server);
        let lane = match waiting.shared {
            Some(gateways) => {
                self.open_carrier(&pair.server, waiting.held, gateways);
                Some(FIRST_LANE)
            }
            None => {
                pair.server.serialize_attachment(&waiting.held)?;
                self.sockets
                    .borrow_mut()
                    .insert(waiting.held.socket, pair.server.clone());
                None
            }
        };
        let mut texts = FrameTexts::default();
        for frame in waiting.frames {
            texts.send(&pair.server, lane, frame);
        }
        Response::from_websocket(pair.client)
    }

    /// Announced sockets that never came count as closed.
    pub(crate) fn expire(&self, now: Timestamp) {
        let late: Vec<SocketId> = self
            .waiting
            .borrow()
            .iter()
            .filter(|(_, w)| w.since.plus_millis(ARRIVAL_MS) < now)
            .map(|(socket, _)| *socket)
            .collect();
        for socket in late {
            self.waiting.borrow_mut().remove(&socket);
            let effects = self.with_core(|core| core.closed(socket));
            self.apply(effects);
        }
    }
}
