//! `mod/enrichment`: adds who sent an event and when it arrived (transform, priority 30).
//!
//! Sets `metadata.sender = {role, verification}` from the membership record
//! and `metadata.received_at` to the network's receive time.

use super::{Context, Mod, ModMode, ModSpec, Outbox};
use crate::event::Event;
use serde_json::{Map, Value};

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
        // Built field by field: this runs for every event, and going through
        // `json!` would serialize the role and level with serde each time.
        if let Some(member) = cx.state.members.get(&event.source) {
            let mut sender = Map::new();
            sender.insert("role".to_owned(), Value::from(member.role.as_str()));
            sender.insert(
                "verification".to_owned(),
                Value::from(member.verification.level()),
            );
            event
                .metadata
                .insert("sender".to_owned(), Value::Object(sender));
        }
        event
            .metadata
            .insert("received_at".to_owned(), Value::from(cx.now));
    }
}
