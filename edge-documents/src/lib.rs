//! agentnet-edge-documents: the keeper of the network objects' shared
//! documents (files and context edited together with Automerge), a Worker of
//! its own so the network object's module carries no Automerge
//! (BENCHMARKS.md, "Shared documents in a Worker of their own").
//!
//! One [`object::DocumentsObject`] per network, named by the network's id,
//! keeps that network's documents in SQLite and answers the network object's
//! asks (`agentnet_core::network::DocumentAsk`, JSON) with the core's
//! `DocumentHost`. It has no route of its own: only the network objects reach
//! it, through their `DOCUMENTS` binding.

#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
pub mod object;

use worker::{Context, Env, Request, Response, Result, event};

/// Nothing is served here: the Worker exists for its Durable Objects.
#[event(fetch)]
async fn fetch(_req: Request, _env: Env, _ctx: Context) -> Result<Response> {
    Response::error("agentnet's documents are reached through a network", 404)
}
