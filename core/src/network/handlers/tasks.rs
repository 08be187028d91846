//! Handlers for `task.*` events (ACPs AIP): create, message, update,
//! artifact and cancel. Each checks the sender's part in the task and the
//! transition ([`crate::model::task`]), stores the task and routes the event
//! to the task's other side (its channel in group and hybrid modes).

use super::payload::invalid;
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::{Address, Entity, ResourceKind};
use crate::ids::standing::Role;
use crate::ids::task_id::TaskId;
use crate::ids::time::Timestamp;
use crate::model::access::{AccessRule, Permissions};
use crate::model::requests::field::{AsSent, read};
use crate::model::requests::tasks::{
    TaskArtifactAdd, TaskCreate, TaskMessageSent, TaskParts, TaskRef, TaskUpdate,
};
use crate::model::state::{Resource, Row};
use crate::model::task::{
    MAX_ARTIFACTS, MAX_CLIENT_ID, Task, TaskArtifact, TaskMessage, TaskMode, TaskRole, TaskState,
};
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, Outcome, routed};
use serde_json::{Value, json};

/// The `task.*` event types.
pub mod types {
    /// Starts a task: to its partner (direct) or a channel (group, hybrid).
    pub const CREATE: &str = "task.create";
    /// A message in a task's conversation.
    pub const MESSAGE: &str = "task.message";
    /// A state change (with an optional message).
    pub const UPDATE: &str = "task.update";
    /// A result of the task, stored as a `resource/file/…` document.
    pub const ARTIFACT: &str = "task.artifact";
    /// Cancels a task.
    pub const CANCEL: &str = "task.cancel";
    /// Sets or removes a push notification target of a task (its requester).
    pub const PUSH: &str = crate::network::pushes::secrets::TASK_PUSH;
    /// Reads the sender's tasks (to core), answered with [`LIST_RESPONSE`].
    pub const LIST: &str = "task.list";
    /// The answer to [`LIST`]: `{tasks, total, more}`.
    pub const LIST_RESPONSE: &str = "task.list.response";
}

/// Most tasks one network holds that are not finished.
pub const MAX_OPEN_TASKS: usize = 10_000;

fn not_found(id: &str) -> Rejection {
    Rejection::new(ErrorCode::NotFound, format!("no task {id}"))
}

/// The event's parts ([`TaskParts::chosen`]): a list of objects, or none.
fn parts_of(event: &Event) -> Result<Vec<Value>, Rejection> {
    let parts = read::<TaskParts>(&event.payload)
        .chosen()
        .checked(|| invalid("payload.parts is a list of objects ({text}, {data}, {file})"))?;
    Ok(parts
        .unwrap_or_default()
        .into_iter()
        .map(Value::Object)
        .collect())
}

fn message(
    event: &Event,
    role: TaskRole,
    parts: Vec<Value>,
    message_id: AsSent<String>,
    now: Timestamp,
) -> TaskMessage {
    TaskMessage {
        id: event.id.to_string(),
        from: event.source.clone(),
        role,
        parts,
        at: now,
        client_id: message_id
            .given()
            .filter(|id| !id.is_empty() && id.len() <= MAX_CLIENT_ID),
    }
}

fn stored(task: &Task) -> Effect {
    Effect::Store(Row::Task(Box::new(task.clone())))
}

/// The task `payload.task` names, when the sender is a master or `may_act`
/// says it may act on it (else `forbidden` with `refusal` and the task's id).
pub(super) fn named_task<'a>(
    network: &'a mut Network,
    event: &Event,
    may_act: fn(&Task, &Address) -> bool,
    refusal: &str,
) -> Result<&'a mut Task, Rejection> {
    let id = read::<TaskRef>(&event.payload)
        .task
        .given()
        .ok_or_else(|| invalid("payload.task must be a task id"))?;
    let id = id.as_str();
    let master = network.state.role_of(&event.source) == Some(Role::Master);
    let task = network
        .state
        .tasks
        .get_mut(id)
        .ok_or_else(|| not_found(id))?;
    if !may_act(task, &event.source) && !master {
        return Err(Rejection::new(
            ErrorCode::Forbidden,
            format!("{refusal} {id}"),
        ));
    }
    Ok(task)
}

/// The task `payload.task` names, checked that the sender is in it and that
/// the event goes where the task's events go.
fn task_for<'a>(network: &'a mut Network, event: &Event) -> Result<&'a mut Task, Rejection> {
    let refusal = format!("{} is not part of task", event.source);
    let task = named_task(network, event, Task::involves, &refusal)?;
    let id = &task.id;
    let audience = task.audience_for(&event.source);
    if audience.as_ref() != Some(&event.target) {
        return Err(invalid(format!(
            "events of task {id} from {} go to {}",
            event.source,
            audience.map_or_else(|| "nobody".to_owned(), |a| a.to_string())
        )));
    }
    Ok(task)
}

