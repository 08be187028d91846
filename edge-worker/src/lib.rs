//! agentnet-edge: the network service as a Cloudflare Worker.
//!
//! The Worker only forwards, along the routes of
//! `agentnet_core::bindings::networks`:
//! * `POST /v1/networks` creates a network (in its own Durable Object) and,
//!   when public, lists it in the directory; `GET /v1/networks` lists them;
//! * requests under `/networks/{id}/…` (the MCP endpoint `/networks/{id}/mcp`,
//!   its protected-resource metadata, the network's OAuth authorization
//!   server with its metadata, the A2A endpoints and cards under
//!   `/networks/{id}/a2a`, IOA under `/networks/{id}/ioa`) go to the Durable Object named `{id}`
//!   ([`entry::NetworkObject`]), which owns that network's state. When the
//!   network has connection gateways, it answers an upgrade with the gateway
//!   that takes it, and the upgrade goes there ([`gateway_entry::GatewayObject`]).
//!
//! * the identity registry's routes (`/registry/v1/…`, `/agents/{name}/did.json`,
//!   `/.well-known/jwks.json`) go to its Durable Object ([`registry::RegistryObject`]).
//!
//! Static files of the web workspace (`www/`) are served by the platform's
//! assets binding before the Worker runs.

mod a2a;
mod a2a_live;
mod a2a_push;
mod a2a_remote;
mod bounded_fetch;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod directory;
mod discovery_live;
mod discovery_network;
mod discovery_queue;
mod discovery_store;
mod effects;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod entry;
mod frame_texts;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod gateway_entry;
mod gateway_io;
mod gateway_lifecycle;
mod gateway_link;
mod gateway_object;
mod gateway_store;
mod gateway_unjoined;
mod gateway_uplink;
mod graph_store;
mod host;
mod http;
mod identity;
mod inbox;
mod ioa;
mod ioa_live;
mod log_batch;
mod log_pages;
mod mcp;
mod mcp_live;
mod mcp_store;
mod network_object;
mod oauth;
mod oauth_store;
mod origin;
mod outgoing;
mod outlet;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod registry;
mod sessions;
mod socket_state;
mod sockets;
mod sse;
mod storage;
mod stubs;

use agentnet_core::bindings::directory as listings;
use agentnet_core::bindings::networks::{self, WorkerRoute};
use agentnet_core::bindings::{self, create};
use agentnet_core::model::origins::AllowedOrigins;
use host::{random_seed, request_head, respond};
use serde_json::Value;
use worker::{Context, Env, Method, Request, RequestInit, Response, Result, event};

pub use directory::DirectoryObject;
pub use entry::NetworkObject;
pub use gateway_entry::GatewayObject;
pub use registry::RegistryObject;

pub use host::NETWORKS_BINDING;
pub use stubs::{DIRECTORY_BINDING, REGISTRY_BINDING};
use stubs::{directory_object, registry_object};

/// Asks the directory whether `creator` may create one more network: `None`
/// when it may, else the refusal to send back.
async fn admit_creation(creator: &str, env: &Env) -> Result<Option<Response>> {
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_body(Some(listings::admission(creator).into()));
    let admit = Request::new_with_init(listings::DIRECTORY_ADMIT, &init)?;
    let answer = directory_object(env)?.fetch_with_request(admit).await?;
    Ok((answer.status_code() != 204).then_some(answer))
}

async fn create_network(request: &bindings::Request, env: &Env) -> Result<Response> {
    let creator = listings::creator_of(request);
    let id = create::new_network_id(&random_seed());
    let creation = match networks::creation(&request.body, id, &creator) {
        Ok(creation) => creation,
        Err(response) => return respond(response),
    };
    if let Some(refused) = admit_creation(&creator, env).await? {
        return Ok(refused);
    }
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
        let register = Request::new_with_init(listings::DIRECTORY_REGISTER, &init)?;
        directory_object(env)?.fetch_with_request(register).await?;
    }
    Ok(response)
}

async fn list_networks(request: &bindings::Request, env: &Env) -> Result<Response> {
    let query = match listings::list_query(request) {
        Ok(query) => query,
        Err(response) => return respond(response),
    };
    let mut listed = directory_object(env)?
        .fetch_with_str(&listings::list_url(&query))
        .await?;
    let rows: Vec<Value> = listed.json().await?;
    respond(listings::listing(&rows, query.limit, request.origin()))
}

