//! The state of one workspace's tasks: [`Tasks`] owns the list (read with
//! `task.list`) and the person's task events in flight, and is provided
//! through Leptos context. It follows the network's tasks only once a view
//! that shows them has opened ([`Tasks::follow`]: the tasks pane, a
//! document's page), and from then sees the replica's effects in
//! `on_effect`. Those views are parts loaded when opened, and so is
//! the code that reads and follows tasks: a conversation never lists them.

use super::model::{changes_a_task, summary, tasks_from};
use crate::routes::Place;
use crate::session::Session;
use agentnet_core::ErrorCode;
use agentnet_core::model::task::Task;
use agentnet_core::network::task_types as types;
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::{Address, EventId};
use leptos::prelude::*;
use serde_json::{Value, json};

/// What sees the replica's effects for [`Tasks`].
type EffectHandler = fn(&Tasks, &ReplicaEffect);

/// The person's tasks in one workspace: cheap to copy, from context with [`Tasks::get`].
#[derive(Clone, Copy)]
pub struct Tasks {
    session: Session,
    /// The tasks, newest change first, as last listed.
    pub(super) listed: RwSignal<Vec<Task>, LocalStorage>,
    /// Listed at least once since the workspace opened.
    pub(super) loaded: RwSignal<bool>,
    /// What went wrong with the last start or cancel, in words.
    pub(super) problem: RwSignal<Option<String>>,
    /// The listing in flight.
    listing: StoredValue<Option<EventId>>,
    /// A listing is asked for or in flight; `Some(true)`: tasks changed
    /// since it was asked, read again when it is answered.
    reading: StoredValue<Option<bool>>,
    /// The person's task events the network has not acked yet.
    sent: StoredValue<Vec<EventId>>,
    /// The task starts not answered yet, and the partner each went to.
    starting: StoredValue<Vec<(EventId, String)>>,
    /// Partners the network refused a task to since the roster was last
    /// read (they take none): left out of the picker at once.
    pub(super) refused: RwSignal<Vec<String>>,
    /// What sees the replica's effects once a view follows tasks: named
    /// only by [`Tasks::follow`], so it is in the views' part.
    following: StoredValue<Option<EffectHandler>>,
}

impl Tasks {
    /// The tasks of `session`'s network, provided to the components below.
    pub fn provide(session: Session) -> Self {
        let tasks = Self {
            session,
            listed: RwSignal::new_local(Vec::new()),
            loaded: RwSignal::new(false),
            problem: RwSignal::new(None),
            listing: StoredValue::new(None),
            reading: StoredValue::new(None),
            sent: StoredValue::new(Vec::new()),
            starting: StoredValue::new(Vec::new()),
            refused: RwSignal::new(Vec::new()),
            following: StoredValue::new(None),
        };
        provide_context(tasks);
        tasks
    }

    /// The tasks of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// Reads the tasks and keeps them current from now on (once; later
    /// calls do nothing). Each view that shows tasks calls it.
    pub fn follow(&self) {
        if self.following.get_value().is_none() {
            self.following.set_value(Some(Self::on_effect));
            self.refresh();
        }
    }

    /// What the replica reports, seen by `on_effect` once followed.
    pub fn see(&self, effect: &ReplicaEffect) {
        if let Some(on_effect) = self.following.get_value() {
            on_effect(self, effect);
        }
    }

    /// Reads the list again: at most one listing in flight, and one more
    /// after it however many tasks changed meanwhile (a busy task's
    /// progress does not become a read per message).
    pub fn refresh(&self) {
        let asked = self.reading.get_value().is_some();
        self.reading.set_value(Some(asked));
        if !asked {
            self.session.read_later(types::LIST, self.listing);
        }
    }

    /// The listing in flight was answered (or failed): read again if tasks changed meanwhile.
    fn listing_done(&self) {
        let again = self.reading.get_value() == Some(true);
        self.reading.set_value(None);
        if again {
            self.refresh();
        }
    }

    /// Starts a task at `partner` (an agent or a channel) with `text` as its first message.
    pub fn start(&self, partner: &str, text: &str) {
        let Ok(target) = partner.trim().parse::<Address>() else {
            self.problem.set(Some(format!(
                "“{}” is not an address (e.g. agent:helper or channel/team).",
                partner.trim()
            )));
            return;
        };
        let payload = json!({ "parts": [{ "text": text }] });
        if let Some(id) = self.send(types::CREATE, target, payload) {
            self.starting
                .update_value(|s| s.push((id, partner.trim().to_owned())));
        }
    }

