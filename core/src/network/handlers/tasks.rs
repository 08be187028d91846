//! Handlers for `task.*` events (ACPs AIP): create, message, update,
//! artifact and cancel. Each checks the sender's part in the task and the
//! transition ([`crate::model::task`]), stores the task and routes the event
//! to the task's other side (its channel in group and hybrid modes).

use super::payload::invalid;
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::{Address, Entity, ResourceKind};
use crate::ids::standing::Role;
use crate::model::access::{AccessRule, Permissions};
use crate::model::state::{Resource, Row};
use crate::model::task::{
    MAX_ARTIFACTS, MAX_CLIENT_ID, Task, TaskArtifact, TaskMessage, TaskMode, TaskRole, TaskState,
};
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Outcome, routed};
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

fn parts_of(event: &Event) -> Result<Vec<Value>, Rejection> {
    parts_in(&event.payload)
}

/// `{parts}`, `{message: {parts}}` or `{artifact: {parts}}` of a payload.
fn parts_in(body: &Value) -> Result<Vec<Value>, Rejection> {
    let parts = ["message", "artifact"]
        .iter()
        .find_map(|key| body.get(*key).and_then(|m| m.get("parts")))
        .or_else(|| body.get("parts"));
    match parts {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(parts)) if parts.iter().all(Value::is_object) => Ok(parts.clone()),
        Some(_) => Err(invalid(
            "payload.parts is a list of objects ({text}, {data}, {file})",
        )),
    }
}

fn message(event: &Event, role: TaskRole, parts: Vec<Value>, now: u64) -> TaskMessage {
    TaskMessage {
        id: event.id.to_string(),
        from: event.source.clone(),
        role,
        parts,
        at: now,
        client_id: event
            .payload
            .get("message_id")
            .and_then(Value::as_str)
            .filter(|id| !id.is_empty() && id.len() <= MAX_CLIENT_ID)
            .map(str::to_owned),
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
    let id = event
        .payload
        .get("task")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("payload.task must be a task id"))?;
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
pub(super) fn create(network: &mut Network, event: &Event, now: u64) -> Result<Outcome, Rejection> {
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
            let named = super::payload::member_list_at(event, "partners")?;
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
    let on_behalf_of = match event.payload.get("on_behalf_of") {
        None | Some(Value::Null) => None,
        Some(Value::String(who)) => Some(
            who.parse::<Address>()
                .ok()
                .filter(|a| network.state.members.contains_key(a))
                .ok_or_else(|| invalid("payload.on_behalf_of must be a member's address"))?,
        ),
        Some(_) => return Err(invalid("payload.on_behalf_of must be a member's address")),
    };
    let id = event.id.to_string();
    let text = |key: &str| event.payload.get(key).and_then(Value::as_str);
    let mut task = Task {
        context: text("context").unwrap_or(&id).to_owned(),
        id,
        requester: event.source.clone(),
        partners,
        mode,
        channel,
        skill: text("skill").map(str::to_owned),
        state: TaskState::Accepted,
        status: None,
        confirm: event.payload.get("confirm") == Some(&Value::Bool(true)),
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
        task.record(message(event, TaskRole::Leader, parts, now));
    }
    network.state.tasks.insert(task.id.clone(), task.clone());
    Ok(finish(&task, Vec::new()))
}

/// `task.message`: a message in the conversation; the requester's answer
/// to a task awaiting input continues it (AIP's `continue`).
pub(super) fn message_in(
    network: &mut Network,
    event: &Event,
    now: u64,
) -> Result<Outcome, Rejection> {
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
    task.record(message(event, role, parts, now));
    Ok(finish(task, Vec::new()))
}

/// `task.update`: `payload.state` as the sender's side may set it.
pub(super) fn update(network: &mut Network, event: &Event, now: u64) -> Result<Outcome, Rejection> {
    let to = event
        .payload
        .get("state")
        .and_then(Value::as_str)
        .and_then(TaskState::parse)
        .ok_or_else(|| invalid("payload.state must be a task state (working, …)"))?;
    let parts = parts_of(event)?;
    let task = task_for(network, event)?;
    if event.payload.get("answer").and_then(Value::as_str) == Some("message") {
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
    if let (Some(id), None, TaskRole::Partner) = (
        event.payload.get("external").and_then(Value::as_str),
        &task.external,
        role,
    ) {
        task.external = Some(id.chars().take(200).collect());
    }
    if !parts.is_empty() {
        let said = message(event, role, parts, now);
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
    now: u64,
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
pub(super) fn cancel(network: &mut Network, event: &Event, now: u64) -> Result<Outcome, Rejection> {
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
pub(super) fn artifact(
    network: &mut Network,
    event: &Event,
    now: u64,
) -> Result<Outcome, Rejection> {
    let parts = parts_of(event)?;
    let body = event.payload.get("artifact").unwrap_or(&event.payload);
    let name = body.get("name").and_then(Value::as_str).unwrap_or("");
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
    let id = match body.get("id").and_then(Value::as_str) {
        Some(id) => id.to_owned(),
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
    let mut extra = Vec::new();
    #[cfg(feature = "documents")]
    extra.extend(network.create_document(&resource, Some(&content), now));
    #[cfg(not(feature = "documents"))]
    let file = Resource {
        content: Some(content),
        ..file
    };
    network.state.resources.insert(resource, file.clone());
    extra.push(Effect::Store(Row::Resource(Box::new(file))));
    Ok(finish(&task, extra))
}
