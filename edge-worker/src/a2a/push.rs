//! Sending A2A push notifications from the object's alarm: what the core's
//! queue says is due is rendered by the binding
//! (`agentnet_core::bindings::a2a::push::render`), POSTed, and its outcome
//! goes back to the queue with the notification as taken (done, or retried
//! after a backoff by a later alarm), so the core tells which send ended: a
//! change queued meanwhile is kept and sent next. The requests go one after
//! another; one whose hold ended before its turn is not sent (a later alarm
//! took it again, maybe with a newer version).
//! The URL goes through the outbound policy again as it is sent
//! (`crate::host::outbound`): no redirects, no host that is not public.

use crate::a2a::live::Outbound;
use crate::host::now;
use crate::host::origin::Origin;
use crate::host::outbound::send;
use crate::network::object::NetworkHost;
use agentnet_core::bindings::a2a::push::{Outgoing, render};
use agentnet_core::model::push::PendingPush;
use agentnet_core::outbound::OutboundPolicy;
use worker::{Headers, Method, RequestInit, Result};

async fn deliver(policy: &OutboundPolicy, outgoing: &Outgoing) -> bool {
    let headers = Headers::new();
    for (name, value) in &outgoing.headers {
        if headers.set(name, value).is_err() {
            return false;
        }
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(outgoing.body.clone().into()));
    matches!(send(policy, &outgoing.url, &mut init).await, Ok(r) if (200..300).contains(&r.status_code()))
}

/// The binding's entry from the object (`crate::network::http`, `object`).
impl Outbound {
    /// Starts sending the notifications due now (called from the alarm).
    pub(crate) fn send_due_pushes(&self, host: &NetworkHost) -> Result<()> {
        let at = now();
        let (due, effects) = match host.network.borrow_mut().as_mut() {
            Some(network) => network.take_due_pushes(at),
            None => return Ok(()),
        };
        if due.is_empty() {
            return Ok(());
        }
        host.apply(&Origin::Nowhere, effects)?;
        let requests: Vec<(PendingPush, Option<Outgoing>)> = {
            let guard = host.network.borrow();
            let Some(network) = guard.as_ref() else {
                return Ok(());
            };
            due.into_iter()
                .map(|p| {
                    let outgoing = render(network, &p, at);
                    (p, outgoing)
                })
                .collect()
        };
        let Some(me) = host.me.upgrade() else {
            return Ok(());
        };
        worker::wasm_bindgen_futures::spawn_local(async move {
            for (taken, outgoing) in requests {
                let held = match me.network.borrow().as_ref() {
                    Some(network) => network.push_held(&taken, now()),
                    None => false,
                };
                if !held {
                    continue;
                }
                let sent = match &outgoing {
                    Some(outgoing) => deliver(&me.outbound_policy, outgoing).await,
                    // Its task or target is gone: nothing will ever be sent.
                    None => true,
                };
                let effects = match me.network.borrow_mut().as_mut() {
                    Some(network) if sent => network.push_done(&taken, now()),
                    Some(network) => network.push_failed(&taken, now()),
                    None => Vec::new(),
                };
                if let Err(err) = me.apply(&Origin::Nowhere, effects) {
                    worker::console_error!("a push notification's outcome was not stored: {err}");
                }
            }
            if let Err(err) = me.schedule_alarm().await {
                worker::console_error!("no alarm for the next push notifications: {err}");
            }
        });
        Ok(())
    }
}
