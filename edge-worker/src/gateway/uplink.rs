//! A gateway's requests to its network object: frames, cursors and
//! presence queued by [`GatewayHost`], sent one request at a time (what piles
//! up meanwhile goes in the next), tried again for about 12 s when one fails
//! (then the sockets whose events it carried are closed, to connect again). The
//! acks its sockets send are held by the core until a request goes anyway or
//! they are due (`Gateway::cursors_to_send`); a timer sends them then.

use crate::gateway::object::GatewayHost;
use crate::host::now;
use crate::network::gateway_link::{LINK_PATH, LinkBody, post_retrying};
use agentnet_core::gateway::ToNetwork;
use std::rc::Rc;
use std::time::Duration;
use worker::Result;

impl GatewayHost {
    /// Starts sending the network what waits for it, unless a request is in
    /// flight (it takes what waits when it ends); when only acks wait, and
    /// they are not due yet, a timer sends them when they are.
    pub(crate) fn send_up(&self) {
        if self.up_busy.get() {
            return;
        }
        let Some(me) = self.me.upgrade() else { return };
        let due = self.with_core(|core| core.cursors_due());
        let waiting = !self.up.borrow().is_empty();
        let now = now();
        match due {
            Some(due) if !waiting && due > now => {
                if !self.cursor_timer.replace(true) {
                    let wait = Duration::from_millis(due.millis_since(now));
                    worker::wasm_bindgen_futures::spawn_local(send_when_due(me, wait));
                }
            }
            None if !waiting => {}
            _ => {
                self.up_busy.set(true);
                worker::wasm_bindgen_futures::spawn_local(pump_up(me));
            }
        }
    }

    /// The next request's messages (the acks held first, when the request
    /// goes anyway or they are due), if any.
    fn next_up(&self) -> Option<LinkBody<ToNetwork>> {
        let (network, gateway) = self.link.borrow().clone()?;
        // Cursors first: they acknowledge what was delivered before, and a
        // member's last acks reach the network before its `Offline`.
        let riding = !self.up.borrow().is_empty();
        let mut messages: Vec<ToNetwork> = self
            .with_core(|core| core.cursors_to_send(now(), riding))
            .into_iter()
            .collect();
        messages.append(&mut self.up.borrow_mut());
        if messages.is_empty() {
            return None;
        }
        Some(LinkBody {
            network,
            gateway,
            messages,
            first: 0,
            instance: 0,
            seen: self.seen.get(),
        })
    }

    fn network_stub(&self, network: &str) -> Result<worker::Stub> {
        self.env
            .durable_object(crate::host::NETWORKS_BINDING)?
            .id_from_name(network)?
            .get_stub()
    }
}

/// Sends the network what the gateway has for it, one request at a time; a
/// failed request is tried again (its frames carry event ids, so a resent
/// event is acknowledged, not applied twice; cursors only go up).
async fn pump_up(host: Rc<GatewayHost>) {
    // One turn of the event loop first, so the frames on their way join this request.
    worker::Delay::from(std::time::Duration::ZERO).await;
    while let Some(body) = host.next_up() {
        let sent = match serde_json::to_string(&body) {
            Ok(text) => {
                let stub = || host.network_stub(&body.network);
                post_retrying(stub, LINK_PATH, &text, "the network").await
            }
            Err(err) => Err(err.into()),
        };
        if let Err(err) = sent {
            worker::console_error!("dropping a request to the network: {err}");
            let ended = host.with_core(|core| core.request_dropped(&body.messages));
            host.apply(ended);
        }
    }
    host.up_busy.set(false);
    // Acks that came while the last request was in flight and are not due yet
    // get their timer. (With no network known there is nothing to send them
    // to: the pump would only start again and find nothing, so it waits for
    // the next frame, as before.)
    if host.link.borrow().is_some() {
        host.send_up();
    }
}

/// Sends the acks held once they are due.
async fn send_when_due(host: Rc<GatewayHost>, wait: Duration) {
    worker::Delay::from(wait).await;
    host.cursor_timer.set(false);
    host.send_up();
}
