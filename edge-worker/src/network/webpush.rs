//! Web Push from the network's object: the members' subscriptions over HTTP
//! (`agentnet_core::bindings::http::webpush` decides; [`webpush_store`] keeps
//! them), and for each committed event the notices the core's rule gives
//! (`agentnet_core::webpush::notices`) sent to every subscription of each
//! person named, whatever connections they have (the service worker shows
//! nothing while a workspace window is focused, and the page's own
//! notification has the same tag, so one replaces the other).
//!
//! The VAPID key is the deployment's `AGENTNET_VAPID_PRIVATE_KEY` secret,
//! else one this network makes once and keeps in its storage. It is never
//! logged or answered: only its public half leaves (`GET v1/push/key`).
//! Requests go through the outbound policy again as they are sent
//! (`crate::host::outbound`); a subscription whose push service answers
//! 404 or 410 is forgotten.

use crate::host::outbound::send;
use crate::host::{now, random_seed, respond};
use crate::network::component::Component;
use crate::network::object::NetworkHost;
use crate::network::webpush_queue::PushQueue;
use crate::network::webpush_store;
use agentnet_core::Address;
use agentnet_core::bindings;
use agentnet_core::bindings::http::webpush::{self, PushRoute};
use agentnet_core::network::Effect;
use agentnet_core::webpush::{Delivery, Fresh, PushRequest, VapidKey, build, delivery_of, notices};
use worker::{Headers, Method, RequestInit, Response, Result};

/// The Worker secret that holds a deployment-wide VAPID private key
/// (base64url of the 32-byte P-256 scalar).
pub const VAPID_SECRET_VAR: &str = "AGENTNET_VAPID_PRIVATE_KEY";
/// The contact push services are given (`mailto:…` or `https://…`).
pub const VAPID_SUBJECT_VAR: &str = "AGENTNET_VAPID_SUBJECT";

async fn deliver(
    policy: &agentnet_core::outbound::OutboundPolicy,
    request: &PushRequest,
) -> Delivery {
    let headers = Headers::new();
    for (name, value) in &request.headers {
        if headers.set(name, value).is_err() {
            return Delivery::Failed;
        }
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(
            worker::js_sys::Uint8Array::from(request.body.as_slice()).into(),
        ));
    match send(policy, &request.url, &mut init).await {
        Ok(response) => delivery_of(response.status_code()),
        Err(_) => Delivery::Failed,
    }
}

impl NetworkHost {
    /// The VAPID key: the deployment's secret, else this network's own
    /// (made from fresh randomness the first time and kept).
    pub(crate) fn vapid_key(&self) -> Result<VapidKey> {
        if let Some(key) = self.live.webpush.key.borrow().as_ref() {
            return Ok(key.clone());
        }
        let key = match self.env.secret(VAPID_SECRET_VAR).map(|s| s.to_string()) {
            Ok(secret) => VapidKey::from_secret_b64url(&secret)
                .map_err(|e| worker::Error::RustError(format!("{VAPID_SECRET_VAR}: {e}")))?,
            Err(_) => {
                let sql = self.state.storage().sql();
                match webpush_store::key(&sql)?.map(|s| VapidKey::from_secret_b64url(&s)) {
                    Some(Ok(key)) => key,
                    _ => {
                        let key = VapidKey::from_seed(&random_seed());
                        webpush_store::save_key(&sql, &key.secret_b64url())?;
                        key
                    }
                }
            }
        };
        *self.live.webpush.key.borrow_mut() = Some(key.clone());
        Ok(key)
    }

    /// Answers `GET v1/push/key` and `POST`/`DELETE v1/push/subscriptions`.
    /// The route step (`NetworkHost::route`) has loaded the network.
    pub(crate) fn serve_push(
        &self,
        request: &bindings::Request,
        route: PushRoute,
    ) -> Result<Response> {
        let policy = self.outbound_policy.clone();
        let answer =
            self.with_network(|io, network| webpush::handle(io, network, request, route, &policy))?;
        respond(answer)
    }

    /// Sends the notices of the events committed since the last call, in a
    /// task of its own (the commit may run while the network is borrowed).
    pub(crate) fn start_webpush(&self) {
        let events = std::mem::take(&mut *self.live.webpush.events.borrow_mut());
        let Some(me) = self.me.upgrade() else {
            return;
        };
        if events.is_empty() {
            return;
        }
        worker::wasm_bindgen_futures::spawn_local(async move {
            let given: Vec<_> = match me.network.try_borrow().as_deref() {
                Ok(Some(network)) => events.iter().flat_map(|e| notices(network, e)).collect(),
                Ok(None) => return,
                Err(_) => {
                    worker::console_error!("push notifications not sent: the network is busy");
                    return;
                }
            };
            if given.is_empty() {
                return;
            }
            if let Err(err) = me.push_notices(given).await {
                worker::console_error!("push notifications not sent: {err}");
            }
        });
    }

    async fn push_notices(&self, given: Vec<agentnet_core::webpush::Notice>) -> Result<()> {
        let sql = self.state.storage().sql();
        let mut requests = Vec::new();
        for notice in &given {
            let subscriptions = webpush_store::of(&sql, &notice.to, &self.outbound_policy)?;
            if subscriptions.is_empty() {
                continue;
            }
            let key = self.vapid_key()?;
            let subject = self.env.var(VAPID_SUBJECT_VAR).ok().map(|v| v.to_string());
            let subject = subject.filter(|s| !s.is_empty()).or_else(|| {
                self.origin
                    .borrow()
                    .clone()
                    .filter(|o| o.starts_with("https://"))
            });
            for subscription in subscriptions {
                let mut bytes = [0u8; 48];
                bytes[..32].copy_from_slice(&random_seed());
                bytes[32..].copy_from_slice(&random_seed()[..16]);
                match build(
                    notice,
                    &subscription,
                    &key,
                    subject.as_deref(),
                    now(),
                    &Fresh::from_bytes(&bytes),
                ) {
                    Ok(request) => requests.push((notice.to.to_string(), request)),
                    Err(err) => worker::console_error!("a push notification not built: {err}"),
                }
            }
        }
        for (member, request) in requests {
            if deliver(&self.outbound_policy, &request).await == Delivery::Gone
                && let Err(err) = webpush_store::remove(&sql, &member, &request.url)
            {
                worker::console_error!("a gone push subscription was not forgotten: {err}");
            }
        }
        Ok(())
    }
}

impl Component<NetworkHost> for PushQueue {
    fn observe(&self, effect: &Effect, _taken: &mut Vec<Address>) {
        if let Effect::Append { event, .. } = effect {
            self.appended(event);
        }
    }

    /// Web Push notices of what was committed.
    fn committed(&self, host: &NetworkHost) {
        host.start_webpush();
    }
}
