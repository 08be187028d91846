//! What each A2A JSON-RPC request does, as the member it is authenticated
//! as: a message starts a task (`task.create`) or continues one
//! (`task.message`), a cancel is `task.cancel` — each an event through the
//! network's pipeline — and reads come from the network's tasks.
//!
//! A message naming a `taskId` continues that task: one that does not exist
//! (or is not the member's) is `TaskNotFoundError`, and a `contextId` other
//! than the task's is refused as invalid params (A2A §3.4.2–3.4.3). Sends
//! are idempotent once those names are checked: a message the member sent
//! before under the same `messageId`, naming the same task (or, starting
//! one, the same agent and context), is not sent again; the answer is the
//! task it went in ([`super::resend`]). A refused transition is, per method,
//! what A2A names it: `UnsupportedOperationError` for a message to a
//! finished task, `TaskNotCancelableError` for a cancel.

use super::card;
use super::errors;
use super::list;
use super::resend;
use super::version::A2aError::{self, TaskNotCancelable, TaskNotFound, UnsupportedOperation};
use super::version::{Operation, Version, operation};
use super::wire;
use crate::bindings::exchange::BindingHost;
use crate::bindings::jsonrpc::{self, Code, Id, RpcCode, RpcError};
use crate::bindings::member::{refusal, submit};
use crate::error::ErrorCode;
use crate::ids::event_type::EventType;
use crate::ids::task_id::TaskId;
use crate::model::task::{MAX_CLIENT_ID, Task, TaskState};
use crate::network::task_types as types;
use crate::{Address, Network, Rejection, Timestamp};
use serde_json::{Map, Value, json};

/// The longest a blocking `SendMessage` waits for its task to stop working.
pub const SEND_WAIT_MS: u64 = 55_000;

/// A request that answers once its task changes: what to answer and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Watch {
    /// The JSON-RPC request it answers.
    pub request: Id,
    /// The generation it speaks.
    pub version: Version,
    /// The task.
    pub task: String,
    /// How many history messages a task answer carries (all when `None`).
    pub history: Option<usize>,
    /// When a held answer is given anyway.
    pub deadline: Timestamp,
    /// A stream whose opening waits for the partner's first answer (its
    /// task, or the message it answered with: [`super::stream::changes`]).
    pub deferred: bool,
}

/// What the host does with an A2A request.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Answer now with this JSON-RPC message.
    Now(Value),
    /// Answer with the task once it stops working ([`settled`]) or at the deadline ([`answer`]).
    Hold(Watch),
    /// Open an SSE stream: `opening` first, then [`super::stream::changes`] of `seen`
    /// until [`settled`]; `closes` when the task has settled already.
    Stream {
        /// The task to follow.
        watch: Watch,
        /// The first events (JSON-RPC messages).
        opening: Vec<Value>,
        /// The task as the opening shows it.
        seen: Box<Task>,
        /// Close after the opening.
        closes: bool,
    },
}

/// True when a task needs nothing more from its partner for now: finished,
/// or waiting for the requester (A2A's terminal and interrupted states).
pub fn settled(task: &Task) -> bool {
    !matches!(task.state, TaskState::Accepted | TaskState::Working)
}

fn error(id: &Id, code: impl RpcCode, message: impl Into<String>) -> Reply {
    Reply::Now(errors::response(Some(id), &RpcError::new(code, message)))
}

/// The network's `rejection` as A2A names it; a refused transition is
/// `transition` (what the method's specification says it is).
fn rejected(id: &Id, rejection: &Rejection, transition: A2aError) -> Reply {
    let message = format!("{}: {}", rejection.code, rejection.message);
    let err = match rejection.code {
        ErrorCode::NotFound => RpcError::new(TaskNotFound, message),
        ErrorCode::InvalidTransition => RpcError::new(transition, message),
        ErrorCode::InvalidRequest | ErrorCode::UnknownTarget => RpcError::invalid_params(message),
        _ => return Reply::Now(errors::response(Some(id), &refusal(rejection))),
    }
    .with_data(json!({"code": rejection.code.as_str()}));
    Reply::Now(errors::response(Some(id), &err))
}

/// The task `id` as `member` may see it (a participant or a master).
fn visible<'a>(network: &'a Network, member: &Address, id: &str) -> Option<&'a Task> {
    let master = network.state().role_of(member) == Some(crate::ids::standing::Role::Master);
    network
        .state()
        .tasks
        .get(id)
        .filter(|t| master || t.involves(member))
}

