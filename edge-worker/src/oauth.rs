//! Requests to a network's OAuth authorization server: the I/O around the
//! core's binding (`agentnet_core::bindings::oauth`). The one I/O of its
//! own is fetching a client ID metadata document the core asks for
//! (`oauth::cimd`): a GET without redirects, bounded in time and size.

use crate::host::respond;
use crate::http::RequestIo;
use crate::network_object::NetworkHost;
use agentnet_core::bindings;
use agentnet_core::bindings::http::no_such_network;
use agentnet_core::bindings::oauth::cimd::{self, Fetch, MAX_DOCUMENT};
use agentnet_core::bindings::oauth::routes::{self, Target};
use futures_util::StreamExt;
use futures_util::future::{Either, select};
use std::time::Duration;
use worker::{Request, RequestInit, RequestRedirect, Response, Result};

/// How long a client's metadata document may take to arrive.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// Fetches a client ID metadata document: its text, or why not.
async fn fetch_document(url: &str) -> std::result::Result<String, String> {
    let mut init = RequestInit::new();
    // Workers have no `error` redirect mode: a redirect is answered as is, and is no 200.
    init.with_method(worker::Method::Get)
        .with_redirect(RequestRedirect::Manual);
    let request = Request::new_with_init(url, &init).map_err(|e| e.to_string())?;
    request
        .headers()
        .set("Accept", "application/json")
        .map_err(|e| e.to_string())?;
    let fetch = worker::Fetch::Request(request);
    let sent = Box::pin(fetch.send());
    let mut response = match select(sent, Box::pin(worker::Delay::from(FETCH_TIMEOUT))).await {
        Either::Left((response, _)) => response.map_err(|e| e.to_string())?,
        Either::Right(_) => return Err("it did not answer within 5 s".into()),
    };
    if response.status_code() != 200 {
        return Err(format!("it answered {}", response.status_code()));
    }
    let mut chunks = response.stream().map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    while let Some(chunk) = chunks.next().await {
        bytes.extend_from_slice(&chunk.map_err(|e| e.to_string())?);
        if bytes.len() > MAX_DOCUMENT {
            return Err("it is over 5 KiB".into());
        }
    }
    String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".into())
}

impl NetworkHost {
    /// Answers a request to the network's authorization server.
    pub(crate) async fn serve_oauth(
        &self,
        request: &bindings::Request,
        target: &Target,
    ) -> Result<Response> {
        if !self.ensure_loaded(target.network())? {
            return respond(no_such_network(target.network()));
        }
        // A client named by its metadata document's URL: the document first.
        match cimd::to_fetch(&mut RequestIo::new(self)?, request, target)? {
            Fetch::Nothing => {}
            Fetch::Refuse(response) => return respond(response),
            Fetch::Document(url) => {
                let outcome = fetch_document(&cimd::fetch_url(&url, self.test_hooks)).await;
                let io = &mut RequestIo::new(self)?;
                if let Some(refused) = cimd::fetched(io, target, &url, outcome)? {
                    return respond(refused);
                }
            }
        }
        respond(self.with_network(|io, network| routes::handle(io, network, request, target))?)
    }
}
