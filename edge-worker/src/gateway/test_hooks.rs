//! Test hooks of a gateway, compiled only with the `test-hooks` feature and
//! on only with `AGENTNET_TEST_HOOKS=1`: its network's test routes make it
//! restart, reset or lose its answers (`crate::network::test_hooks`).

use crate::gateway::held::Held;
use crate::gateway::object::GatewayHost;
use crate::host::now;
use agentnet_core::bindings::route::GATEWAY_ANSWERS_LOST_MS;
use agentnet_core::gateway::{Gateway, Taken};

impl GatewayHost {
    /// Every socket is lost and the gateway starts afresh, as in a crash.
    pub(crate) fn restart(&self) {
        self.lanes.borrow_mut().clear();
        self.carriers.borrow_mut().clear();
        for ws in std::mem::take(&mut *self.sockets.borrow_mut()).into_values() {
            let _ = ws.close(Some(1012), Some("the gateway restarted"));
        }
        self.waiting.borrow_mut().clear();
        let (fresh, hello) = Gateway::start();
        *self.core.borrow_mut() = Some(fresh);
        self.taken.set(Taken::default());
        // The network hears of it: it forgets every member held here.
        if let Err(err) = crate::gateway::store::forget_all(&self.state.storage().sql()) {
            worker::console_error!("forgetting the gateway's members failed: {err}");
        }
        self.up.borrow_mut().push(hello);
        self.send_up();
    }

    /// The sockets and the memory are lost and nothing is said,
    /// as when the platform resets the object; what it kept in storage stays.
    pub(crate) fn reset(&self) {
        *self.ids.borrow_mut() = Default::default();
        self.lanes.borrow_mut().clear();
        self.carriers.borrow_mut().clear();
        *self.core.borrow_mut() = None;
        self.taken.set(Taken::default());
        // A new instance knows its network only from storage, and has no alarm in memory.
        *self.link.borrow_mut() = None;
        self.alarm_at.set(None);
        self.waiting.borrow_mut().clear();
        self.up.borrow_mut().clear();
        for ws in std::mem::take(&mut *self.sockets.borrow_mut()).into_values() {
            // Forgotten first, so its close is no news to the core.
            let _ = ws.serialize_attachment(Held::default());
            let _ = ws.close(Some(1012), Some("the gateway was reset"));
        }
    }

    /// For a while, the network's requests are taken and then answered 503,
    /// as when the answers are lost on the way: the network sends them again.
    pub(crate) fn lose_answers(&self) {
        self.answers_lost_until
            .set(Some(now().plus_millis(GATEWAY_ANSWERS_LOST_MS)));
    }

    /// True while the answers to the network are lost.
    pub(crate) fn answer_lost(&self) -> bool {
        self.answers_lost_until
            .get()
            .is_some_and(|until| now() < until)
    }
}
