//! agentnet-edge-registry: the deployment-wide objects, in a Worker of their
//! own so the network object's module carries none of their code
//! (BENCHMARKS.md, "The registry and the directory in a Worker of their own"):
//!
//! | module | what it holds |
//! |---|---|
//! | [`registry`] | `RegistryObject`: the identity registry and the discovery feed it serves |
//! | [`directory`] | `DirectoryObject`: public networks and the creation limit |
//! | [`adoption`] | each one's side of the handover of the rows the main Worker kept before |
//!
//! It has no route of its own: the main Worker (`edge-worker`) reaches both
//! through its `REGISTRY` and `DIRECTORY` bindings, for the routes it serves
//! (`/registry/v1/…`, `/agents/{name}/did.json`, `/.well-known/jwks.json`,
//! `GET /v1/networks`) and for its network objects. [`host`] is the
//! utilities every Worker of the edge shares (`agentnet-edge-shared`).

pub(crate) mod adoption;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
pub mod directory;
#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
pub mod registry;

pub(crate) use agentnet_edge_shared as host;

use worker::{Context, Env, Request, Response, Result, event};

/// Nothing is served here: the Worker exists for its Durable Objects.
#[event(fetch)]
async fn fetch(_req: Request, _env: Env, _ctx: Context) -> Result<Response> {
    Response::error(
        "agentnet's registry and directory are reached through the main Worker",
        404,
    )
}
