//! A gateway's life apart from its traffic: the alarm that closes sockets
//! whose time to join ran out and, while it holds sockets, wakes it now and
//! then (so a reset that nobody saw is found), and the test hooks that
//! restart it (telling the network) or reset it (as the platform does,
//! telling no one).

use crate::gateway::object::GatewayHost;
use crate::host::now;
use agentnet_core::Timestamp;
use worker::{Response, Result};

/// When a gateway's alarm is next due: the next unbound socket's time to
/// join or, while it `holds` sockets, `reconcile_ms` from `now`, whichever
/// comes first. A gateway the platform resets loses its sockets without a
/// close it could see; its stored alarm still fires, so within
/// `reconcile_ms` (`Policy::gateway_reconcile_ms`, a minute) it wakes,
/// reconciles the members it kept in storage with the sockets it has left,
/// and reports the ones it lost offline, even in a network where nothing is
/// sent to them. On Cloudflare that is one alarm a minute per busy gateway.
fn next_alarm(
    join_deadline: Option<Timestamp>,
    holds: bool,
    reconcile_ms: u64,
    now: Timestamp,
) -> Option<Timestamp> {
    let reconcile = holds.then(|| now.plus_millis(reconcile_ms));
    [join_deadline, reconcile].into_iter().flatten().min()
}

impl GatewayHost {
    /// The alarm: sockets whose time to join ran out are closed, and announced
    /// sockets that never came are forgotten. A gateway the platform reset
    /// wakes here (`with_core` reconciles what it kept with the sockets it has
    /// left) and reports the members it lost.
    pub(crate) async fn alarm(&self) -> Result<Response> {
        self.alarm_at.set(None);
        let now = now();
        let effects = self.with_core(|core| core.overdue(now));
        self.apply(effects);
        self.expire(now);
        self.send_up();
        self.schedule_alarm().await?;
        Response::ok("")
    }

    /// Sets the alarm for the next unbound socket's time to join or, while
    /// the gateway holds sockets, its next reconciliation; unless one is set sooner.
    pub(crate) async fn schedule_alarm(&self) -> Result<()> {
        let (deadline, holds) =
            self.with_core(|core| (core.next_deadline(), core.socket_count() > 0));
        let Some(at) = next_alarm(deadline, holds, self.reconcile_ms, now()) else {
            return Ok(());
        };
        if self.alarm_at.get().is_some_and(|set| set <= at) {
            return Ok(());
        }
        self.alarm_at.set(Some(at));
        self.state
            .storage()
            .set_alarm(worker::ScheduledTime::new(worker::js_sys::Date::new(
                &(at.as_millis() as f64).into(),
            )))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVERY: u64 = 60_000;

    fn at(ms: u64) -> Timestamp {
        Timestamp::from_millis(ms)
    }

    #[test]
    fn an_idle_gateway_sets_no_alarm() {
        assert_eq!(next_alarm(None, false, EVERY, at(1_000)), None);
    }

    #[test]
    fn a_gateway_holding_sockets_wakes_to_reconcile_within_the_interval() {
        assert_eq!(
            next_alarm(None, true, EVERY, at(1_000)),
            Some(at(1_000 + EVERY))
        );
    }

    #[test]
    fn the_sooner_of_a_join_deadline_and_the_reconciliation_wins() {
        assert_eq!(
            next_alarm(Some(at(5_000)), true, EVERY, at(1_000)),
            Some(at(5_000))
        );
        let late = at(1_000 + EVERY + 1);
        assert_eq!(
            next_alarm(Some(late), true, EVERY, at(1_000)),
            Some(at(1_000 + EVERY))
        );
        assert_eq!(next_alarm(Some(late), false, EVERY, at(1_000)), Some(late));
    }
}
