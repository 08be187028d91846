//! The one door for every fetch the edge makes on someone else's say-so
//! (A2A push notifications, webhooks, client metadata documents, passive
//! registration, did:wba documents and issuers' JWKS, A2A cards and calls):
//! the URL goes through the core's policy ([`OutboundPolicy::check`]) right
//! before the request, the request is made to the URL the policy read, no
//! redirect is followed (a 3xx is [`OutboundError::Redirect`]), and every
//! failure to get an answer is the same [`OutboundError::Unreachable`], so
//! what a caller is told never says whether a port refused, reset or hung.

use agentnet_core::outbound::{
    ALLOW_HOSTS_VAR, DISCOVERY_ALLOW_HOSTS_VAR, OutboundError, OutboundPolicy,
};
use worker::{Env, Fetch, Request, RequestInit, RequestRedirect, Response};

/// The deployment's policy: [`ALLOW_HOSTS_VAR`] and the older
/// [`DISCOVERY_ALLOW_HOSTS_VAR`] (both unset: public hosts only).
pub fn policy_of(env: &Env) -> OutboundPolicy {
    let var = |name| env.var(name).ok().map(|v| v.to_string());
    OutboundPolicy::from_vars(
        var(ALLOW_HOSTS_VAR).as_deref(),
        var(DISCOVERY_ALLOW_HOSTS_VAR).as_deref(),
    )
}

/// Sends `init` to `url` when `policy` lets it through; the answer (never a
/// redirect), or why there is none.
pub async fn send(
    policy: &OutboundPolicy,
    url: &str,
    init: &mut RequestInit,
) -> Result<Response, OutboundError> {
    send_abortable(policy, url, init, None).await
}

/// [`send`], aborted when `signal` fires.
pub async fn send_abortable(
    policy: &OutboundPolicy,
    url: &str,
    init: &mut RequestInit,
    signal: Option<&worker::AbortSignal>,
) -> Result<Response, OutboundError> {
    let checked = policy.check(url)?;
    // Workers have no `error` redirect mode: a redirect is answered as is.
    init.with_redirect(RequestRedirect::Manual);
    let request =
        Request::new_with_init(checked.as_str(), init).map_err(|_| OutboundError::Invalid)?;
    let fetch = Fetch::Request(request);
    let response = match signal {
        Some(signal) => fetch.send_with_signal(signal).await,
        None => fetch.send().await,
    }
    .map_err(|_| OutboundError::Unreachable)?;
    policy.on_redirect(response.status_code())?;
    Ok(response)
}
