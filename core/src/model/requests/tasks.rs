//! The payloads of the `task.*` events a member sends (ACPs AIP): what
//! `crate::network`'s task handlers read. Ids are text here, as sent; the
//! handlers look them up or check them.

use super::field::{AsSent, Object};
use serde::Deserialize;
use serde_json::{Map, Value};

/// One part of a task message as sent (`{text}`, `{data}`, `{file}`).
pub type Part = Map<String, Value>;

/// The task an event is about: `{task}`, by every `task.*` event but `create`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct TaskRef {
    /// The task's id.
    pub task: AsSent<String>,
}

/// A message's parts: `{parts}`, `{message: {parts}}` or `{artifact: {parts}}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct TaskParts {
    /// A2A's form: the parts of a message.
    pub message: AsSent<Object<PartList>>,
    /// The parts of an artifact.
    pub artifact: AsSent<Object<PartList>>,
    /// The parts themselves.
    pub parts: AsSent<Vec<Part>>,
}

/// An object holding `parts`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct PartList {
    /// Its parts.
    pub parts: AsSent<Vec<Part>>,
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

/// `task.create`'s payload (beside its [`TaskParts`]).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct TaskCreate {
    /// The conversation it belongs to (default: the task's own id).
    pub context: AsSent<String>,
    /// The skill it asks for.
    pub skill: AsSent<String>,
    /// The requester confirms completion itself.
    pub confirm: AsSent<bool>,
    /// The member it is asked for (an assistant's task given for a person).
    pub on_behalf_of: AsSent<String>,
    /// The partners of a hybrid task (addresses of the channel's members).
    pub partners: AsSent<Vec<Value>>,
    /// The sender's own id for its message (A2A's `messageId`).
    pub message_id: AsSent<String>,
}

/// `task.update`'s payload (beside its [`TaskRef`] and [`TaskParts`]).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct TaskUpdate {
    /// The new state (`working`, …).
    pub state: AsSent<String>,
    /// `"message"`: the partner answers with one message instead of a task.
    pub answer: AsSent<String>,
    /// An external A2A partner's id for the task.
    pub external: AsSent<String>,
    /// The sender's own id for its message.
    pub message_id: AsSent<String>,
}

/// `task.message`'s payload (beside its [`TaskRef`] and [`TaskParts`]).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct TaskMessageSent {
    /// The sender's own id for it.
    pub message_id: AsSent<String>,
}

/// An artifact's name and id.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct ArtifactNames {
    /// Its name for people.
    pub name: AsSent<String>,
    /// Its id within the task (default: `artifact-N`).
    pub id: AsSent<String>,
}

/// `task.artifact`'s payload: `{artifact: {name?, id?, parts}}`, or the
/// artifact's fields in the payload itself.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct TaskArtifactAdd {
    /// The artifact, A2A's form.
    pub artifact: AsSent<Object<ArtifactNames>>,
    /// Its name, when there is no `artifact`.
    pub name: AsSent<String>,
    /// Its id, when there is no `artifact`.
    pub id: AsSent<String>,
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

/// `task.list`'s payload: `{state?, limit?}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct TaskList {
    /// Only tasks in this state.
    pub state: AsSent<String>,
    /// Most tasks to list.
    pub limit: AsSent<u64>,
}

/// `task.push`'s payload (beside its [`TaskRef`]): `{set: {…}}` or `{remove: id}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct TaskPush {
    /// The id of the target to remove.
    pub remove: AsSent<String>,
    /// The target to set.
    pub set: AsSent<Object<PushSet>>,
}

/// A push target to set (A2A's push notification config).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct PushSet {
    /// Where notifications go (http or https).
    pub url: AsSent<String>,
    /// The target's id (default: `push-N`).
    pub id: AsSent<String>,
    /// A token sent with each notification.
    pub token: AsSent<String>,
    /// The authentication scheme.
    pub scheme: AsSent<String>,
    /// The credentials for the scheme.
    pub credentials: AsSent<String>,
    /// The A2A version of the notifications (default `1.0`).
    pub version: AsSent<String>,
}
