//! The payloads of the `task.*` events a member sends (ACPs AIP): what
//! `crate::network`'s task handlers read. Ids are text here, as sent; the
//! handlers look them up or check them.

use super::field::{AsSent, Object, request_types};
use serde_json::{Map, Value};

/// One part of a task message as sent (`{text}`, `{data}`, `{file}`).
pub type Part = Map<String, Value>;

request_types! {
    /// The task an event is about: `{task}`, by every `task.*` event but `create`.
    pub struct TaskRef {
        /// The task's id.
        task: String,
    }

    /// A message's parts: `{parts}`, `{message: {parts}}` or `{artifact: {parts}}`.
    pub struct TaskParts {
        /// A2A's form: the parts of a message.
        message: Object<PartList>,
        /// The parts of an artifact.
        artifact: Object<PartList>,
        /// The parts themselves.
        parts: Vec<Part>,
    }

    /// An object holding `parts`.
    pub struct PartList {
        /// Its parts.
        parts: Vec<Part>,
    }
}

impl TaskParts {
    /// The parts that count: the message's, else the artifact's (when it
    /// names `parts` at all), else the payload's own.
    pub fn chosen(self) -> AsSent<Vec<Part>> {
        [self.message, self.artifact]
            .into_iter()
            .filter_map(AsSent::given)
            .map(|holder| holder.0.parts)
            .find(AsSent::is_sent)
            .unwrap_or(self.parts)
    }
}

request_types! {
    /// `task.create`'s payload (beside its [`TaskParts`]).
    pub struct TaskCreate {
        /// The conversation it belongs to (default: the task's own id).
        context: String,
        /// The skill it asks for.
        skill: String,
        /// The requester confirms completion itself.
        confirm: bool,
        /// The member it is asked for (an assistant's task given for a person).
        on_behalf_of: String,
        /// The partners of a hybrid task (addresses of the channel's members).
        partners: Vec<Value>,
        /// The sender's own id for its message (A2A's `messageId`).
        message_id: String,
    }

    /// `task.update`'s payload (beside its [`TaskRef`] and [`TaskParts`]).
    pub struct TaskUpdate {
        /// The new state (`working`, …).
        state: String,
        /// `"message"`: the partner answers with one message instead of a task.
        answer: String,
        /// An external A2A partner's id for the task.
        external: String,
        /// The sender's own id for its message.
        message_id: String,
    }

    /// `task.message`'s payload (beside its [`TaskRef`] and [`TaskParts`]).
    pub struct TaskMessageSent {
        /// The sender's own id for it.
        message_id: String,
    }

    /// An artifact's name and id.
    pub struct ArtifactNames {
        /// Its name for people.
        name: String,
        /// Its id within the task (default: `artifact-N`).
        id: String,
    }

    /// `task.artifact`'s payload: `{artifact: {name?, id?, parts}}`, or the
    /// artifact's fields in the payload itself.
    pub struct TaskArtifactAdd {
        /// The artifact, A2A's form.
        artifact: Object<ArtifactNames>,
        /// Its name, when there is no `artifact`.
        name: String,
        /// Its id, when there is no `artifact`.
        id: String,
    }
}

impl TaskArtifactAdd {
    /// The name and id that count: the `artifact`'s when the payload has
    /// one (nothing when it is no object), else the payload's.
    pub fn names(self) -> ArtifactNames {
        match self.artifact {
            AsSent::Absent => ArtifactNames {
                name: self.name,
                id: self.id,
            },
            AsSent::Given(artifact) => artifact.0,
            AsSent::Null | AsSent::Wrong(_) => ArtifactNames::default(),
        }
    }
}

request_types! {
    /// `task.list`'s payload: `{state?, limit?}`.
    pub struct TaskList {
        /// Only tasks in this state.
        state: String,
        /// Most tasks to list.
        limit: u64,
    }

    /// `task.push`'s payload (beside its [`TaskRef`]): `{set: {…}}` or `{remove: id}`.
    pub struct TaskPush {
        /// The id of the target to remove.
        remove: String,
        /// The target to set.
        set: Object<PushSet>,
    }

    /// A push target to set (A2A's push notification config).
    pub struct PushSet {
        /// Where notifications go (http or https).
        url: String,
        /// The target's id (default: `push-N`).
        id: String,
        /// A token sent with each notification.
        token: String,
        /// The authentication scheme.
        scheme: String,
        /// The credentials for the scheme.
        credentials: String,
        /// The A2A version of the notifications (default `1.0`).
        version: String,
    }
}
