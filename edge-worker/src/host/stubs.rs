//! The stubs of each network's keeper of shared documents (the documents
//! Worker's), and [`post`] and [`post_ok`], how a body is sent to any object.
//! (The registry Worker's objects' stubs are `crate::handover`'s: they hand
//! rows over first.)

use agentnet_core::ids::network_id::NetworkId;
use worker::{Env, Method, Request, RequestInit, Response, Result, Stub};

/// The Durable Object namespace of the documents' keepers (the documents Worker's).
pub const DOCUMENTS_BINDING: &str = "DOCUMENTS";

/// The keeper of `network`'s shared documents.
pub(crate) fn documents_object(env: &Env, network: &NetworkId) -> Result<Stub> {
    env.durable_object(DOCUMENTS_BINDING)?
        .id_from_name(network.as_str())?
        .get_stub()
}

/// POSTs `body` to `url` at `stub`'s object; its answer, whatever the status.
pub(crate) async fn post(stub: &Stub, url: &str, body: String) -> Result<Response> {
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_body(Some(body.into()));
    stub.fetch_with_request(Request::new_with_init(url, &init)?)
        .await
}

/// POSTs `body` to `url` at `stub`'s object; its answer when 200, otherwise
/// an error naming `what` was asked, the status and the answer's text.
pub(crate) async fn post_ok(stub: &Stub, url: &str, body: String, what: &str) -> Result<Response> {
    let mut response = post(stub, url, body).await?;
    if response.status_code() == 200 {
        return Ok(response);
    }
    let status = response.status_code();
    let text = response.text().await.unwrap_or_default();
    Err(worker::Error::RustError(format!(
        "{what} was answered {status}: {text}"
    )))
}
