//! A GET of an outside document bounded in time and size, through the
//! outbound policy ([`crate::outbound::send`]: checked URL, no redirects):
//! what the edge fetches on a caller's say-so (an OAuth client's metadata
//! document, a passively registered agent description and its DID document)
//! never makes it wait long, read much, or go where it may not.

use crate::outbound::send;
use agentnet_core::outbound::{OutboundError, OutboundPolicy};
use futures_util::StreamExt;
use futures_util::future::{Either, select};
use std::time::Duration;
use worker::RequestInit;

/// Why a bounded fetch gave no document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unfetched {
    /// The policy refused the URL, the answer was a redirect, or no answer
    /// came (refused, reset, timed out: one case, one text).
    Outbound(OutboundError),
    /// The body is over the size allowed.
    TooLarge,
    /// An answer other than 200.
    Status(u16),
    /// The body is not UTF-8 text.
    NotText,
}

/// Fetches `url` as JSON-ish text (`Accept: application/json`): at most
/// `max_bytes`, within `timeout`, if `policy` lets it.
pub async fn fetch_text(
    policy: &OutboundPolicy,
    url: &str,
    max_bytes: usize,
    timeout: Duration,
) -> Result<String, Unfetched> {
    let unreachable = || Unfetched::Outbound(OutboundError::Unreachable);
    let mut init = RequestInit::new();
    let headers = worker::Headers::new();
    headers
        .set("Accept", "application/json")
        .map_err(|_| unreachable())?;
    init.with_method(worker::Method::Get).with_headers(headers);
    let sent = Box::pin(send(policy, url, &mut init));
    let mut response = match select(sent, Box::pin(worker::Delay::from(timeout))).await {
        Either::Left((response, _)) => response.map_err(Unfetched::Outbound)?,
        Either::Right(_) => return Err(unreachable()),
    };
    if response.status_code() != 200 {
        return Err(Unfetched::Status(response.status_code()));
    }
    let mut chunks = response.stream().map_err(|_| unreachable())?;
    let mut bytes = Vec::new();
    let reading = async {
        while let Some(chunk) = chunks.next().await {
            bytes.extend_from_slice(&chunk.map_err(|_| unreachable())?);
            if bytes.len() > max_bytes {
                return Err(Unfetched::TooLarge);
            }
        }
        Ok(())
    };
    match select(Box::pin(reading), Box::pin(worker::Delay::from(timeout))).await {
        Either::Left((read, _)) => read?,
        Either::Right(_) => return Err(unreachable()),
    }
    String::from_utf8(bytes).map_err(|_| Unfetched::NotText)
}
