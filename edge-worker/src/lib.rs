//! agentnet-edge: the network service as a Cloudflare Worker.
//!
//! The Worker only routes: requests under `/networks/{id}/…` go to the
//! Durable Object named `{id}` ([`network_object::NetworkObject`]), which
//! owns that network's state. Static files of the web workspace (`www/`)
//! are served by the platform's assets binding before the Worker runs.

mod host;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod network_object;
mod storage;

use agentnet_core::NetworkId;
use worker::{Context, Env, Request, Response, Result, event};

pub use network_object::NetworkObject;

/// The Durable Object namespace binding declared in `wrangler.toml`.
pub const NETWORKS_BINDING: &str = "NETWORKS";

#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let path = req.path();
    let mut segments = path.trim_start_matches('/').split('/');
    match (segments.next(), segments.next()) {
        (Some("networks"), Some(id)) => match id.parse::<NetworkId>() {
            Ok(id) => {
                let namespace = env.durable_object(NETWORKS_BINDING)?;
                let stub = namespace.id_from_name(id.as_str())?.get_stub()?;
                stub.fetch_with_request(req).await
            }
            Err(err) => host::error_response(400, "invalid_network_id", &err.to_string()),
        },
        _ => host::error_response(404, "not_found", &format!("no route for {path}")),
    }
}