fn finish(task: &Task, extra: Vec<Effect>) -> Outcome {
    let mut outcome = routed();
    outcome.effects.extend(extra);
    outcome.effects.push(stored(task));
    outcome.ack.insert("task".into(), json!(task.id));
    outcome
        .ack
        .insert("state".into(), json!(task.state.as_str()));
    outcome
}

/// `task.create`: a new task, accepted on delivery to its partner(s).
pub(super) fn create(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let request = read::<TaskCreate>(&event.payload);
    let open = network
        .state
        .tasks
        .values()
        .filter(|t| !t.state.is_terminal());
    if open.count() >= MAX_OPEN_TASKS {
        return Err(Rejection::new(
            ErrorCode::RateLimited,
            "the network holds too many unfinished tasks",
        ));
    }
    let (mode, channel, partners) = match event.target.entity() {
        Entity::Channel(name) => {
            let channel = network.state.channels.get(name).ok_or_else(|| {
                Rejection::new(ErrorCode::UnknownTarget, format!("no channel/{name}"))
            })?;
            if !channel.members.contains(&event.source) {
                return Err(Rejection::new(
                    ErrorCode::Forbidden,
                    format!("{} is not in channel/{name}", event.source),
                ));
            }
            let named = super::payload::member_list_in(request.partners.clone(), "partners")?;
            if named.iter().any(|p| !channel.members.contains(p)) {
                return Err(invalid("payload.partners must be members of the channel"));
            }
            let (mode, partners) = if named.is_empty() {
                let others = channel.members.iter().filter(|m| *m != &event.source);
                (TaskMode::Group, others.cloned().collect())
            } else {
                (TaskMode::Hybrid, named)
            };
            (mode, Some(name.clone()), partners)
        }
        entity if entity.is_participant() => {
            let Some(partner) = network.state.members.get(&event.target) else {
                return Err(Rejection::new(
                    ErrorCode::UnknownTarget,
                    format!("{} is not a member", event.target),
                ));
            };
            if partner.profile.tasks == Some(false) {
                return Err(Rejection::new(
                    ErrorCode::TakesNoTasks,
                    format!("{} takes no tasks (its profile says so)", event.target),
                ));
            }
            (TaskMode::Direct, None, vec![event.target.clone()])
        }
        _ => return Err(invalid("a task goes to an agent or a channel")),
    };
    if partners.is_empty() || partners.contains(&event.source) && mode == TaskMode::Direct {
        return Err(invalid("a task needs a partner other than its requester"));
    }
    let not_member = || invalid("payload.on_behalf_of must be a member's address");
    let on_behalf_of = match request.on_behalf_of.checked(not_member)? {
        None => None,
        Some(who) => Some(
            who.parse::<Address>()
                .ok()
                .filter(|a| network.state.members.contains_key(a))
                .ok_or_else(not_member)?,
        ),
    };
    let id = TaskId::from(event.id);
    // An empty context is the requester's to name: it is kept as none ("").
    let context = match request.context.given() {
        Some(text) => text.parse().ok(),
        None => Some(id.as_str().parse().map_err(|e| Rejection::from(&e))?),
    };
    let mut task = Task {
        context,
        id,
        requester: event.source.clone(),
        partners,
        mode,
        channel,
        skill: request.skill.given(),
        state: TaskState::Accepted,
        status: None,
        confirm: request.confirm.given() == Some(true),
        history: Vec::new(),
        artifacts: Vec::new(),
        external: None,
        answered_by_message: false,
        on_behalf_of,
        push: Vec::new(),
        created_at: now,
        updated_at: now,
    };
    let parts = parts_of(event)?;
    if !parts.is_empty() {
        let said = message(event, TaskRole::Leader, parts, request.message_id, now);
        task.record(said);
    }
    network.state.tasks.insert(task.id.clone(), task.clone());
    Ok(finish(&task, Vec::new()))
}

/// `task.message`: a message in the conversation; the requester's answer
/// to a task awaiting input continues it (AIP's `continue`).
pub(super) fn message_in(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let parts = parts_of(event)?;
    let task = task_for(network, event)?;
    if task.state.is_terminal() {
        return Err(Rejection::new(
            ErrorCode::InvalidTransition,
            format!("task {} is {}", task.id, task.state.as_str()),
        ));
    }
    let leader = event.source == task.requester;
    if leader && task.state == TaskState::AwaitingInput {
        task.advance(&event.source, TaskState::Working, now)
            .map_err(|e| Rejection::from(&e))?;
    }
    let role = if leader {
        TaskRole::Leader
    } else {
        TaskRole::Partner
    };
    let message_id = read::<TaskMessageSent>(&event.payload).message_id;
    task.record(message(event, role, parts, message_id, now));
    Ok(finish(task, Vec::new()))
}

