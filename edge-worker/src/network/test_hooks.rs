//! The test routes of the network object ([`TestHook`]), compiled only with
//! the `test-hooks` feature and on only with `AGENTNET_TEST_HOOKS=1`
//! (`crate::host::test_hooks`).

use crate::network::gateway_link::{LOSE_ANSWERS_PATH, RESET_PATH, RESTART_PATH, post};
use crate::network::object::NetworkHost;
use agentnet_core::bindings::TestHook;
use agentnet_core::bindings::route::GATEWAY_REFUSAL_MS;
use worker::{Response, Result};

impl NetworkHost {
    /// Does what `hook` says.
    pub(crate) async fn run_test_hook(&self, hook: TestHook) -> Result<Response> {
        match hook {
            TestHook::FailNextBatch => {
                self.store()?.fail_next_batch();
                Response::ok("the next log batch will fail")
            }
            TestHook::RestartSequencer => {
                self.restart_sequencer()?;
                Response::ok("the network restarted towards its gateways")
            }
            TestHook::RestartGateways => self.tell_gateways(RESTART_PATH).await,
            TestHook::ResetGateways => self.tell_gateways(RESET_PATH).await,
            TestHook::LoseGatewayAnswers => self.tell_gateways(LOSE_ANSWERS_PATH).await,
            TestHook::Counters => self.counters(),
            TestHook::RefuseGatewayRequests => {
                let until = crate::host::now().plus_millis(GATEWAY_REFUSAL_MS);
                self.gateways_refused_until.set(Some(until));
                Response::ok("the gateways' requests are refused for a while")
            }
            TestHook::Panic => {
                #[allow(clippy::panic)]
                {
                    panic!("test hook: deliberate panic")
                }
            }
        }
    }

    /// Every gateway hears the test path `path`: it loses its sockets, as in
    /// a crash ([`RESTART_PATH`]), or also its memory without telling the
    /// network, as when the platform resets it ([`RESET_PATH`]), or loses its
    /// answers to the network for a while ([`LOSE_ANSWERS_PATH`]).
    async fn tell_gateways(&self, path: &str) -> Result<Response> {
        let Some(sequencer) = self.links.sequencer() else {
            return Response::error("this network has no gateways", 409);
        };
        for gateway in 0..sequencer.placement().gateways() {
            post(&self.gateway_stub(gateway)?, path, String::new()).await?;
        }
        Response::ok(format!("every gateway heard {path}"))
    }

    /// What the object has sent (and taken from its gateways), for benchmarks.
    fn counters(&self) -> Result<Response> {
        Response::from_json(&serde_json::json!({
            "socket_messages": self.socket_messages.get(),
            "gateway_requests": self.links.requests.get(),
            "gateway_requests_in": self.gateway_requests_in.get(),
            "wasm_memory_bytes": wasm_memory_bytes(),
        }))
    }
}

/// The isolate's WebAssembly linear memory: what every object the isolate
/// holds keeps in Rust (it only grows; benchmarks read it beside workerd's RSS).
fn wasm_memory_bytes() -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        core::arch::wasm32::memory_size(0) * 65_536
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}
