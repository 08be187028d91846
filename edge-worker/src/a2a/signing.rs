//! Signed agent cards (the I/O around `agentnet_core::bindings::a2a::signature`):
//! every card the network serves is signed by the registry's object, which
//! keeps the deployment's key, and a remote card's signatures are checked
//! against the JWKS each names before its agent is admitted.

use crate::host::outbound::send;
use crate::network::object::NetworkHost;
use agentnet_core::bindings::a2a::signature::{self, CardSignatureError};
use agentnet_core::bindings::{Body, Response};
use agentnet_core::outbound::OutboundError;
use serde_json::Value;
use worker::{Method, Request, RequestInit, Result};

/// `response` (a card the core answered) signed with the deployment's
/// key; a card the registry could not sign is served unsigned (and logged).
pub(crate) async fn signed_card(
    host: &NetworkHost,
    mut response: Response,
    origin: &str,
) -> Response {
    let card = match &response.body {
        Body::Json(card) if response.status == 200 => card.clone(),
        _ => return response,
    };
    match card_signature(host, &signature::sign_request(&card, origin)).await {
        Ok(signed) => response.body = Body::Json(signature::signed(card, signed)),
        Err(err) => worker::console_error!("a card could not be signed: {err}"),
    }
    response
}

async fn card_signature(host: &NetworkHost, asked: &Value) -> Result<Value> {
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_body(Some(asked.to_string().into()));
    let url = format!("https://registry.invalid{}", signature::SIGN_PATH);
    let request = Request::new_with_init(&url, &init)?;
    let mut answer = crate::handover::registry_object(&host.env)
        .await?
        .fetch_with_request(request)
        .await?;
    if answer.status_code() != 200 {
        return Err(worker::Error::RustError(format!(
            "the registry answered {}",
            answer.status_code()
        )));
    }
    answer.json().await
}

/// Checks the signatures of a remote `card` (none: it passes) with the
/// JWKS their `jku`s name, fetched through the outbound policy.
pub(crate) async fn check_card(
    host: &NetworkHost,
    card: &Value,
) -> std::result::Result<(), CardSignatureError> {
    let mut keys = Vec::new();
    for url in signature::key_urls(card)? {
        let got = fetch_jwks(host, &url).await;
        keys.push((url, got));
    }
    signature::verify(card, &keys)
}

async fn fetch_jwks(host: &NetworkHost, url: &str) -> std::result::Result<Value, String> {
    let mut init = RequestInit::new();
    let mut response = send(&host.outbound_policy, url, &mut init)
        .await
        .map_err(|e| e.described())?;
    if response.status_code() != 200 {
        return Err(format!("{url} answered {}", response.status_code()));
    }
    response
        .json::<Value>()
        .await
        .map_err(|_| OutboundError::Unreachable.described())
}