/// `task.update`: `payload.state` as the sender's side may set it.
pub(super) fn update(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let request = read::<TaskUpdate>(&event.payload);
    let to = request
        .state
        .as_given()
        .and_then(|state| TaskState::parse(state))
        .ok_or_else(|| invalid("payload.state must be a task state (working, …)"))?;
    let parts = parts_of(event)?;
    let task = task_for(network, event)?;
    if request.answer.as_given().map(String::as_str) == Some("message") {
        message_answer(task, event, to, parts.is_empty(), now)?;
    } else {
        task.advance(&event.source, to, now)
            .map_err(|e| Rejection::from(&e))?;
    }
    let role = if event.source == task.requester {
        TaskRole::Leader
    } else {
        TaskRole::Partner
    };
    task.status = None;
    // An external A2A partner's id for the task, named by its first answer.
    if let (Some(id), None, TaskRole::Partner) = (request.external.given(), &task.external, role) {
        task.external = Some(id.chars().take(200).collect());
    }
    if !parts.is_empty() {
        let said = message(event, role, parts, request.message_id, now);
        task.status = Some(said.clone());
        task.record(said);
    }
    Ok(finish(task, Vec::new()))
}

/// A partner's `answer: "message"`: its first and only answer, completing
/// the task at once with the update's message (through `working`); A2A
/// clients get the message itself as the result.
fn message_answer(
    task: &mut Task,
    event: &Event,
    to: TaskState,
    empty: bool,
    now: Timestamp,
) -> Result<(), Rejection> {
    if to != TaskState::Completed || empty || event.source == task.requester {
        return Err(invalid(
            "answer: \"message\" is a partner's completed update with a message",
        ));
    }
    if task.state != TaskState::Accepted {
        return Err(Rejection::new(
            ErrorCode::InvalidTransition,
            format!(
                "a message answer is the partner's first answer; the task is {} already",
                task.state.as_str()
            ),
        ));
    }
    // Both steps or neither: a refused completion leaves the task as it was.
    let mut answered = task.clone();
    answered
        .advance(&event.source, TaskState::Working, now)
        .and_then(|()| answered.advance(&event.source, to, now))
        .map_err(|e| Rejection::from(&e))?;
    answered.answered_by_message = true;
    *task = answered;
    Ok(())
}

/// `task.cancel`: any participant (or a master) ends an unfinished task.
pub(super) fn cancel(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let task = task_for(network, event)?;
    task.state
        .check(TaskState::Canceled)
        .map_err(|e| Rejection::from(&e))?;
    task.state = TaskState::Canceled;
    task.updated_at = now;
    task.status = None;
    Ok(finish(task, Vec::new()))
}

/// `task.artifact`: a partner's result, kept as a `resource/file/tasks/{task}/{id}`
/// document that the task's participants may read.
pub(super) fn artifact(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let parts = parts_of(event)?;
    let names = read::<TaskArtifactAdd>(&event.payload).names();
    let name = names.name.given().unwrap_or_default();
    let name = name.as_str();
    let task = task_for(network, event)?;
    if !task.partners.contains(&event.source) {
        return Err(Rejection::new(
            ErrorCode::Forbidden,
            "only a task's partners add artifacts",
        ));
    }
    if task.state.is_terminal() || task.artifacts.len() >= MAX_ARTIFACTS {
        return Err(Rejection::new(
            ErrorCode::InvalidTransition,
            format!("task {} takes no more artifacts", task.id),
        ));
    }
    let id = match names.id.given() {
        Some(id) => id,
        None => format!("artifact-{}", task.artifacts.len() + 1),
    };
    let resource: Address = format!("resource/file/tasks/{}/{id}", task.id)
        .parse()
        .map_err(|e| Rejection::from(&e))?;
    if task.artifacts.iter().any(|a| a.id == id) {
        return Err(Rejection::new(
            ErrorCode::AlreadyExists,
            format!("task {} has an artifact {id}", task.id),
        ));
    }
    task.artifacts.push(TaskArtifact {
        id,
        name: name.to_owned(),
        resource: resource.clone(),
        parts: parts.clone(),
    });
    task.updated_at = now;
    let task = task.clone();
    let text: String = parts
        .iter()
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n");
    let participants: Vec<Address> = std::iter::once(task.requester.clone())
        .chain(task.partners.iter().cloned())
        .collect();
    let file = Resource {
        address: resource.clone(),
        kind: ResourceKind::File,
        owner: event.source.clone(),
        description: format!("artifact {name} of task {}", task.id),
        schema: None,
        content_type: Some(TaskArtifact::content_type_of(name, &parts).into()),
        permissions: Permissions {
            read: AccessRule::Agents(participants),
            ..Permissions::default()
        },
        content: None,
    };
    let content = Value::String(text);
    let extra = network.create_document(&resource, Some(&content), now);
    // Kept here, the text lives only in the document.
    let file = Resource {
        content: Some(content).filter(|_| !network.documents_here()),
        ..file
    };
    let mut extra = extra;
    network.state.resources.insert(resource, file.clone());
    extra.push(Effect::Store(Row::Resource(Box::new(file))));
    Ok(finish(&task, extra))
}
