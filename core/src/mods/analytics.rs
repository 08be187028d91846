//! `mod/analytics`: usage counts per event type and per source (observe, priority 100).
//!
//! A master reads them by sending any event to `mod/analytics`; the mod
//! answers `analytics.report` with `{total, by_type, by_source, by_minute}`
//! (`GET /v1/analytics` reads the same, [`crate::Network::analytics`]). Others get
//! `forbidden`. Counts are saved as the mod's state at most once per
//! [`SAVE_INTERVAL_MS`] of network time and whenever a report is read, so a
//! restart loses at most that interval's counts. At most [`MAX_KEYS`] event
//! types and as many sources are counted by name; the rest are counted
//! together (`other_types`, `other_sources`), so the saved state stays far
//! below a storage row's size (a Durable Object's SQLite row holds 2 MB) however
//! many names members make up.

use super::api::{Command, Context, Mod, ModMode, ModSpec, Outbox};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::standing::Role;
use crate::ids::time::Timestamp;
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
    /// Events of types seen after [`MAX_KEYS`] others.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub other_types: u64,
    /// Events from sources seen after [`MAX_KEYS`] others.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub other_sources: u64,
    /// Events per minute over time: the minute's start (unix ms) → events, the
    /// last [`MINUTES_KEPT`] minutes that saw any.
    #[serde(default)]
    pub by_minute: BTreeMap<u64, u64>,
}

/// Minutes of the time series kept.
pub const MINUTES_KEPT: usize = 24 * 60;

impl Analytics {
    /// Counts one event of `event_type` from `source` at `now`.
    pub fn count(&mut self, event_type: &str, source: &Address, now: Timestamp) {
        self.total += 1;
        bump(&mut self.by_type, &mut self.other_types, event_type);
        bump(&mut self.by_source, &mut self.other_sources, source);
        *self
            .by_minute
            .entry(now.as_millis() - now.as_millis() % 60_000)
            .or_default() += 1;
        while self.by_minute.len() > MINUTES_KEPT {
            self.by_minute.pop_first();
        }
    }
}

/// Event types, and sources, counted by name at most.
pub const MAX_KEYS: usize = 1_000;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Least time between two saves of the counts.
pub const SAVE_INTERVAL_MS: u64 = 1_000;

pub(super) struct AnalyticsMod {
    spec: ModSpec,
    counts: Analytics,
    last_saved: Option<Timestamp>,
}

impl AnalyticsMod {
    pub(super) fn new() -> Self {
        Self {
            spec: ModSpec::standard("analytics", &["*"], 100, ModMode::Observe),
            counts: Analytics::default(),
            last_saved: None,
        }
    }

    fn save(&mut self, now: Timestamp, out: &mut Outbox<'_>) {
        self.last_saved = Some(now);
        out.command(Command::SaveModState {
            name: "analytics",
            state: serde_json::to_value(&self.counts).unwrap_or(Value::Null),
        });
    }
}

/// Counts one more for `key`, cloning it only the first time it is seen;
/// past [`MAX_KEYS`] names, a new one counts in `other`.
fn bump<K, Q>(counts: &mut BTreeMap<K, u64>, other: &mut u64, key: &Q)
where
    K: Ord + std::borrow::Borrow<Q>,
    Q: Ord + ToOwned<Owned = K> + ?Sized,
{
    let full = counts.len() >= MAX_KEYS;
    match counts.get_mut(key) {
        Some(count) => *count += 1,
        None if full => *other += 1,
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
        self.counts
            .count(event.event_type.as_str(), &event.source, cx.now);
        if self
            .last_saved
            .is_none_or(|at| cx.now.millis_since(at) >= SAVE_INTERVAL_MS)
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

    fn report(&self) -> Option<Value> {
        serde_json::to_value(&self.counts).ok()
    }

    fn restore(&mut self, state: &Value) {
        if let Ok(counts) = serde_json::from_value(state.clone()) {
            self.counts = counts;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::address::MAX_NAME_LEN;
    use crate::ids::event_type::MAX_EVENT_TYPE_LEN;
    use crate::ids::network_id::MAX_NETWORK_ID_LEN;

    /// The saved state of counts past the bound of names, each as long as names may be.
    #[test]
    fn the_saved_counts_stay_small_however_many_names_are_made_up() {
        let mut counts = Analytics::default();
        for n in 0..3 * MAX_KEYS {
            let kind = format!("t{n:06}.{}", "x".repeat(MAX_EVENT_TYPE_LEN - 8));
            let network = "n".repeat(MAX_NETWORK_ID_LEN);
            let name = format!("{n:06}{}", "a".repeat(MAX_NAME_LEN - 6));
            let source: Address = format!("{network}::agent:{name}").parse().unwrap();
            counts.count(&kind, &source, Timestamp::from(n as u64 * 60_000));
        }
        assert_eq!(counts.by_minute.len(), MINUTES_KEPT);
        assert_eq!(counts.by_minute.values().sum::<u64>(), MINUTES_KEPT as u64);
        assert_eq!(counts.by_type.len(), MAX_KEYS);
        assert_eq!(counts.other_types, 2 * MAX_KEYS as u64);
        assert_eq!(counts.other_sources, 2 * MAX_KEYS as u64);
        let saved = serde_json::to_string(&counts).unwrap();
        assert!(saved.len() < 1024 * 1024, "{} bytes", saved.len());
        // What was saved is restored, the overflow included.
        assert_eq!(serde_json::from_str::<Analytics>(&saved).unwrap(), counts);
        // Counts saved before the bound existed still restore.
        let old: Analytics =
            serde_json::from_value(json!({"total": 1, "by_type": {}, "by_source": {}})).unwrap();
        assert_eq!(old.other_types, 0);
        assert!(!serde_json::to_string(&old).unwrap().contains("other"));
    }
}
