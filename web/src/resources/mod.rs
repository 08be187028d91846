//! Shared resources: what the network lists (with the person's permissions),
//! kept across reloads so it shows offline too, and tool invocations.
//!
//! [`Shared`] owns the list, the latest invocation's outcome and the two
//! requests in flight (the listing and the invocation); it is provided
//! through Leptos context and sees the replica's effects in
//! [`Shared::on_effect`]. Each tool shows one outcome, its latest: a new
//! one (waiting, a result, an error) replaces the last. The panel is in
//! [`panel`], its model in [`forms`]; results are shown for people
//! ([`shown`]) by [`outcome`].

pub mod forms;
pub mod outcome;
pub mod panel;
pub mod shown;

use crate::session::Session;
use crate::storage;
use agentnet_core::ids::event_type::core_types;
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::vocabulary::event_types::PRESENCE_CHANGED;
use agentnet_core::{Address, EventId};
use forms::{Outcome, Resource, outcome_of, resources_from};
use leptos::prelude::*;
use serde_json::{Value, json};

/// How long a tool invocation may take.
const INVOKE_TIMEOUT_MS: u64 = 30_000;

/// The shared resources of one workspace: cheap to copy, from context with [`Shared::get`].
#[derive(Clone, Copy)]
pub struct Shared {
    session: Session,
    /// What is shared, as last listed.
    listed: RwSignal<Vec<Resource>>,
    /// The outcome of the latest invocation, by tool address.
    outcome: RwSignal<Option<(String, Outcome)>>,
    /// The listing in flight, so its answer is recognised.
    listing: StoredValue<Option<EventId>>,
    /// The invocation in flight and its tool.
    invoking: StoredValue<Option<(EventId, String)>>,
}

/// Where the last listing of `network` is kept.
fn listed_key(network: &str) -> String {
    format!("resources:{network}")
}

impl Shared {
    /// The resources of `session`'s network (as last listed), provided to the components below.
    pub fn provide(session: Session) -> Self {
        let listed = storage::recall_json(&listed_key(&session.network_name()))
            .map(|payload: Value| resources_from(&payload))
            .unwrap_or_default();
        let shared = Self {
            session,
            listed: RwSignal::new(listed),
            outcome: RwSignal::new(None),
            listing: StoredValue::new(None),
            invoking: StoredValue::new(None),
        };
        provide_context(shared);
        shared
    }

    /// The resources of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// What is shared, as last listed.
    pub fn listed(&self) -> ReadSignal<Vec<Resource>> {
        self.listed.read_only()
    }

    /// The outcome of the latest invocation, by tool address.
    pub fn outcome(&self) -> ReadSignal<Option<(String, Outcome)>> {
        self.outcome.read_only()
    }

    /// Shows `message` as `tool`'s outcome in place of whatever was there
    /// (a form the person must correct); an invocation still in flight is
    /// forgotten, so its late answer cannot replace the newer outcome.
    pub fn fail(&self, tool: String, message: String) {
        self.invoking.set_value(None);
        self.outcome.set(Some((tool, Outcome::Form(message))));
    }

    /// Asks the network for the list again.
    pub fn refresh(&self) {
        self.session
            .read_later(core_types::RESOURCE_DISCOVER, self.listing);
    }

    /// Invokes `tool` with `input`; the outcome shows under it.
    pub fn invoke(&self, tool: String, input: Value) {
        let Ok(target) = tool.parse::<Address>() else {
            return;
        };
        let id = self.session.request(
            core_types::RESOURCE_INVOKE,
            target,
            json!({ "input": input }),
            INVOKE_TIMEOUT_MS,
        );
        match id {
            Some(id) => {
                self.invoking.set_value(Some((id, tool.clone())));
                self.outcome.set(Some((tool, Outcome::Waiting)));
            }
            None => self.outcome.set(Some((
                tool,
                Outcome::Error("the workspace is still opening".into()),
            ))),
        }
    }

    /// The tool of the invocation `request`, if it is the one in flight.
    fn invoked(&self, request: EventId) -> Option<String> {
        self.invoking
            .with_value(|i| i.clone())
            .filter(|(id, _)| *id == request)
            .map(|(_, tool)| tool)
    }

    /// What the replica reports that concerns the resources.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        match effect {
            ReplicaEffect::Online => self.refresh(),
            // Someone came or went: what is shared (and who owns it) may have changed too.
            ReplicaEffect::Received(event) if event.event_type.as_str() == PRESENCE_CHANGED => {
                self.refresh()
            }
            ReplicaEffect::Replied { request, reply }
                if self.listing.get_value() == Some(*request) =>
            {
                storage::keep(
                    &listed_key(&self.session.network_name()),
                    &reply.payload.to_string(),
                );
                self.listed.set(resources_from(&reply.payload));
            }
            ReplicaEffect::Replied { request, reply } => {
                if let Some(tool) = self.invoked(*request) {
                    self.outcome.set(Some((tool, outcome_of(&reply.payload))));
                }
            }
            ReplicaEffect::RequestFailed { request, rejection } => {
                if let Some(tool) = self.invoked(*request) {
                    self.outcome
                        .set(Some((tool, Outcome::Error(rejection.message.clone()))));
                }
            }
            _ => {}
        }
    }
}
