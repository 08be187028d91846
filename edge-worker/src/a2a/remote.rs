//! Outbound A2A: adding an external A2A agent by its card URL, and the A2A
//! calls that events delivered to such a member become (the I/O around
//! `agentnet_core::bindings::a2a::remote`).
//!
//! Deliveries of `task.*` events are queued as they are applied
//! ([`crate::a2a::live::Outbound::queue`]) and, once the effects are committed, a task of the
//! object makes the calls: each delivery to an external agent is
//! acknowledged for it, posted to its endpoint, and its answer is fed back
//! into the network as that agent's events.

use crate::a2a::live::{Delivery, Outbound};
use crate::host::outbound::send;
use crate::host::respond;
use crate::network::component::Component;
use crate::network::object::NetworkHost;
use agentnet_core::bindings::a2a::remote::{self, Call};
use agentnet_core::bindings::a2a::signature;
use agentnet_core::bindings::refusals::outbound_refusal;
use agentnet_core::bindings::step::Step;
use agentnet_core::bindings::{self, Response as CoreResponse};
use agentnet_core::network::Effect;
use agentnet_core::outbound::OutboundPolicy;
use agentnet_core::{Address, ErrorCode};
use serde_json::Value;
use worker::{Headers, Method, RequestInit, Response, Result};

async fn post(
    policy: &OutboundPolicy,
    url: &str,
    body: &str,
    version: &str,
) -> std::result::Result<Value, String> {
    let headers = Headers::new();
    let set = |name: &str, value: &str| headers.set(name, value).map_err(|e| e.to_string());
    set("Content-Type", "application/json")?;
    set("A2A-Version", version)?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers.clone())
        .with_body(Some(body.into()));
    let mut response = send(policy, url, &mut init)
        .await
        .map_err(|e| e.described())?;
    let text = response
        .text()
        .await
        .map_err(|_| agentnet_core::outbound::OutboundError::Unreachable.described())?;
    serde_json::from_str(&text)
        .map_err(|_| format!("{url} answered {} without JSON", response.status_code()))
}

/// Makes the A2A calls of the deliveries queued so far (after they are committed).
pub(crate) fn start_outbound(host: &NetworkHost) {
    let queued = host.live.outbound.take();
    if queued.is_empty() {
        return;
    }
    let Some(me) = host.me.upgrade() else {
        return;
    };
    worker::wasm_bindgen_futures::spawn_local(async move {
        if let Err(err) = call_remotes(&me, queued).await {
            worker::console_error!("an outbound A2A call failed: {err}");
        }
    });
}

async fn call_remotes(host: &NetworkHost, queued: Vec<Delivery>) -> Result<()> {
    let mut calls: Vec<Call> = Vec::new();
    host.with_network(|io, network| {
        for (to, event, seq) in &queued {
            let remotes: Vec<&Address> = to
                .iter()
                .filter(|m| network.state().remotes.contains_key(m))
                .collect();
            for member in remotes {
                if let Some(seq) = seq {
                    remote::acknowledge(io, network, member, *seq)?;
                }
                calls.extend(remote::call_for(network, member, event));
            }
        }
        Ok(())
    })?;
    for call in calls {
        let answer = post(
            &host.outbound_policy,
            &call.url,
            &call.body.to_string(),
            call.version.as_str(),
        )
        .await;
        host.with_network(|io, network| remote::absorb(io, network, &call, answer))?;
    }
    Ok(())
}

impl Component<NetworkHost> for Outbound {
    fn observe(&self, effect: &Effect, _taken: &mut Vec<Address>) {
        if let Effect::Deliver { to, event, order } = effect {
            self.queue(to, event, order.as_ref().map(|o| o.seq));
        }
    }

    /// Deliveries to external A2A agents become calls.
    fn committed(&self, host: &NetworkHost) {
        start_outbound(host);
    }
}

/// The binding's entry from the object (`crate::network::http`, `object`).
impl Outbound {
    /// Answers `POST /networks/{id}/a2a/remotes` (a master adds an external agent).
    /// The route step (`NetworkHost::route`) has loaded the network.
    pub(crate) async fn add_remote(
        &self,
        host: &NetworkHost,
        request: bindings::Request,
    ) -> Result<Response> {
        let asked = host.with_network(|io, network| remote::add_request(io, network, &request))?;
        let card_url = match asked {
            Step::Go(url) => url,
            Step::Answer(response) => return respond(response),
        };
        let mut init = RequestInit::new();
        let headers = Headers::new();
        headers.set("A2A-Version", "1.0")?;
        init.with_headers(headers);
        let card = match send(&host.outbound_policy, &card_url, &mut init).await {
            Ok(mut response) if response.status_code() == 200 => {
                response.json::<Value>().await.ok()
            }
            Ok(_) => None,
            Err(refused) => return respond(outbound_refusal("card_url", &refused)),
        };
        let Some(card) = card else {
            let message = format!("no agent card could be read at {card_url}");
            return respond(
                CoreResponse::error(ErrorCode::InvalidRequest, message).with_status(502),
            );
        };
        // A signed card is admitted only when a signature verifies.
        if let Err(refused) = crate::a2a::signing::check_card(host, &card).await {
            return respond(signature::refusal(&card_url, &refused));
        }
        let answer =
            host.with_network(|io, network| remote::admit(io, network, &card_url, &card))?;
        respond(answer)
    }
}
