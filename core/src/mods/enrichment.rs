//! `mod/enrichment`: adds who sent an event and when it arrived (transform, priority 30).
//!
//! Sets `metadata.sender = {role, verification}` from the membership record
//! and `metadata.received_at` to the network's receive time, as the event's
//! typed [`crate::event::enrichment::Enrichment`].

use super::api::{Context, Mod, ModMode, ModSpec, Outbox};
use crate::event::Event;
use crate::event::enrichment::{self, ENRICHMENT_KEYS, Sender};

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
        // Typed rather than JSON entries: this runs for every event (see
        // `crate::event::enrichment`). Entries the sender wrote under these names
        // are dropped; the typed fields take their place on the wire.
        for key in ENRICHMENT_KEYS {
            event.metadata.remove(key);
        }
        event.enrichment = Some(enrichment::Enrichment {
            sender: cx.state.members.get(&event.source).map(|member| Sender {
                role: member.role,
                verification: member.verification,
            }),
            received_at: cx.now,
        });
    }
}
