//! A GET of an outside document bounded in time and size, without following
//! redirects: what the edge fetches on a caller's say-so (an OAuth client's
//! metadata document, a passively registered agent description and its DID
//! document) never makes it wait long, read much, or go where a redirect points.

use futures_util::StreamExt;
use futures_util::future::{Either, select};
use std::time::Duration;
use worker::{Request, RequestInit, RequestRedirect};

/// Why a bounded fetch gave no document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unfetched {
    /// No answer within the time allowed.
    Timeout,
    /// The body is over the size allowed.
    TooLarge,
    /// An answer other than 200 (a redirect included).
    Status(u16),
    /// The request could not be made or read, or the body is not UTF-8.
    Failed(String),
}

/// Fetches `url` as JSON-ish text (`Accept: application/json`): at most
/// `max_bytes`, within `timeout`.
pub(crate) async fn fetch_text(
    url: &str,
    max_bytes: usize,
    timeout: Duration,
) -> Result<String, Unfetched> {
    let failed = |e: worker::Error| Unfetched::Failed(e.to_string());
    let mut init = RequestInit::new();
    // Workers have no `error` redirect mode: a redirect is answered as is, and is no 200.
    init.with_method(worker::Method::Get)
        .with_redirect(RequestRedirect::Manual);
    let request = Request::new_with_init(url, &init).map_err(failed)?;
    request
        .headers()
        .set("Accept", "application/json")
        .map_err(failed)?;
    let fetch = worker::Fetch::Request(request);
    let sent = Box::pin(fetch.send());
    let mut response = match select(sent, Box::pin(worker::Delay::from(timeout))).await {
        Either::Left((response, _)) => response.map_err(failed)?,
        Either::Right(_) => return Err(Unfetched::Timeout),
    };
    if response.status_code() != 200 {
        return Err(Unfetched::Status(response.status_code()));
    }
    let mut chunks = response.stream().map_err(failed)?;
    let mut bytes = Vec::new();
    let reading = async {
        while let Some(chunk) = chunks.next().await {
            bytes.extend_from_slice(&chunk.map_err(failed)?);
            if bytes.len() > max_bytes {
                return Err(Unfetched::TooLarge);
            }
        }
        Ok(())
    };
    match select(Box::pin(reading), Box::pin(worker::Delay::from(timeout))).await {
        Either::Left((read, _)) => read?,
        Either::Right(_) => return Err(Unfetched::Timeout),
    }
    String::from_utf8(bytes).map_err(|_| Unfetched::Failed("it is not UTF-8 text".into()))
}