/// The request with its body read here, bounded, before it goes to an object.
/// Streamed through, a body the object refuses unread (too large, or no such
/// network) faults the Worker's side of the stream ("Can't read from request
/// stream after response has been sent"), and workerd restarts the Worker,
/// failing every request in flight (503). Its redirects are the client's to
/// follow (the consent form's 303 to a redirect URI), never the stub's.
async fn buffered(mut req: Request) -> Result<std::result::Result<Request, bindings::Response>> {
    if req.method() != Method::Post {
        return Ok(Ok(req));
    }
    let body = match host::read_body(&mut req).await {
        Ok(body) => body,
        Err(refused) => return Ok(Err(refused)),
    };
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(req.headers().clone())
        .with_redirect(worker::RequestRedirect::Manual)
        .with_body(Some(body.into()));
    Request::new_with_init(req.url()?.as_str(), &init).map(Ok)
}

/// Every request: a network's own go to its object, which decides CORS with the
/// network's `allowed_origins`; the deployment's routes (creating and listing
/// networks, the registry) are open to pages of every origin.
#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let request = request_head(&req);
    let log = bindings::observe::RequestLog::start(&request, host::now_ms());
    let response = if matches!(networks::route(&request), Ok(WorkerRoute::Network(_)))
        && !bindings::registry::is_registry_path(request.path())
    {
        serve(req, request, env).await
    } else {
        let decision = bindings::cors::decide(&request, &AllowedOrigins::any());
        host::with_cors(decision, serve(req, request, env)).await
    };
    let status = response.as_ref().map_or(500, Response::status_code);
    if let Some(line) = log.finish(status, host::now_ms()) {
        worker::console_log!("{line}");
    }
    response
}

async fn serve(mut req: Request, mut request: bindings::Request, env: Env) -> Result<Response> {
    if bindings::registry::is_registry_path(request.path()) {
        return match buffered(req).await? {
            Ok(forwarded) => registry_object(&env)?.fetch_with_request(forwarded).await,
            Err(refused) => respond(refused),
        };
    }
    match networks::route(&request) {
        Ok(WorkerRoute::Create) => {
            request.body = match host::read_body(&mut req).await {
                Ok(body) => body,
                Err(refused) => return respond(refused),
            };
            create_network(&request, &env).await
        }
        Ok(WorkerRoute::List) => list_networks(&request, &env).await,
        Ok(WorkerRoute::Network(id)) => {
            let namespace = env.durable_object(NETWORKS_BINDING)?;
            let stub = namespace.id_from_name(id.as_str())?.get_stub()?;
            // An upgrade may be handed to a gateway: keep what it needs.
            let upgrade = bindings::ws::is_upgrade(&request)
                .then(|| Ok::<_, worker::Error>((req.url()?, req.headers().entries().collect())))
                .transpose()?;
            let response = match buffered(req).await? {
                Ok(forwarded) => stub.fetch_with_request(forwarded).await?,
                Err(refused) => return respond(refused),
            };
            let gateway = response.headers().get(gateway_link::GATEWAY_HEADER)?;
            match (upgrade, gateway) {
                (Some((url, headers)), Some(gateway)) => {
                    let socket = response.headers().get(gateway_link::SOCKET_HEADER)?;
                    to_gateway(&env, &gateway, url, headers, socket.unwrap_or_default()).await
                }
                _ => Ok(response),
            }
        }
        Err(response) => respond(response),
    }
}

/// Takes an upgrade to the gateway its network named, with the socket id the
/// gateway expects (set here, whatever the client sent).
async fn to_gateway(
    env: &Env,
    gateway: &str,
    url: worker::Url,
    headers: Vec<(String, String)>,
    socket: String,
) -> Result<Response> {
    let forwarded = worker::Headers::new();
    for (name, value) in headers {
        forwarded.set(&name, &value)?;
    }
    forwarded.set(gateway_link::SOCKET_HEADER, &socket)?;
    let mut init = RequestInit::new();
    init.with_method(Method::Get).with_headers(forwarded);
    let request = Request::new_with_init(url.as_str(), &init)?;
    env.durable_object(gateway_link::GATEWAYS_BINDING)?
        .id_from_name(gateway)?
        .get_stub()?
        .fetch_with_request(request)
        .await
}
