//! `mod/analytics`: usage counts per event type and per source (observe, priority 100).
//!
//! A master reads them by sending any event to `mod/analytics`; the mod
//! answers `analytics.report` with `{total, by_type, by_source}`. Others get
//! `forbidden`. Counts are saved as the mod's state at most once per
//! [`SAVE_INTERVAL_MS`] of network time and whenever a report is read, so a
//! restart loses at most that interval's counts.

use super::api::{Command, Context, Mod, ModMode, ModSpec, Outbox};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::standing::Role;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The counts `mod/analytics` keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analytics {
    /// Events seen.
    pub total: u64,
    /// Events per type.
    pub by_type: BTreeMap<String, u64>,
    /// Events per source address.
    pub by_source: BTreeMap<Address, u64>,
}

/// Least time between two saves of the counts.
pub const SAVE_INTERVAL_MS: u64 = 1_000;

pub(super) struct AnalyticsMod {
    spec: ModSpec,
    counts: Analytics,
    last_saved: Option<u64>,
}

impl AnalyticsMod {
    pub(super) fn new() -> Self {
        Self {
            spec: ModSpec::standard("analytics", &["*"], 100, ModMode::Observe),
            counts: Analytics::default(),
            last_saved: None,
        }
    }

    fn save(&mut self, now: u64, out: &mut Outbox<'_>) {
        self.last_saved = Some(now);
        out.command(Command::SaveModState {
            name: "analytics",
            state: serde_json::to_value(&self.counts).unwrap_or(Value::Null),
        });
    }
}

/// Counts one more for `key`, cloning it only the first time it is seen.
fn bump<K, Q>(counts: &mut BTreeMap<K, u64>, key: &Q)
where
    K: Ord + std::borrow::Borrow<Q>,
    Q: Ord + ToOwned<Owned = K> + ?Sized,
{
    match counts.get_mut(key) {
        Some(count) => *count += 1,
        None => {
            counts.insert(key.to_owned(), 1);
        }
    }
}

impl Mod for AnalyticsMod {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }

    fn observe(&mut self, cx: &Context<'_>, event: &Event, out: &mut Outbox<'_>) {
        self.counts.total += 1;
        bump(&mut self.counts.by_type, event.event_type.as_str());
        bump(&mut self.counts.by_source, &event.source);
        if self
            .last_saved
            .is_none_or(|at| cx.now.saturating_sub(at) >= SAVE_INTERVAL_MS)
        {
            self.save(cx.now, out);
        }
    }

    fn handle(
        &mut self,
        cx: &Context<'_>,
        event: &Event,
        out: &mut Outbox<'_>,
    ) -> Result<(), Rejection> {
        if cx.state.role_of(&event.source) != Some(Role::Master) {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                "only masters may read analytics",
            ));
        }
        self.save(cx.now, out);
        let report = "analytics.report"
            .parse()
            .map_err(|_| Rejection::new(ErrorCode::InvalidRequest, "bad type"))?;
        out.emit(
            &self.spec.address.clone(),
            report,
            event.source.clone(),
            json!(self.counts),
            Some(event),
        );
        Ok(())
    }

    fn restore(&mut self, state: &Value) {
        if let Ok(counts) = serde_json::from_value(state.clone()) {
            self.counts = counts;
        }
    }
}
