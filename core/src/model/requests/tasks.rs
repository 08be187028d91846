//! The payloads of the `task.*` events a member sends (ACPs AIP): what
//! `crate::network`'s task handlers read. Ids are text here, as sent; the
//! handlers look them up or check them.

use super::field::{AsSent, Object};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One part of a task message as sent (`{text}`, `{data}`, `{file}`).
pub type Part = Map<String, Value>;

/// The task an event is about: `{task}`, by every `task.*` event but `create`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskRef {
    /// The task's id.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub task: AsSent<String>,
}

/// A message's parts: `{parts}`, `{message: {parts}}` or `{artifact: {parts}}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskParts {
    /// A2A's form: the parts of a message.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub message: AsSent<Object<PartList>>,
    /// The parts of an artifact.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub artifact: AsSent<Object<PartList>>,
    /// The parts themselves.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub parts: AsSent<Vec<Part>>,
}

/// An object holding `parts`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PartList {
    /// Its parts.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
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
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskCreate {
    /// The conversation it belongs to (default: the task's own id).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub context: AsSent<String>,
    /// The skill it asks for.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub skill: AsSent<String>,
    /// The requester confirms completion itself.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub confirm: AsSent<bool>,
    /// The member it is asked for (an assistant's task given for a person).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub on_behalf_of: AsSent<String>,
    /// The partners of a hybrid task (addresses of the channel's members).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub partners: AsSent<Vec<Value>>,
    /// The sender's own id for its message (A2A's `messageId`).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub message_id: AsSent<String>,
}

/// `task.update`'s payload (beside its [`TaskRef`] and [`TaskParts`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskUpdate {
    /// The new state (`working`, …).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub state: AsSent<String>,
    /// `"message"`: the partner answers with one message instead of a task.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub answer: AsSent<String>,
    /// An external A2A partner's id for the task.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub external: AsSent<String>,
    /// The sender's own id for its message.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub message_id: AsSent<String>,
}

/// `task.message`'s payload (beside its [`TaskRef`] and [`TaskParts`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskMessageSent {
    /// The sender's own id for it.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub message_id: AsSent<String>,
}

/// An artifact's name and id.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ArtifactNames {
    /// Its name for people.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub name: AsSent<String>,
    /// Its id within the task (default: `artifact-N`).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub id: AsSent<String>,
}

/// `task.artifact`'s payload: `{artifact: {name?, id?, parts}}`, or the
/// artifact's fields in the payload itself.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskArtifactAdd {
    /// The artifact, A2A's form.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub artifact: AsSent<Object<ArtifactNames>>,
    /// Its name, when there is no `artifact`.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub name: AsSent<String>,
    /// Its id, when there is no `artifact`.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
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
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskList {
    /// Only tasks in this state.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub state: AsSent<String>,
    /// Most tasks to list.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub limit: AsSent<u64>,
}

/// `task.push`'s payload (beside its [`TaskRef`]): `{set: {…}}` or `{remove: id}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskPush {
    /// The id of the target to remove.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub remove: AsSent<String>,
    /// The target to set.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub set: AsSent<Object<PushSet>>,
}

/// A push target to set (A2A's push notification config).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PushSet {
    /// Where notifications go (http or https).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub url: AsSent<String>,
    /// The target's id (default: `push-N`).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub id: AsSent<String>,
    /// A token sent with each notification.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub token: AsSent<String>,
    /// The authentication scheme.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub scheme: AsSent<String>,
    /// The credentials for the scheme.
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub credentials: AsSent<String>,
    /// The A2A version of the notifications (default `1.0`).
    #[serde(skip_serializing_if = "AsSent::is_absent")]
    pub version: AsSent<String>,
}