/// The JSON-RPC result holding `task` (1.0's `GetTask` answers the bare task).
pub fn answer(network: &Network, member: &Address, watch: &Watch, wrap: bool) -> Value {
    match visible(network, member, &watch.task) {
        Some(task) => {
            let body = match wire::message_answer(task, watch.version) {
                Some(message) if wrap => message,
                _ => {
                    let body = wire::task(task, watch.version, watch.history);
                    if wrap {
                        wire::send_result(body, watch.version)
                    } else {
                        body
                    }
                }
            };
            jsonrpc::result(&watch.request, body)
        }
        None => errors::response(
            Some(&watch.request),
            &RpcError::new(TaskNotFound, format!("no task {}", watch.task)),
        ),
    }
}

/// Answers one request of `member` to the endpoint of `agent` (the network's when `None`).
pub fn dispatch<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    agent: Option<&Address>,
    version: Version,
    (id, method, params): (Id, &str, &Map<String, Value>),
) -> Result<Reply, H::Error> {
    let Some(op) = operation(version, method) else {
        let message = format!("no method {method}");
        return Ok(error(&id, Code::MethodNotFound, message));
    };
    let deadline = host.now().plus_millis(SEND_WAIT_MS);
    let watch = |task: &str| Watch {
        request: id.clone(),
        version,
        task: task.to_owned(),
        history: wire::history_length(params),
        deadline,
        deferred: false,
    };
    match op {
        Operation::Send | Operation::Stream => {
            let task = match send(host, network, member, agent, params)? {
                Ok(task) => task,
                Err(reply) => return Ok(reply_for(&id, reply)),
            };
            let task = task.as_str();
            super::push::configure_from_send(host, network, member, version, (&id, params, task))?;
            let mut watch = watch(task);
            let Some(current) = visible(network, member, task).cloned() else {
                return Ok(error(&id, TaskNotFound, format!("no task {task}")));
            };
            if op == Operation::Stream {
                // Until its partner answers, the stream does not know whether
                // the answer is a task or one message: it opens with that answer.
                if current.state == TaskState::Accepted {
                    watch.deferred = true;
                    return Ok(Reply::Stream {
                        opening: Vec::new(),
                        closes: false,
                        seen: Box::new(current),
                        watch,
                    });
                }
                let first = match wire::message_answer(&current, version) {
                    Some(message) => message,
                    None => wire::task_event(wire::task(&current, version, watch.history), version),
                };
                return Ok(Reply::Stream {
                    opening: vec![jsonrpc::result(&id, first)],
                    closes: settled(&current),
                    seen: Box::new(current),
                    watch,
                });
            }
            let blocking = match version {
                Version::V1 => {
                    params
                        .get("configuration")
                        .and_then(|c| c.get("returnImmediately"))
                        != Some(&Value::Bool(true))
                }
                Version::V03 => {
                    params.get("configuration").and_then(|c| c.get("blocking"))
                        != Some(&Value::Bool(false))
                }
            };
            Ok(if blocking && !settled(&current) {
                Reply::Hold(watch)
            } else {
                Reply::Now(answer(network, member, &watch, true))
            })
        }
        Operation::Get => {
            let task = task_param(params);
            Ok(Reply::Now(answer(network, member, &watch(task), false)))
        }
        Operation::Cancel => {
            let task = task_param(params).to_owned();
            let Some(target) = visible(network, member, &task).and_then(|t| t.audience_for(member))
            else {
                return Ok(error(&id, TaskNotFound, format!("no task {task}")));
            };
            let payload = json!({"task": task});
            let kind = EventType::from_static(types::CANCEL);
            let submitted = submit(host, network, member, kind, target, payload)?;
            Ok(match submitted.answer {
                Err(rejection) => rejected(&id, &rejection, TaskNotCancelable),
                Ok(_) => Reply::Now(answer(network, member, &watch(&task), false)),
            })
        }
        Operation::List => Ok(Reply::Now(jsonrpc::result(
            &id,
            list::list(network, member, params),
        ))),
        Operation::Subscribe => {
            let task = task_param(params);
            let Some(current) = visible(network, member, task).cloned() else {
                return Ok(error(&id, TaskNotFound, format!("no task {task}")));
            };
            if current.state.is_terminal() {
                let message = format!("task {task} is {}", current.state.as_str());
                return Ok(error(&id, UnsupportedOperation, message));
            }
            let watch = watch(task);
            let first = wire::task_event(wire::task(&current, version, watch.history), version);
            Ok(Reply::Stream {
                opening: vec![jsonrpc::result(&id, first)],
                closes: false,
                seen: Box::new(current),
                watch,
            })
        }
        Operation::PushConfig => Ok(Reply::Now(super::push::configure(
            host,
            network,
            member,
            version,
            (&id, method, params),
        )?)),
        Operation::ExtendedCard => Ok(error(
            &id,
            A2aError::ExtendedCardNotConfigured,
            "this agent has no extended card",
        )),
    }
}

