//! The registry and the directory live in their own Worker (`edge-registry`,
//! reached through the `REGISTRY` and `DIRECTORY` bindings); a deployment made
//! before kept their rows in this Worker's classes of the same names, now
//! retired ([`retired`]). [`registry_object`] and [`directory_object`] give
//! the stub of the new object, after handing the retired one's rows over
//! the first time this isolate asks (`agentnet_edge_shared::handover`):
//! one request per isolate once the rows are there, none after.
//!
//! May use [`crate::host`] only.

#[allow(missing_docs)] // the #[durable_object] macro generates undocumented glue
pub mod retired;

use crate::host::handover::{ADOPT_PATH, FORGET_PATH, ROWS_PATH, STATE_PATH};
use crate::host::stubs::post_ok;
use agentnet_core::bindings::directory::DIRECTORY;
use std::cell::Cell;
use worker::{Env, Result, Stub};

/// The Durable Object namespace of the directory (the registry Worker's).
pub const DIRECTORY_BINDING: &str = "DIRECTORY";
/// The Durable Object namespace of the identity registry (the registry Worker's).
pub const REGISTRY_BINDING: &str = "REGISTRY";
/// This Worker's retired directory, which may still hold the rows of a deployment made before.
pub const RETIRED_DIRECTORY_BINDING: &str = "RETIRED_DIRECTORY";
/// This Worker's retired registry, which may still hold the rows of a deployment made before.
pub const RETIRED_REGISTRY_BINDING: &str = "RETIRED_REGISTRY";
/// The name of the registry's one object.
pub const REGISTRY: &str = "registry";

/// One moved object: its bindings, its name, and whether this isolate knows it has adopted.
struct Moved {
    binding: &'static str,
    retired: &'static str,
    name: &'static str,
    adopted: &'static std::thread::LocalKey<Cell<bool>>,
}

thread_local! {
    static REGISTRY_ADOPTED: Cell<bool> = const { Cell::new(false) };
    static DIRECTORY_ADOPTED: Cell<bool> = const { Cell::new(false) };
}

const MOVED_REGISTRY: Moved = Moved {
    binding: REGISTRY_BINDING,
    retired: RETIRED_REGISTRY_BINDING,
    name: REGISTRY,
    adopted: &REGISTRY_ADOPTED,
};

const MOVED_DIRECTORY: Moved = Moved {
    binding: DIRECTORY_BINDING,
    retired: RETIRED_DIRECTORY_BINDING,
    name: DIRECTORY,
    adopted: &DIRECTORY_ADOPTED,
};

/// The registry's object (one for now; `docs/identity.md` plans its shards).
pub(crate) async fn registry_object(env: &Env) -> Result<Stub> {
    moved_object(env, &MOVED_REGISTRY).await
}

/// The directory of public networks' object.
pub(crate) async fn directory_object(env: &Env) -> Result<Stub> {
    moved_object(env, &MOVED_DIRECTORY).await
}

async fn moved_object(env: &Env, moved: &Moved) -> Result<Stub> {
    let stub = env
        .durable_object(moved.binding)?
        .id_from_name(moved.name)?
        .get_stub()?;
    if !moved.adopted.with(Cell::get) {
        hand_over(env, moved, &stub).await?;
        moved.adopted.with(|adopted| adopted.set(true));
    }
    Ok(stub)
}

#[derive(serde::Deserialize)]
struct State {
    adopted: bool,
}

/// Hands the retired object's rows to the new one, unless it has them already.
async fn hand_over(env: &Env, moved: &Moved, stub: &Stub) -> Result<()> {
    let url = |path: &str| format!("https://{}{path}", moved.name);
    let state: State = post_ok(
        stub,
        &url(STATE_PATH),
        String::new(),
        "the handover's state",
    )
    .await?
    .json()
    .await?;
    if state.adopted {
        return Ok(());
    }
    let retired = env
        .durable_object(moved.retired)?
        .id_from_name(moved.name)?
        .get_stub()?;
    let rows = post_ok(
        &retired,
        &url(ROWS_PATH),
        String::new(),
        "the handover's rows",
    )
    .await?
    .text()
    .await?;
    // The tables the new object took: the retired one drops those, and only those.
    let taken = post_ok(stub, &url(ADOPT_PATH), rows, "the handover's adoption")
        .await?
        .text()
        .await?;
    post_ok(
        &retired,
        &url(FORGET_PATH),
        taken,
        "the handover's forgetting",
    )
    .await?;
    Ok(())
}
