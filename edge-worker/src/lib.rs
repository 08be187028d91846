//! agentnet-edge: the network service as a Cloudflare Worker.
//!
//! The edge is two Durable Object classes and this Worker entry, one folder
//! each, beside one folder per binding's I/O and the shared host utilities:
//!
//! | folder | what it holds |
//! |---|---|
//! | [`network`] | `NetworkObject`: one network's state, log, sockets, sessions, SSE outlets, effects |
//! | [`gateway`] | `GatewayObject`: the connection gateways of a hot network |
//! | [`directory`] | what the Worker asks the directory when a network is created or listed |
//! | [`handover`] | the stubs of the registry Worker's objects, and the retired classes whose rows they take over |
//! | [`agents`] | the hosted agents (LLM agents a master added) run inside the network object |
//! | [`mcp`], [`anp`], [`a2a`], [`oauth`], [`ioa`] | each binding's I/O inside the network object (its decisions are the core's) |
//! | [`host`] | the clock, randomness, requests and responses, bounded fetches, origins, stubs |
//!
//! Two other Workers hold what a network object does not need in its module:
//! the networks' shared documents (`edge-documents/`: one `DocumentsObject`
//! per network, with Automerge), which each network object asks through its
//! `DOCUMENTS` binding ([`network::documents`]); and the deployment-wide
//! identity registry and directory of public networks (`edge-registry/`:
//! `RegistryObject`, `DirectoryObject`), asked through the `REGISTRY` and
//! `DIRECTORY` bindings ([`handover`]).
//!
//! The Worker only routes, along the core's route table
//! (`agentnet_core::bindings::route`, read once per request):
//! * `POST /v1/networks` creates a network (in its own Durable Object) and,
//!   when public, lists it in the directory; `GET /v1/networks` lists them;
//! * requests under `/networks/{id}/…` (the MCP endpoint `/networks/{id}/mcp`,
//!   its protected-resource metadata, the ANP endpoint `/networks/{id}/anp/rpc`, the network's OAuth authorization
//!   server with its metadata, the A2A endpoints and cards under
//!   `/networks/{id}/a2a`, IOA under `/networks/{id}/ioa`) go to the Durable Object named `{id}`
//!   ([`network::entry::NetworkObject`]), which owns that network's state. When the
//!   network has connection gateways, it answers an upgrade with the gateway
//!   that takes it, and the upgrade goes there ([`gateway::entry::GatewayObject`]).
//!
//! * the identity registry's routes (`/registry/v1/…`, `/agents/{name}/did.json`,
//!   `/.well-known/jwks.json`) go to its Durable Object (the registry Worker's `RegistryObject`).
//!
//! Static files of the web workspace (`www/`) are served from the platform's
//! assets binding by the Worker ([`host::assets`]), after the same checks as
//! every other request: its host is one of the deployment's names
//! (`AGENTNET_HOSTS`, DNS rebinding protection) and its body was read.

mod a2a;
mod agents;
mod anp;
mod directory;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod gateway;
mod handover;
mod host;
mod ioa;
mod mcp;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod network;
mod oauth;

use agentnet_core::bindings;
use agentnet_core::bindings::route::{self, Route};
use agentnet_core::bindings::step::Step;
use agentnet_core::model::origins::AllowedOrigins;
use directory::requests::{create_network, list_networks};
use gateway::handoff::to_gateway;
use handover::registry_object;
use host::forward::buffered;
use host::{request_head, respond};
use network::gateway_link;
use worker::{Context, Env, Request, Response, Result, event};

pub use gateway::entry::GatewayObject;
pub use handover::retired::{DirectoryObject, RegistryObject};
pub use network::entry::NetworkObject;

pub use handover::{DIRECTORY_BINDING, REGISTRY_BINDING};
pub use host::NETWORKS_BINDING;

/// Every request: a network's own go to its object, which decides CORS with the
/// network's `allowed_origins`; the deployment's routes (creating and listing
/// networks, the registry) are open to pages of every origin.
#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let request = request_head(&req);
    let log = bindings::observe::RequestLog::start(&request, host::now());
    let route = route::parse(&request);
    let response = if let Ok(Route::Network(..)) = route {
        serve(req, request, route, env).await
    } else {
        let decision = bindings::access::cors::decide(&request, &AllowedOrigins::any());
        host::with_cors(decision, serve(req, request, route, env)).await
    };
    let status = response.as_ref().map_or(500, Response::status_code);
    if let Some(line) = log.finish(status, host::now()) {
        worker::console_log!("{line}");
    }
    response
}

async fn serve(
    req: Request,
    mut request: bindings::Request,
    route: std::result::Result<Route, bindings::Response>,
    env: Env,
) -> Result<Response> {
    // Every body is read first, whatever the path, the method and the answer (see
    // `buffered`): an answer sent while a client still sends disturbs other requests.
    let file_part = route.as_ref().is_ok_and(Route::takes_file_part);
    let mut req = match buffered(req, file_part).await? {
        Step::Go(req) => req,
        Step::Answer(refused) => return respond(refused),
    };
    // A name that is not the deployment's own is a rebound one: nothing answers it.
    if let Some(refused) = host::known_hosts(&env).refusal(&request) {
        return respond(refused);
    }
    #[cfg(feature = "test-hooks")]
    if host::test_hooks::enabled(&env) && handover::retired::is_test_hook(&request) {
        return handover::retired::test_hook(&env, &request, &mut req).await;
    }
    match route {
        Ok(Route::Registry) => registry_object(&env).await?.fetch_with_request(req).await,
        Ok(Route::CreateNetwork) => {
            request.body = match host::read_body(&mut req).await {
                Ok(body) => body,
                Err(refused) => return respond(refused),
            };
            create_network(&request, &env).await
        }
        Ok(Route::ListNetworks) => list_networks(&request, &env).await,
        Ok(Route::Network(id, _)) => {
            let namespace = env.durable_object(NETWORKS_BINDING)?;
            let stub = namespace.id_from_name(id.as_str())?.get_stub()?;
            // An upgrade may be handed to a gateway: keep what it needs.
            let upgrade = bindings::transport::ws::is_upgrade(&request)
                .then(|| Ok::<_, worker::Error>((req.url()?, req.headers().entries().collect())))
                .transpose()?;
            let response = stub.fetch_with_request(req).await?;
            let gateway = response.headers().get(gateway_link::GATEWAY_HEADER)?;
            match (upgrade, gateway) {
                (Some((url, headers)), Some(gateway)) => {
                    let socket = response.headers().get(gateway_link::SOCKET_HEADER)?;
                    to_gateway(&env, &gateway, url, headers, socket.unwrap_or_default()).await
                }
                _ => Ok(response),
            }
        }
        // `/__create` is a network object's own path: from outside, a file like any other.
        Ok(Route::Asset | Route::Create) => host::assets::serve(&env, req).await,
        Err(response) => respond(response),
    }
}