fn task_param(params: &Map<String, Value>) -> &str {
    params
        .get("id")
        .or_else(|| params.get("name"))
        .and_then(Value::as_str)
        .map(|id| id.strip_prefix("tasks/").unwrap_or(id))
        .unwrap_or("")
}

/// Why a message could not go in: bad params or the network's refusal.
enum SendError {
    Params(String),
    Refused(Rejection),
}

fn reply_for(id: &Id, err: SendError) -> Reply {
    match err {
        SendError::Params(message) => error(id, Code::InvalidParams, message),
        SendError::Refused(rejection) => rejected(id, &rejection, UnsupportedOperation),
    }
}

/// Starts or continues a task with the request's message; its id.
fn send<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    agent: Option<&Address>,
    params: &Map<String, Value>,
) -> Result<Result<TaskId, SendError>, H::Error> {
    let Some(message) = params.get("message") else {
        return Ok(Err(SendError::Params("params.message is required".into())));
    };
    let parts = match wire::parts_in(message) {
        Ok(parts) => parts,
        Err(problem) => return Ok(Err(SendError::Params(problem))),
    };
    let text = |key: &str| message.get(key).and_then(Value::as_str);
    // Public callers share the guest's address: their message ids are not theirs alone.
    let guest = network.config().a2a_guest.as_ref() == Some(member);
    let message_id =
        text("messageId").filter(|id| !id.is_empty() && id.len() <= MAX_CLIENT_ID && !guest);
    let (kind, target, mut payload) = if let Some(task) = text("taskId") {
        let missing = || {
            let missing = Rejection::new(ErrorCode::NotFound, format!("no task {task}"));
            Ok(Err(SendError::Refused(missing)))
        };
        let Some(named) = visible(network, member, task) else {
            return missing();
        };
        if let Some(context) = text("contextId").filter(|c| *c != named.context_text()) {
            let problem = format!("contextId {context} is not the context of task {task}");
            return Ok(Err(SendError::Params(problem)));
        }
        if message_id.is_some_and(|m| resend::sent_in(named, member, m)) {
            return Ok(Ok(named.id.clone()));
        }
        let Some(target) = named.audience_for(member) else {
            return missing();
        };
        (
            types::MESSAGE,
            target,
            json!({"task": task, "parts": parts}),
        )
    } else {
        let meta = |key: &str| {
            message
                .get("metadata")
                .or_else(|| params.get("metadata"))
                .and_then(|m| m.get(key))
                .and_then(Value::as_str)
        };
        let wanted = meta("skill").or_else(|| meta("skillId"));
        let (target, skill) = match (agent, wanted) {
            (Some(agent), skill) => (agent.clone(), skill.map(str::to_owned)),
            (None, Some(id)) => {
                match card::find_skill(network.state(), id, card::Viewer::Member(member)) {
                    Some(skill) => (skill.owner, Some(skill.name)),
                    None => {
                        let problem = format!("no member offers the skill {id}");
                        return Ok(Err(SendError::Params(problem)));
                    }
                }
            }
            (None, None) => {
                let problem =
                    "a message to the network names a skill of its card in message.metadata.skill";
                return Ok(Err(SendError::Params(problem.into())));
            }
        };
        let context = text("contextId");
        let resent = message_id.and_then(|m| resend::started(network, member, &target, context, m));
        if let Some(task) = resent {
            return Ok(Ok(task));
        }
        let mut payload = json!({"parts": parts});
        if let Some(skill) = skill {
            payload["skill"] = json!(skill);
        }
        if let Some(context) = context {
            payload["context"] = json!(context);
        }
        (types::CREATE, target, payload)
    };
    if let Some(message_id) = message_id {
        payload["message_id"] = json!(message_id);
    }
    let submitted = submit(
        host,
        network,
        member,
        EventType::from_static(kind),
        target,
        payload,
    )?;
    Ok(match submitted.answer {
        Err(rejection) => Err(SendError::Refused(rejection)),
        Ok(ack) => ack
            .and_then(|a| {
                // Read raw: the ack's `task` (a task.create's) is no field of the typed `AckPayload`.
                a.payload
                    .get("task")
                    .and_then(Value::as_str)
                    .and_then(|task| task.parse().ok())
            })
            .ok_or_else(|| {
                SendError::Refused(Rejection::new(ErrorCode::Internal, "no task was made"))
            }),
    })
}
