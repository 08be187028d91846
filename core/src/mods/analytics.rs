//! `mod/analytics`: usage counts per event type and per source (observe, priority 100).
//!
//! A master reads them by sending any event to `mod/analytics`; the mod
//! answers `analytics.report` with `{total, by_type, by_source}`. Others get
//! `forbidden`. Counts are saved as the mod's state after every event, so
//! they survive restarts.

use super::{Command, Context, Mod, ModMode, ModSpec, Outbox};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::membership::Role;
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
    pub by_source: BTreeMap<String, u64>,
}

pub(super) struct AnalyticsMod {
    spec: ModSpec,
    counts: Analytics,
}

impl AnalyticsMod {
    pub(super) fn new() -> Self {
        Self {
            spec: ModSpec::standard("analytics", &["*"], 100, ModMode::Observe),
            counts: Analytics::default(),
        }
    }
}

impl Mod for AnalyticsMod {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }

    fn observe(&mut self, _cx: &Context<'_>, event: &Event, out: &mut Outbox<'_>) {
        self.counts.total += 1;
        *self
            .counts
            .by_type
            .entry(event.event_type.to_string())
            .or_default() += 1;
        *self
            .counts
            .by_source
            .entry(event.source.to_string())
            .or_default() += 1;
        out.command(Command::SaveModState {
            name: "analytics",
            state: serde_json::to_value(&self.counts).unwrap_or(Value::Null),
        });
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
