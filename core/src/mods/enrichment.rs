//! `mod/enrichment`: adds who sent an event and when it arrived (transform, priority 30).
//!
//! Sets `metadata.sender = {role, verification}` from the membership record
//! and `metadata.received_at` to the network's receive time.

use super::{Context, Mod, ModMode, ModSpec, Outbox};
use crate::event::Event;
use serde_json::json;

pub(super) struct Enrichment {
    spec: ModSpec,
}

impl Enrichment {
    pub(super) fn new() -> Self {
        Self {
            spec: ModSpec::standard("enrichment", &["*"], 30, ModMode::Transform),
        }
    }
}

impl Mod for Enrichment {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }

    fn transform(&mut self, cx: &Context<'_>, event: &mut Event, _out: &mut Outbox<'_>) {
        if let Some(member) = cx.state.members.get(&event.source) {
            event.metadata.insert(
                "sender".into(),
                json!({"role": member.role, "verification": member.verification}),
            );
        }
        event.metadata.insert("received_at".into(), json!(cx.now));
    }
}
