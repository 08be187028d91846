//! Tasks (ACPs AIP, the same tasks A2A callers see): the person's tasks in
//! one network, each with its state, conversation and artifacts, started
//! and cancelled from here.
//!
//! [`Tasks`] owns the list (read with `task.list`, answered by the core) and
//! the person's task events in flight; it is provided through Leptos context
//! and sees the replica's effects in [`Tasks::on_effect`]: a `task.*` event
//! from the other side (progress, an artifact, a new state) or the network's
//! ack of the person's own reads the list again. The views are in [`view`].

pub mod view;

pub use view::TasksPane;

use crate::routes::Place;
use crate::session::Session;
use agentnet_core::model::task::Task;
use agentnet_core::network::task_types as types;
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::{Address, EventId};
use leptos::prelude::*;
use serde_json::{Value, json};

/// The tasks in a `task.list.response` payload (`{tasks: […]}`); none when it does not read.
pub fn tasks_from(payload: &Value) -> Vec<Task> {
    payload
        .get("tasks")
        .and_then(|t| serde_json::from_value(t.clone()).ok())
        .unwrap_or_default()
}

/// True for the event types that change a task (not the listing's own answer).
pub fn changes_a_task(kind: &str) -> bool {
    matches!(
        kind,
        types::CREATE | types::MESSAGE | types::UPDATE | types::ARTIFACT | types::CANCEL
    )
}

/// The text of a message's or artifact's parts: text parts as they are,
/// data parts as JSON, file parts by name.
pub fn text_of(parts: &[Value]) -> String {
    parts
        .iter()
        .map(|part| {
            if let Some(text) = part.get("text").and_then(Value::as_str) {
                text.to_owned()
            } else if let Some(data) = part.get("data") {
                data.to_string()
            } else if let Some(file) = part.get("file") {
                let name = file.get("name").and_then(Value::as_str).unwrap_or("a file");
                format!("[{name}]")
            } else {
                String::new()
            }
        })
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The person's tasks in one workspace: cheap to copy, from context with [`Tasks::get`].
#[derive(Clone, Copy)]
pub struct Tasks {
    session: Session,
    /// The tasks, newest change first, as last listed.
    listed: RwSignal<Vec<Task>, LocalStorage>,
    /// Listed at least once since the workspace opened.
    loaded: RwSignal<bool>,
    /// What went wrong with the last start or cancel, in words.
    problem: RwSignal<Option<String>>,
    /// The listing in flight.
    listing: StoredValue<Option<EventId>>,
    /// The person's task events the network has not acked yet.
    sent: StoredValue<Vec<EventId>>,
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
            sent: StoredValue::new(Vec::new()),
        };
        provide_context(tasks);
        tasks
    }

    /// The tasks of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// Reads the list again.
    pub fn refresh(&self) {
        self.session.read_later(types::LIST, self.listing);
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
        self.send(types::CREATE, target, payload);
    }

    /// Cancels the task `id` (sent where the task's events go).
    pub fn cancel(&self, id: &str) {
        let me = self.session.me.get_value();
        let audience = self
            .listed
            .with_untracked(|l| l.iter().find(|t| t.id == id).map(|t| t.audience_for(&me)));
        if let Some(Some(target)) = audience {
            self.send(types::CANCEL, target, json!({ "task": id }));
        }
    }

    fn send(&self, kind: &'static str, target: Address, payload: Value) {
        match self.session.post(kind, target, payload) {
            Some(id) => {
                self.problem.set(None);
                self.sent.update_value(|s| s.push(id));
            }
            None => self.problem.set(Some(
                "The workspace is still opening: try again in a moment.".into(),
            )),
        }
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
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        match effect {
            ReplicaEffect::Online => self.refresh(),
            ReplicaEffect::Received(event) if changes_a_task(event.event_type.as_str()) => {
                self.refresh()
            }
            ReplicaEffect::Replied { request, reply }
                if self.listing.get_value() == Some(*request) =>
            {
                self.listed.set(tasks_from(&reply.payload));
                self.loaded.set(true);
            }
            ReplicaEffect::Accepted { id, ack, .. } if self.was_sent(*id) => {
                // A new task opens at once.
                if let Some(task) = ack.get("task").and_then(Value::as_str)
                    && ack.get("state").and_then(Value::as_str) == Some("accepted")
                {
                    self.session.go(&Place::Task(task.to_owned()));
                }
                self.refresh();
            }
            ReplicaEffect::Rejected { id, rejection } if self.was_sent(*id) => {
                self.problem.set(Some(format!(
                    "The network refused it: {}",
                    rejection.message
                )));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_reads_as_tasks_and_parts_as_text() {
        let payload = json!({"tasks": [{
            "id": "t1", "context": "t1", "requester": "human:ann", "partners": ["agent:bob"],
            "mode": "direct", "state": "working", "history": [], "artifacts": [],
            "created_at": 1, "updated_at": 2
        }], "total": 1, "more": false});
        let tasks = tasks_from(&payload);
        assert_eq!(tasks.len(), 1);
        let real = json!({"more": false,"total":1,"tasks":[{"artifacts":[],"confirm":false,"context":"01M866R2SDZGKET33BHA9XA3Y5","created_at":1795504737076u64,"history":[{"at":1795504737076u64,"from":"human:guest-51378","id":"01M866R2SDZGKET33BHA9XA3Y5","parts":[{"text":"write the report"}],"role":"leader"}],"id":"01M866R2SDZGKET33BHA9XA3Y5","mode":"direct","partners":["agent:worker"],"requester":"human:guest-51378","state":"completed","updated_at":1795504737139u64}]});
        assert_eq!(
            tasks_from(&real).len(),
            1,
            "a listing as the core writes it"
        );
        assert_eq!(tasks[0].state.as_str(), "working");
        assert!(tasks_from(&json!({"tasks": "no"})).is_empty());
        assert!(changes_a_task("task.update") && changes_a_task("task.artifact"));
        assert!(
            !changes_a_task(types::LIST_RESPONSE),
            "reading does not read again"
        );
        let parts = [
            json!({"text": "hello"}),
            json!({"data": {"n": 1}}),
            json!({"file": {"name": "a.txt"}}),
            json!({}),
        ];
        assert_eq!(text_of(&parts), "hello\n{\"n\":1}\n[a.txt]");
    }
}
