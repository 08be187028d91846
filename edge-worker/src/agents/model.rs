//! One hosted agent's model call: `fetch` through the outbound policy with
//! the key put in the header the call names (never logged, never in an
//! event), the answer fed back whole or chunk by chunk as it streams.

use crate::host::outbound::send_abortable;
use crate::network::object::NetworkHost;
use agentnet_core::Address;
use agentnet_core::agent::effects::KeySlot;
use agentnet_core::agent::{ModelResponse, RequestId, ResponseBody};
use futures_util::StreamExt;
use worker::{Headers, Method, RequestInit, Result};

/// Text of `bytes` after `carry` (an unfinished UTF-8 sequence), keeping a new unfinished tail.
fn utf8_chunk(carry: &mut Vec<u8>, bytes: &[u8]) -> String {
    carry.extend_from_slice(bytes);
    let valid = match std::str::from_utf8(carry) {
        Ok(_) => carry.len(),
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        Err(_) => carry.len(),
    };
    let rest = carry.split_off(valid);
    let text = String::from_utf8_lossy(carry).into_owned();
    *carry = rest;
    text
}

/// Starts `agent`'s model call `request` in a task of its own.
pub(crate) fn start_model_call(
    host: &NetworkHost,
    agent: Address,
    request: RequestId,
    url: String,
    headers: Vec<(String, String)>,
    key: Option<KeySlot>,
    body: String,
) {
    let Some(me) = host.me.upgrade() else {
        return;
    };
    let controller = worker::AbortController::default();
    let signal = controller.signal();
    host.live
        .hosted
        .calls
        .borrow_mut()
        .insert((agent.clone(), request.0), controller);
    worker::wasm_bindgen_futures::spawn_local(async move {
        let call = model_call(
            &me,
            &agent,
            request,
            &url,
            &headers,
            key.as_ref(),
            body,
            &signal,
        );
        if let Err(err) = call.await {
            worker::console_error!("a hosted agent's model call failed: {err}");
        }
        me.live
            .hosted
            .calls
            .borrow_mut()
            .remove(&(agent, request.0));
    });
}

#[allow(clippy::too_many_arguments)]
async fn model_call(
    host: &NetworkHost,
    agent: &Address,
    request: RequestId,
    url: &str,
    headers: &[(String, String)],
    slot: Option<&KeySlot>,
    body: String,
    signal: &worker::AbortSignal,
) -> Result<()> {
    let sent = Headers::new();
    let key = match slot {
        Some(_) => match host.live.hosted.provider_key(host, agent)? {
            Some(key) => Some(key),
            None => {
                let why = "no provider key: a master sets this agent's key in Admin, or the operator sets the Worker secret AGENTNET_MODEL_KEY";
                return report(
                    host,
                    agent,
                    request,
                    0,
                    None,
                    ResponseBody::Failed(why.into()),
                );
            }
        },
        None => None,
    };
    for (name, value) in headers {
        let value = match (slot, &key) {
            (Some(slot), Some(key)) if name.eq_ignore_ascii_case(&slot.header) => {
                value.replace(&slot.placeholder, key)
            }
            _ => value.clone(),
        };
        sent.set(name, &value)?;
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(sent)
        .with_body(Some(body.into()));
    let mut response =
        match send_abortable(&host.outbound_policy, url, &mut init, Some(signal)).await {
            Ok(response) => response,
            Err(_) if signal.aborted() => return Ok(()),
            Err(refused) => {
                return report(
                    host,
                    agent,
                    request,
                    0,
                    None,
                    ResponseBody::Failed(refused.described()),
                );
            }
        };
    let status = response.status_code();
    let retry = response
        .headers()
        .get("retry-after")?
        .and_then(|v| v.trim().parse::<u64>().ok());
    let streamed = (200..300).contains(&status)
        && response
            .headers()
            .get("content-type")?
            .is_some_and(|t| t.contains("text/event-stream"));
    let report_as = |body| report(host, agent, request, status, retry, body);
    if !streamed {
        let text = response.text().await.unwrap_or_default();
        return report_as(ResponseBody::Whole(text));
    }
    let mut stream = response.stream()?;
    let mut carry = Vec::new();
    while let Some(chunk) = stream.next().await {
        match chunk {
            Ok(bytes) => {
                let text = utf8_chunk(&mut carry, &bytes);
                if !text.is_empty() {
                    report_as(ResponseBody::Chunk(text))?;
                }
            }
            Err(_) if signal.aborted() => return Ok(()),
            Err(_) => {
                let why = "the provider's stream broke off".to_owned();
                return report_as(ResponseBody::Failed(why));
            }
        }
    }
    report(host, agent, request, status, retry, ResponseBody::End)
}

/// Feeds a piece of a model's answer to `agent`'s loop and does what follows.
fn report(
    host: &NetworkHost,
    agent: &Address,
    request: RequestId,
    status: u16,
    retry_after_secs: Option<u64>,
    body: ResponseBody,
) -> Result<()> {
    let response = ModelResponse {
        status,
        retry_after_secs,
        body,
    };
    let io = host.with_network(|io, network| {
        host.live
            .hosted
            .runtime
            .borrow_mut()
            .model_response(io, network, agent, request, response)
    })?;
    host.live.hosted.hosted_io(host, io)?;
    // Its posts and activity may have reached other hosted agents.
    host.live.hosted.start_hosted(host);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::utf8_chunk;

    #[test]
    fn a_character_cut_between_chunks_arrives_whole() {
        let bytes = "héllo".as_bytes();
        let mut carry = Vec::new();
        assert_eq!(utf8_chunk(&mut carry, &bytes[..2]), "h");
        assert_eq!(utf8_chunk(&mut carry, &bytes[2..]), "éllo");
        assert!(carry.is_empty());
    }
}
