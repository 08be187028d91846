//! agentnet-edge: the network service as a Cloudflare Worker.
//!
//! The Worker only routes:
//! * `POST /v1/networks` creates a network (in its own Durable Object) and,
//!   when public, lists it in the directory; `GET /v1/networks` lists them;
//! * requests under `/networks/{id}/…` go to the Durable Object named `{id}`
//!   ([`entry::NetworkObject`]), which owns that network's state.
//!
//! Static files of the web workspace (`www/`) are served by the platform's
//! assets binding before the Worker runs.

mod create;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod directory;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
mod entry;
mod host;
mod http;
mod inbox;
mod log_batch;
mod network_object;
mod sse;
mod storage;

use agentnet_core::NetworkId;
use serde_json::{Value, json};
use worker::{Context, Env, Method, Request, RequestInit, Response, Result, event};

pub use directory::DirectoryObject;
pub use entry::NetworkObject;

/// The Durable Object namespace of networks, declared in `wrangler.toml`.
pub const NETWORKS_BINDING: &str = "NETWORKS";
/// The Durable Object namespace of the directory.
pub const DIRECTORY_BINDING: &str = "DIRECTORY";

async fn create_network(mut req: Request, env: &Env) -> Result<Response> {
    let mut body: Value = match req.json().await {
        Ok(v) => v,
        Err(_) => return host::error_response(400, "malformed_event", "the body is not JSON"),
    };
    let Value::Object(object) = &mut body else {
        return host::error_response(400, "invalid_request", "the body is a JSON object");
    };
    let id = create::new_network_id();
    object.insert("id".into(), json!(id));
    let public = object
        .get("public")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let name = object.get("name").cloned().unwrap_or(Value::Null);
    let origin = host::origin(&req);
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_body(Some(body.to_string().into()));
    let inner = Request::new_with_init(&format!("{origin}/__create"), &init)?;
    let stub = env
        .durable_object(NETWORKS_BINDING)?
        .id_from_name(&id)?
        .get_stub()?;
    let response = stub.fetch_with_request(inner).await?;
    if response.status_code() == 201 && public {
        let mut init = RequestInit::new();
        init.with_method(Method::Post).with_body(Some(
            json!({"id": id, "name": name, "created": 0})
                .to_string()
                .into(),
        ));
        let register = Request::new_with_init("https://directory/register", &init)?;
        let directory = env
            .durable_object(DIRECTORY_BINDING)?
            .id_from_name(directory::DIRECTORY)?
            .get_stub()?;
        directory.fetch_with_request(register).await?;
    }
    Ok(response)
}

async fn list_networks(req: &Request, env: &Env) -> Result<Response> {
    let directory = env
        .durable_object(DIRECTORY_BINDING)?
        .id_from_name(directory::DIRECTORY)?
        .get_stub()?;
    let mut listed = directory.fetch_with_str("https://directory/list").await?;
    let rows: Vec<Value> = listed.json().await?;
    let origin = host::origin(req);
    let networks: Vec<Value> = rows
        .into_iter()
        .map(|row| {
            let id = row.get("id").and_then(Value::as_str).unwrap_or("").to_owned();
            json!({"id": id, "name": row.get("name"), "profile": format!("{origin}/networks/{id}/v1/profile")})
        })
        .collect();
    Response::from_json(&json!({ "networks": networks }))
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let path = req.path();
    if path == "/v1/networks" {
        return match req.method() {
            Method::Post => create_network(req, &env).await,
            Method::Get => list_networks(&req, &env).await,
            _ => host::error_response(405, "method_not_allowed", "use GET or POST"),
        };
    }
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
