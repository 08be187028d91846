//! Requests to a network's OAuth authorization server: the I/O around the
//! core's binding (`agentnet_core::bindings::oauth`). The one I/O of its
//! own is fetching a client ID metadata document the core asks for
//! (`oauth::cimd`): a GET without redirects, bounded in time and size.

use crate::host::bounded_fetch::{Unfetched, fetch_text};
use crate::host::respond;
use crate::network::http::RequestIo;
use crate::network::object::NetworkHost;
use agentnet_core::bindings;
use agentnet_core::bindings::http::no_such_network;
use agentnet_core::bindings::oauth::cimd::{self, Fetch, MAX_DOCUMENT};
use agentnet_core::bindings::oauth::routes::{self, Target};
use std::time::Duration;
use worker::{Response, Result};

/// How long a client's metadata document may take to arrive.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// Fetches a client ID metadata document: its text, or why not.
async fn fetch_document(url: &str) -> std::result::Result<String, String> {
    fetch_text(url, MAX_DOCUMENT, FETCH_TIMEOUT)
        .await
        .map_err(|why| match why {
            Unfetched::Timeout => "it did not answer within 5 s".into(),
            Unfetched::TooLarge => "it is over 5 KiB".into(),
            Unfetched::Status(status) => format!("it answered {status}"),
            Unfetched::Failed(error) => error,
        })
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
