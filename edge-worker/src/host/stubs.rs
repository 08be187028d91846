//! The stubs of the objects the Worker and the network objects ask: the
//! deployment-wide registry's and directory's (one instance each), and each
//! network's keeper of shared documents (the documents Worker's); and
//! [`post`], how a body is sent to one.

use agentnet_core::bindings::directory::DIRECTORY;
use agentnet_core::ids::network_id::NetworkId;
use worker::{Env, Method, Request, RequestInit, Response, Result, Stub};

/// The Durable Object namespace of the directory.
pub const DIRECTORY_BINDING: &str = "DIRECTORY";
/// The name of the registry's one object.
pub const REGISTRY: &str = "registry";

/// The Durable Object namespace of the identity registry.
pub const REGISTRY_BINDING: &str = "REGISTRY";

/// The registry's object (one for now; `docs/identity.md` plans its shards).
pub(crate) fn registry_object(env: &Env) -> Result<Stub> {
    env.durable_object(REGISTRY_BINDING)?
        .id_from_name(REGISTRY)?
        .get_stub()
}

/// The directory of public networks' object.
pub(crate) fn directory_object(env: &Env) -> Result<Stub> {
    env.durable_object(DIRECTORY_BINDING)?
        .id_from_name(DIRECTORY)?
        .get_stub()
}

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
