//! The edge's test hooks switch, compiled only with the `test-hooks` feature
//! (the local test edge `scripts/test` builds; never the release build
//! `wrangler deploy` uploads) and on only when the edge is started with
//! `AGENTNET_TEST_HOOKS=1`: whether they are on, the shortened [`Policy`]
//! they allow, and the frame that panics. The routes they open are
//! `crate::network::test_hooks` and `crate::gateway::test_hooks`.

use agentnet_core::bindings::access::policy::Policy;
use worker::Env;

/// The variable that turns on test-only routes; the end-to-end tests set it with `--var`.
pub const TEST_HOOKS_VAR: &str = "AGENTNET_TEST_HOOKS";
/// With test hooks on, JSON that shortens the [`Policy`] (`Policy::with_overrides`):
/// a short join deadline or session for tests. Ignored without test hooks.
pub const TEST_POLICY_VAR: &str = "AGENTNET_TEST_POLICY";

/// Whether `env` turns the test hooks on.
pub(crate) fn enabled(env: &Env) -> bool {
    env.var(TEST_HOOKS_VAR).is_ok_and(|v| v.to_string() == "1")
}

/// The [`Policy`] shortened by [`TEST_POLICY_VAR`] when `on`.
pub(crate) fn policy(env: &Env, on: bool) -> Policy {
    match env.var(TEST_POLICY_VAR) {
        Ok(json) if on => Policy::default()
            .with_overrides(&json.to_string())
            .unwrap_or_else(|err| {
                worker::console_error!("{err}");
                Policy::default()
            }),
        _ => Policy::default(),
    }
}

/// Panics when `text` is the test frame that proves a panic inside a drain
/// of frames does not brick the object.
pub(crate) fn panic_frame(on: bool, text: &str) {
    if on && text == agentnet_core::bindings::transport::ws::TEST_PANIC_FRAME {
        #[allow(clippy::panic)]
        {
            panic!("test hook: deliberate panic in a frame")
        }
    }
}
