//! A gateway's life apart from its traffic: the alarm that closes sockets
//! whose time to join ran out, and the test hooks that restart it (telling
//! the network) or reset it (as the platform does, telling no one).

use crate::gateway_object::{GatewayHost, Held};
use crate::host::now_ms;
use agentnet_core::gateway::Gateway;
use worker::{Response, Result};

impl GatewayHost {
    /// The alarm: sockets whose time to join ran out are closed.
    pub(crate) async fn alarm(&self) -> Result<Response> {
        self.alarm_at.set(None);
        let effects = self.with_core(|core| core.overdue(now_ms()));
        self.apply(effects);
        self.schedule_alarm().await?;
        Response::ok("")
    }

    /// Sets the alarm for the next unbound socket's time to join, unless one comes sooner.
    pub(crate) async fn schedule_alarm(&self) -> Result<()> {
        let Some(at) = self.with_core(|core| core.next_deadline()) else {
            return Ok(());
        };
        if self.alarm_at.get().is_some_and(|set| set <= at) {
            return Ok(());
        }
        self.alarm_at.set(Some(at));
        self.state
            .storage()
            .set_alarm(worker::ScheduledTime::new(worker::js_sys::Date::new(
                &(at as f64).into(),
            )))
            .await
    }

    /// Test hook: every socket is lost and the gateway starts afresh, as in a crash.
    pub(crate) fn restart(&self) {
        for ws in std::mem::take(&mut *self.sockets.borrow_mut()).into_values() {
            let _ = ws.close(Some(1012), Some("the gateway restarted"));
        }
        self.waiting.borrow_mut().clear();
        let (fresh, hello) = Gateway::start();
        *self.core.borrow_mut() = Some(fresh);
        // The network hears of it: it forgets every member held here.
        if let Err(err) = crate::gateway_store::forget_all(&self.state.storage().sql()) {
            worker::console_error!("forgetting the gateway's members failed: {err}");
        }
        self.up.borrow_mut().push(hello);
        self.send_up();
    }

    /// Test hook: the sockets and the memory are lost and nothing is said,
    /// as when the platform resets the object; what it kept in storage stays.
    pub(crate) fn reset(&self) {
        *self.ids.borrow_mut() = Default::default();
        *self.core.borrow_mut() = None;
        self.waiting.borrow_mut().clear();
        self.up.borrow_mut().clear();
        for ws in std::mem::take(&mut *self.sockets.borrow_mut()).into_values() {
            // Forgotten first, so its close is no news to the core.
            let _ = ws.serialize_attachment(Held::default());
            let _ = ws.close(Some(1012), Some("the gateway was reset"));
        }
    }
}
