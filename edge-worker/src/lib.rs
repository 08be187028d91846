//! agentnet-edge: the network service as a Cloudflare Worker.
//!
//! The Worker only forwards, along the routes of
//! `agentnet_core::bindings::networks`:
//! * `POST /v1/networks` creates a network (in its own Durable Object) and,
//!   when public, lists it in the directory; `GET /v1/networks` lists them;
//! * requests under `/networks/{id}/…` go to the Durable Object named `{id}`
//!   ([`entry::NetworkObject`]), which owns that network's state.
//!
//! Static files of the web workspace (`www/`) are served by the platform's
//! assets binding before the Worker runs.

#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod directory;
mod effects;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod entry;
mod host;
mod http;
mod inbox;
mod log_batch;
mod network_object;
mod origin;
mod outlet;
mod sse;
mod storage;

use agentnet_core::bindings::networks::{self, WorkerRoute};
use agentnet_core::bindings::{self, create};
use host::{random_seed, request_head, respond};
use serde_json::Value;
use worker::{Context, Env, Method, Request, RequestInit, Response, Result, Stub, event};

pub use directory::DirectoryObject;
pub use entry::NetworkObject;

/// The Durable Object namespace of networks, declared in `wrangler.toml`.
pub const NETWORKS_BINDING: &str = "NETWORKS";
/// The Durable Object namespace of the directory.
pub const DIRECTORY_BINDING: &str = "DIRECTORY";

fn directory(env: &Env) -> Result<Stub> {
    env.durable_object(DIRECTORY_BINDING)?
        .id_from_name(networks::DIRECTORY)?
        .get_stub()
}

async fn create_network(request: &bindings::Request, env: &Env) -> Result<Response> {
    let creation = match networks::creation(&request.body, create::new_network_id(&random_seed())) {
        Ok(creation) => creation,
        Err(response) => return respond(response),
    };
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_body(Some(creation.body.into()));
    let url = format!("{}{}", request.origin(), bindings::http::CREATE_PATH);
    let inner = Request::new_with_init(&url, &init)?;
    let stub = env
        .durable_object(NETWORKS_BINDING)?
        .id_from_name(&creation.id)?
        .get_stub()?;
    let response = stub.fetch_with_request(inner).await?;
    if response.status_code() == networks::CREATED && creation.public {
        let mut init = RequestInit::new();
        init.with_method(Method::Post)
            .with_body(Some(creation.listing.into()));
        let register = Request::new_with_init(networks::DIRECTORY_REGISTER, &init)?;
        directory(env)?.fetch_with_request(register).await?;
    }
    Ok(response)
}

async fn list_networks(request: &bindings::Request, env: &Env) -> Result<Response> {
    let mut listed = directory(env)?
        .fetch_with_str(networks::DIRECTORY_LIST)
        .await?;
    let rows: Vec<Value> = listed.json().await?;
    respond(networks::listing(&rows, request.origin()))
}

#[event(fetch)]
async fn fetch(mut req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let mut request = request_head(&req);
    match networks::route(&request) {
        Ok(WorkerRoute::Create) => {
            request.body = match req.text().await {
                Ok(body) => body,
                Err(_) => return respond(bindings::Response::unreadable_body()),
            };
            create_network(&request, &env).await
        }
        Ok(WorkerRoute::List) => list_networks(&request, &env).await,
        Ok(WorkerRoute::Network(id)) => {
            let namespace = env.durable_object(NETWORKS_BINDING)?;
            let stub = namespace.id_from_name(id.as_str())?.get_stub()?;
            stub.fetch_with_request(req).await
        }
        Err(response) => respond(response),
    }
}
