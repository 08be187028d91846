//! The deployment-wide objects' stubs: the registry's and the directory's
//! (one instance each), for the Worker and for the network objects.

use agentnet_core::bindings::directory::DIRECTORY;
use worker::{Env, Result, Stub};

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
