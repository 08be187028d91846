//! The network object's I/O with its gateways: an upgrade handed to the
//! member's gateway, the queued messages sent in order per gateway, the
//! gateways' requests handed to the core (the test hooks that restart
//! either side are `crate::network::test_hooks`). What is said is decided by the core
//! (`agentnet_core::gateway`); the queues are `crate::network::gateway_link`.

use crate::host::now;
use crate::host::origin::Origin;
use crate::network::gateway_link::{
    GATEWAY_HEADER, GATEWAYS_BINDING, LINK_PATH, LinkBody, Links, SOCKET_HEADER, gateway_name,
    post_retrying,
};
use crate::network::object::NetworkHost;
use agentnet_core::bindings::transport::sockets::{Close, SocketId};
use agentnet_core::bindings::transport::ws::Upgrade;
use agentnet_core::gateway::{GatewayId, Sequencer, ToGateway, ToNetwork};
use agentnet_core::network::Effect;
use agentnet_core::{Address, ErrorCode, NetworkId};
use std::rc::Rc;
use worker::{Request, Response, Result, Stub};

impl NetworkHost {
    /// The object of gateway `gateway` of this network.
    pub(crate) fn gateway_stub(&self, gateway: GatewayId) -> Result<Stub> {
        let name = gateway_name(&self.links.network(), gateway);
        self.env
            .durable_object(GATEWAYS_BINDING)?
            .id_from_name(&name)?
            .get_stub()
    }

    /// After a commit: the gateways' messages go out (dropped when the rows were not written).
    pub(crate) fn send_to_gateways(&self, written: bool) {
        let Some(host) = self.me.upgrade() else {
            return;
        };
        for gateway in self.links.commit(written) {
            worker::wasm_bindgen_futures::spawn_local(pump(Rc::clone(&host), gateway));
        }
    }

    /// A socket that joined at its upgrade goes to its member's gateway, one
    /// that will join by frame to the gateway of the member it named
    /// (`?member=`; a shared socket, by its lane 0): the gateway hears of it first ([`ToGateway::Open`]),
    /// then of its catch-up; once it has them, the Worker is told where to
    /// take the upgrade.
    pub(crate) async fn hand_to_gateway(
        &self,
        sequencer: Sequencer,
        upgrade: Upgrade,
    ) -> Result<Response> {
        let Some(placed) = upgrade.address.as_ref().or(upgrade.placement.as_ref()) else {
            return Err(worker::Error::RustError(
                "a socket with no member to place it by".into(),
            ));
        };
        let gateway = sequencer.placement().of(placed);
        let socket = Links::new_socket_id();
        let unjoined = upgrade.address.is_none();
        if unjoined {
            // It counts against the limits on unjoined sockets as one held here would.
            self.count_on_gateway(socket, upgrade.peer.clone());
        }
        self.links.announce(
            gateway,
            ToGateway::Open {
                socket,
                member: upgrade
                    .address
                    .clone()
                    .map(|member| (member, sequencer.epoch())),
                batches: upgrade.batches,
                peer: upgrade.peer.clone(),
                join_within_ms: self.policy.join_deadline_ms,
                lanes: upgrade.lanes.then_some(sequencer.placement().gateways()),
            },
        );
        self.apply(
            &Origin::Gateway(Some((gateway, socket))),
            upgrade.after_accept,
        )?;
        if !self.links.delivered(gateway).await.unwrap_or(false) {
            if unjoined {
                self.uncount_on_gateway(socket);
            }
            let close = Close::new(
                ErrorCode::NetworkUnavailable,
                "the gateway did not answer: reconnect",
            );
            return self.refuse_socket(&close);
        }
        let mut response = Response::empty()?;
        let headers = response.headers_mut();
        headers.set(
            GATEWAY_HEADER,
            &gateway_name(&self.links.network(), gateway),
        )?;
        headers.set(SOCKET_HEADER, &socket.to_string())?;
        Ok(response)
    }