    /// The artifact at `address`, if it is one of the listed tasks': its
    /// name, its task's id, the task's first words and the artifact's type
    /// (`text/markdown` for a Markdown one).
    pub fn artifact(&self, address: &str) -> Option<(String, String, String, &'static str)> {
        self.listed.with(|tasks| {
            tasks.iter().find_map(|task| {
                task.artifacts
                    .iter()
                    .find(|a| a.resource.to_string() == address)
                    .map(|a| {
                        let kind = agentnet_core::model::task::TaskArtifact::content_type_of(
                            &a.name, &a.parts,
                        );
                        (a.name.clone(), task.id.to_string(), summary(task), kind)
                    })
            })
        })
    }

    /// The partner a task start `id` went to, forgotten once answered.
    fn started_to(&self, id: EventId) -> Option<String> {
        let mut partner = None;
        self.starting.update_value(|s| {
            partner = s.iter().find(|(i, _)| *i == id).map(|(_, p)| p.clone());
            s.retain(|(i, _)| *i != id);
        });
        partner
    }

    /// Cancels the task `id`.
    pub fn cancel(&self, id: &str) {
        self.send_in_task(id, types::CANCEL, json!({ "task": id }));
    }

    /// Says `text` in the task's conversation; to a task awaiting input,
    /// the requester's message is the input it waits for.
    pub fn say(&self, id: &str, text: &str) {
        let payload = json!({ "task": id, "parts": [{ "text": text }] });
        self.send_in_task(id, types::MESSAGE, payload);
    }

    /// Sends an event of task `id` where the task's events go (its other
    /// side, or its channel).
    fn send_in_task(&self, id: &str, kind: &'static str, payload: Value) {
        let me = self.session.me.get_value();
        let audience = self
            .listed
            .with_untracked(|l| l.iter().find(|t| t.id == id).map(|t| t.audience_for(&me)));
        if let Some(Some(target)) = audience {
            self.send(kind, target, payload);
        }
    }

    fn send(&self, kind: &'static str, target: Address, payload: Value) -> Option<EventId> {
        let sent = self.session.post(kind, target, payload);
        match sent {
            Some(id) => {
                self.problem.set(None);
                self.sent.update_value(|s| s.push(id));
            }
            None => self.problem.set(Some(
                "The workspace is still opening: try again in a moment.".into(),
            )),
        }
        sent
    }

    fn was_sent(&self, id: EventId) -> bool {
        let mut found = false;
        self.sent.update_value(|s| {
            found = s.contains(&id);
            s.retain(|x| *x != id);
        });
        found
    }

    /// What the replica reports that concerns tasks.
    fn on_effect(&self, effect: &ReplicaEffect) {
        match effect {
            // A listing lost with the last connection is asked for again.
            ReplicaEffect::Online => {
                self.reading.set_value(None);
                self.refresh()
            }
            ReplicaEffect::Received(event) if changes_a_task(event.event_type.as_str()) => {
                self.refresh()
            }
            ReplicaEffect::Replied { request, reply }
                if self.listing.get_value() == Some(*request) =>
            {
                self.listed.set(tasks_from(&reply.payload));
                self.loaded.set(true);
                self.listing_done();
            }
            ReplicaEffect::RequestFailed { request, .. }
                if self.listing.get_value() == Some(*request) =>
            {
                self.listing_done();
            }
            ReplicaEffect::Accepted { id, ack, .. } if self.was_sent(*id) => {
                self.started_to(*id);
                // A new task opens at once.
                if let Some(task) = ack.get("task").and_then(Value::as_str)
                    && ack.get("state").and_then(Value::as_str) == Some("accepted")
                {
                    self.session.go(&Place::Task(task.to_owned()));
                }
                self.refresh();
            }
            ReplicaEffect::Rejected { id, rejection } if self.was_sent(*id) => {
                let partner = self.started_to(*id);
                let words = match (rejection.code, partner) {
                    (ErrorCode::TakesNoTasks, Some(partner)) => {
                        let words = format!(
                            "{partner} does not take tasks (its profile says so): choose another partner."
                        );
                        self.refused.update(|r| r.push(partner));
                        words
                    }
                    _ => format!(
                        "The network refused it: {}",
                        crate::bidi::isolate(&rejection.message)
                    ),
                };
                self.problem.set(Some(words));
            }
            _ => {}
        }
    }
}
