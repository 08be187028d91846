//! `RegistryObject` and `DirectoryObject` as this Worker kept them before the
//! registry Worker (`edge-registry`) took them over: retired classes of the
//! same names (their rows are where `wrangler.toml`'s migrations made them),
//! which only hand their rows over ([`crate::handover`]): every row
//! ([`ROWS_PATH`]), then drop the tables the registry Worker took
//! ([`FORGET_PATH`]). With the test hooks on,
//! a test stands in for an older deployment by seeding one ([`test_hook`]).

use crate::host::handover::{self, FORGET_PATH, ROWS_PATH};
use crate::host::respond;
use agentnet_core::bindings;
use worker::{DurableObject, Env, Request, Response, Result, State, durable_object};

/// The registry's rows from before the registry Worker.
#[durable_object]
pub struct RegistryObject {
    state: State,
}

/// The directory's rows from before the registry Worker.
#[durable_object]
pub struct DirectoryObject {
    state: State,
}

impl DurableObject for RegistryObject {
    fn new(state: State, _env: Env) -> Self {
        Self { state }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        serve(&self.state, req).await
    }

    /// A webhook delivery's alarm set before the move: the registry Worker sends it now.
    async fn alarm(&self) -> Result<Response> {
        Response::ok("")
    }
}

impl DurableObject for DirectoryObject {
    fn new(state: State, _env: Env) -> Self {
        Self { state }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        serve(&self.state, req).await
    }
}

/// A retired object's answers.
async fn serve(state: &State, mut req: Request) -> Result<Response> {
    let sql = state.storage().sql();
    match req.path().as_str() {
        ROWS_PATH => Response::from_json(&handover::dump(&sql)?),
        FORGET_PATH => {
            let adopted = match handover::parse(&req.text().await?) {
                Ok(adopted) => adopted,
                Err(refused) => return respond(refused),
            };
            handover::forget(&sql, &adopted)?;
            state.storage().delete_alarm().await?;
            Response::ok("forgotten")
        }
        // Only the front's test hook ([`test_hook`]) sends this.
        #[cfg(feature = "test-hooks")]
        handover::SEED_PATH => {
            let body = match crate::host::read_body(&mut req).await {
                Ok(body) => body,
                Err(refused) => return respond(refused),
            };
            let rows = match handover::parse(&body) {
                Ok(rows) => rows,
                Err(refused) => return respond(refused),
            };
            match handover::seed(&sql, &rows)? {
                agentnet_core::bindings::step::Step::Go(()) => Response::ok("seeded"),
                agentnet_core::bindings::step::Step::Answer(refused) => respond(refused),
            }
        }
        _ => respond(bindings::Response::error(
            agentnet_core::ErrorCode::NotFound,
            "this object is retired: the registry Worker serves it",
        )),
    }
}

/// Where [`test_hook`] answers.
#[cfg(feature = "test-hooks")]
const TEST_HOOK_PREFIX: &str = "/v1/__test/retired/";

/// Whether `request` is for [`test_hook`].
#[cfg(feature = "test-hooks")]
pub(crate) fn is_test_hook(request: &bindings::Request) -> bool {
    request.path().starts_with(TEST_HOOK_PREFIX)
}

/// The test hook that stands in for a deployment made before the registry
/// Worker: `POST /v1/__test/retired/{registry|directory}` seeds that retired
/// object with rows (a JSON `Rows` body, each table made by its own
/// statement), `GET` reads every row it holds.
#[cfg(feature = "test-hooks")]
pub(crate) async fn test_hook(
    env: &Env,
    request: &bindings::Request,
    req: &mut Request,
) -> Result<Response> {
    use super::{DIRECTORY, REGISTRY, RETIRED_DIRECTORY_BINDING, RETIRED_REGISTRY_BINDING};
    let (binding, name) = match request.path().strip_prefix(TEST_HOOK_PREFIX) {
        Some("registry") => (RETIRED_REGISTRY_BINDING, REGISTRY),
        Some("directory") => (RETIRED_DIRECTORY_BINDING, DIRECTORY),
        _ => {
            return respond(bindings::Response::error(
                agentnet_core::ErrorCode::NotFound,
                "no retired object of that name",
            ));
        }
    };
    let (to, body) = match request.method {
        bindings::Method::Post => match crate::host::read_body(req).await {
            Ok(body) => (handover::SEED_PATH, body),
            Err(refused) => return respond(refused),
        },
        _ => (ROWS_PATH, String::new()),
    };
    let stub = env
        .durable_object(binding)?
        .id_from_name(name)?
        .get_stub()?;
    crate::host::stubs::post(&stub, &format!("https://{name}{to}"), body).await
}
