//! Requests to a network's OAuth authorization server: the I/O around the
//! core's binding (`agentnet_core::bindings::oauth`). The one I/O of its
//! own is fetching a client ID metadata document the core asks for
//! (`oauth::cimd`): a GET through the outbound policy, without redirects,
//! bounded in time and size.

use crate::host::bounded_fetch::{Unfetched, fetch_text};
use crate::host::respond;
use crate::network::http::RequestIo;
use crate::network::object::NetworkHost;
use agentnet_core::bindings;
use agentnet_core::bindings::oauth::cimd::{self, Fetch, MAX_DOCUMENT};
use agentnet_core::bindings::oauth::routes::{self, Target};
use agentnet_core::outbound::OutboundPolicy;
use std::time::Duration;
use worker::{Response, Result};

/// How long a client's metadata document may take to arrive.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// Fetches a client ID metadata document: its text, or why not (one text
/// for every fetch that got no answer: the page is no port scanner).
async fn fetch_document(policy: &OutboundPolicy, url: &str) -> std::result::Result<String, String> {
    fetch_text(policy, url, MAX_DOCUMENT, FETCH_TIMEOUT)
        .await
        .map_err(|why| match why {
            Unfetched::Outbound(error) => error.described(),
            Unfetched::TooLarge => "it is over 5 KiB".into(),
            Unfetched::Status(status) => format!("it answered {status}"),
            Unfetched::NotText => "it is not UTF-8 text".into(),
        })
}

impl NetworkHost {
    /// Answers a request to the network's authorization server.
    /// The route step (`NetworkHost::route`) has loaded the network.
    pub(crate) async fn serve_oauth(
        &self,
        request: &bindings::Request,
        target: &Target,
    ) -> Result<Response> {
        // A client named by its metadata document's URL: the document first.
        let policy = &self.outbound_policy;
        match cimd::to_fetch(&mut RequestIo::new(self)?, policy, request, target)? {
            Fetch::Nothing => {}
            Fetch::Refuse(response) => return respond(response),
            Fetch::Document(url) => {
                let outcome = fetch_document(policy, &cimd::fetch_url(&url, self.hooks_on())).await;
                let io = &mut RequestIo::new(self)?;
                if let Some(refused) = cimd::fetched(io, target, &url, outcome)? {
                    return respond(refused);
                }
            }
        }
        respond(self.with_network(|io, network| routes::handle(io, network, request, target))?)
    }
}