    /// A request from a gateway: its messages, in order, handed to the core.
    pub(crate) async fn gateway_request(&self, mut req: Request) -> Result<Response> {
        if self
            .gateways_refused_until
            .get()
            .is_some_and(|until| crate::host::now() < until)
        {
            return Response::error("refused for a while (test hook)", 503);
        }
        let body: LinkBody<ToNetwork> = req.json().await?;
        self.gateway_requests_in.add(1);
        let Ok(id) = body.network.parse::<NetworkId>() else {
            return Response::error("no such network", 404);
        };
        if !self.ensure_loaded(&id)? {
            return Response::error("no such network", 404);
        }
        let mut result = Ok(());
        for message in body.messages {
            let Some(sequencer) = self.links.sequencer() else {
                return Response::error("this network has no gateways", 409);
            };
            if let ToNetwork::Frames { socket, frames, .. } = &message {
                if self.links.refused.borrow().contains(socket) {
                    // Sent before the gateway heard it was refused.
                    continue;
                }
                for text in frames {
                    if let Err(err) = self.resolve_identity(text).await {
                        worker::console_error!("resolving an identity failed: {err}");
                    }
                }
            }
            if let ToNetwork::Offline { member, .. } = &message
                && self.links.is_stale_offline(member, body.gateway, body.seen)
            {
                // It reconnected before its old socket's close arrived.
                continue;
            }
            if !self.links.bound.borrow_mut().heard(body.gateway, &message) {
                // An `Offline` for one socket of a member bound through another.
                continue;
            }
            self.forget_gone(sequencer, body.gateway, &message);
            let peer = match &message {
                ToNetwork::Closed { socket } => {
                    self.links.refused.borrow_mut().remove(socket);
                    self.uncount_on_gateway(*socket);
                    continue;
                }
                // A lane opened on a shared socket the gateway holds.
                ToNetwork::Opened { socket, peer } => {
                    self.opened_on_gateway(body.gateway, *socket, peer.clone());
                    continue;
                }
                ToNetwork::Frames { peer, .. } => peer.clone(),
                _ => None,
            };
            let mut guard = self.network.borrow_mut();
            let Some(network) = guard.as_mut() else {
                break;
            };
            // Members the object holds on its own sockets stay online.
            let held_here = |member: &Address| self.is_connected_here(member);
            let inputs =
                sequencer.on_gateway_beside(network, body.gateway, message, now(), &held_here);
            for input in inputs {
                if let Some((_, socket)) = input.origin {
                    self.count_joins(socket, &peer, &input.effects);
                }
                let origin = Origin::Gateway(input.origin);
                if let Err(err) = self.gather_with(network, &origin, input.effects) {
                    worker::console_error!("a gateway's input failed: {err}");
                    result = Err(err);
                }
            }
        }
        let committed = self.commit();
        let closed = self.finish_closes();
        self.schedule_alarm().await?;
        result.and(committed).and(closed)?;
        Ok(Response::empty()?.with_status(204))
    }

    /// A gateway's socket that joined counts as unjoined no more; one whose member left counts again.
    fn count_joins(&self, socket: SocketId, peer: &Option<String>, effects: &[Effect]) {
        for effect in effects {
            match effect {
                Effect::Bind(_) => self.uncount_on_gateway(socket),
                Effect::Unbind => self.count_on_gateway(socket, peer.clone()),
                _ => {}
            }
        }
    }

    /// Members a gateway no longer holds are no longer counted as connected through it.
    fn forget_gone(&self, sequencer: Sequencer, gateway: GatewayId, message: &ToNetwork) {
        match message {
            ToNetwork::Offline { member, .. } => self.links.forget(std::slice::from_ref(member)),
            ToNetwork::Restarted => {
                let placed: Vec<Address> = self
                    .links
                    .members()
                    .into_iter()
                    .filter(|m| sequencer.placement().of(m) == gateway)
                    .collect();
                self.links.forget(&placed);
            }
            _ => {}
        }
    }

    /// This object acts as a new instance towards its gateways: a new epoch,
    /// its gateways' members offline, and every gateway told first.
    pub(crate) fn restart_sequencer(&self) -> Result<()> {
        let gone = self.links.restart(&self.store()?.sql)?;
        let now = now();
        let effects = match self.network.borrow_mut().as_mut() {
            Some(network) => gone
                .iter()
                .flat_map(|member| network.disconnect(member, now))
                .collect(),
            None => Vec::new(),
        };
        self.apply(&Origin::Nowhere, effects)
    }
}

/// Sends `gateway` its queued messages, one request at a time, until none is
/// left. A failed request is sent again for about 12 s (the gateway skips what
/// it took of it before); only then are its messages counted lost, and the
/// gateways start over with a new epoch.
async fn pump(host: Rc<NetworkHost>, gateway: GatewayId) {
    // One turn of the event loop first, so the commits on their way join this request.
    worker::Delay::from(std::time::Duration::ZERO).await;
    while let Some((body, upto)) = host.links.next_batch(gateway) {
        let sent = match serde_json::to_string(&body) {
            Ok(text) => {
                let to = format!("gateway {gateway}");
                post_retrying(|| host.gateway_stub(gateway), LINK_PATH, &text, &to).await
            }
            Err(err) => Err(err.into()),
        };
        host.links.sent(gateway, upto, sent.is_ok());
        if let Err(err) = sent {
            // Its messages may be lost: the gateways start over with a new epoch.
            worker::console_error!("a request to gateway {gateway} failed: {err}");
            if let Err(err) = host.restart_sequencer() {
                worker::console_error!("restarting towards the gateways failed: {err}");
            }
        }
    }
}
