//! Outbound A2A: external A2A agents as members (ONM §13).
//!
//! * A master posts `{"card_url"}` to `POST /networks/{id}/a2a/remotes`
//!   ([`add_request`]); the host fetches the card and [`admit`] makes its
//!   agent a member (`agent:{slug of its name}`) whose skills are
//!   `resource/tool/{slug of the skill id}` entries it registered.
//! * A `task.create`, `task.message` or `task.cancel` delivered to such a
//!   member is an A2A call from the host ([`call_for`]): `SendMessage` (or
//!   `message/send`) and `CancelTask`, to the endpoint its card names.
//! * The answer comes back as that member's own events ([`absorb`]): the
//!   artifacts, then the state changes that bring the network's task to
//!   the remote one's, through the same pipeline as any member's.

use super::remote_card::RemoteCard;
use super::version::Version;
use super::wire;
use crate::bindings::access::session::{QueryTokens, authenticate};
use crate::bindings::exchange::BindingHost;
use crate::bindings::jsonrpc::{self, Id};
use crate::bindings::member::{new_event, submit, submit_event};
use crate::bindings::message::{Method, Request, Response};
use crate::bindings::step::{Step, go_on};
use crate::event::Event;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::standing::Role;
use crate::ids::task_id::TaskId;
use crate::model::remote::RemoteAgent;
use crate::model::requests::field::read;
use crate::model::requests::tasks::TaskRef;
use crate::model::task::{Task, TaskState};
use crate::network::task_types as types;
use crate::{Address, ErrorCode, Network};
use serde_json::{Value, json};

/// The path (under `/networks/{id}`) where masters add external agents.
pub const REMOTES_PATH: &str = "/a2a/remotes";
/// The same path after `/a2a`.
pub const REMOTES_PATH_TAIL: &str = "/remotes";

/// Acknowledges delivery `seq` for the external agent `remote` (its call is
/// made), so the network does not deliver it again.
pub fn acknowledge<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    remote: &Address,
    seq: u64,
) -> Result<(), H::Error> {
    if network.state().remotes.contains_key(remote) {
        let kind = EventType::from_static(core_types::EVENT_ACK);
        submit(
            host,
            network,
            remote,
            kind,
            Address::core(),
            json!({"seq": seq}),
        )?;
    }
    Ok(())
}

/// Reads an add request: the card URL, when a master asks.
pub fn add_request<H: BindingHost>(
    host: &mut H,
    network: &Network,
    req: &Request,
) -> Result<Step<String>, H::Error> {
    if req.method != Method::Post {
        let refusal = Response::error(ErrorCode::MethodNotAllowed, "POST {\"card_url\"}");
        return Ok(Step::Answer(refusal));
    }
    let member = go_on!(authenticate(host, req, QueryTokens::Refused), Step::Answer);
    if network.state().role_of(&member) != Some(Role::Master) {
        let refusal = Response::error(ErrorCode::Forbidden, "only masters add external agents");
        return Ok(Step::Answer(refusal));
    }
    let url = serde_json::from_str::<Value>(&req.body)
        .ok()
        .and_then(|b| b.get("card_url").and_then(Value::as_str).map(str::to_owned))
        .filter(|u| u.starts_with("https://") || u.starts_with("http://"));
    let Some(url) = url else {
        let refusal = Response::error(ErrorCode::InvalidRequest, "card_url must be an http(s) URL");
        return Ok(Step::Answer(refusal));
    };
    Ok(checked(network, "card_url", &url).into())
}

/// `url` as the network's outbound policy reads it, or the 400 refusing it.
fn checked(network: &Network, what: &str, url: &str) -> Result<String, Response> {
    network
        .outbound()
        .check(url)
        .map(|c| c.as_str().to_owned())
        .map_err(|e| crate::bindings::refusals::outbound_refusal(what, &e))
}

/// `agent:{name}` from a card's name: lowercase letters, digits, `.`, `_`, `-`.
pub fn address_for(name: &str) -> Option<Address> {
    let slug = slug(name);
    format!("agent:{slug}").parse().ok()
}

fn slug(text: &str) -> String {
    let mapped: String = text
        .trim()
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '.' | '_' | '-' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '-',
        })
        .take(64)
        .collect();
    mapped.trim_matches(|c| c == '-' || c == '.').to_owned()
}

/// Makes the agent of `card` (read at `card_url`) a member with its skills;
/// the answer says its address and tools.
pub fn admit<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    card_url: &str,
    card: &Value,
) -> Result<Response, H::Error> {
    let card = RemoteCard::of(card);
    let name = card.name();
    let (Some(address), Some((endpoint, version))) = (address_for(name), card.endpoint()) else {
        return Ok(Response::error(
            ErrorCode::InvalidRequest,
            "the card needs a name and a JSON-RPC interface (supportedInterfaces or url)",
        ));
    };
    let endpoint = match checked(network, "the card's JSON-RPC endpoint", &endpoint) {
        Ok(endpoint) => endpoint,
        Err(refused) => return Ok(refused),
    };
    let known = network.state().members.contains_key(&address);
    if known && !network.state().remotes.contains_key(&address) {
        let taken = format!("{address} is a member already");
        return Ok(Response::error(ErrorCode::AlreadyExists, taken));
    }
    let remote = RemoteAgent {
        address: address.clone(),
        card_url: card_url.to_owned(),
        endpoint,
        version: version.as_str().to_owned(),
        name: name.to_owned(),
    };
    let effects = network.admit_remote(remote, host.now());
    host.apply(network, effects)?;
    let mut tools = Vec::new();
    for skill in card.skills(64) {
        let id = skill.id.as_text().map(slug);
        let Some(tool) = id.filter(|i| !i.is_empty()) else {
            continue;
        };
        let payload = json!({"address": format!("resource/tool/{tool}"),
            "description": skill.described()});
        let kind = EventType::from_static(core_types::RESOURCE_REGISTER);
        let registered = submit(host, network, &address, kind, Address::core(), payload)?;
        if registered.answer.is_ok() {
            tools.push(format!("resource/tool/{tool}"));
        }
    }
    Ok(Response::json(json!({"address": address, "tools": tools})).with_status(201))
}

/// An A2A call the host makes for a delivered event.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The external agent.
    pub remote: Address,
    /// The network's task.
    pub task: TaskId,
    /// Its endpoint.
    pub url: String,
    /// The generation it speaks.
    pub version: Version,
    /// The JSON-RPC request.
    pub body: Value,
}

/// The call that delivering `event` to `to` makes, if `to` is an external agent.
pub fn call_for(network: &Network, to: &Address, event: &Event) -> Option<Call> {
    let remote = network.state().remotes.get(to)?;
    // Checked again at every call: a stored endpoint the policy now refuses is not called.
    let url = network.outbound().check(&remote.endpoint).ok()?;
    let version = if remote.version == "1.0" {
        Version::V1
    } else {
        Version::V03
    };
    let kind = event.event_type.as_str();
    let task_id = match kind {
        types::CREATE => TaskId::from(event.id),
        types::MESSAGE | types::CANCEL => {
            read::<TaskRef>(&event.payload).task.given()?.parse().ok()?
        }
        _ => return None,
    };
    let task = network.state().tasks.get(&task_id)?;
    let (method, params) = if kind == types::CANCEL {
        let method = if version == Version::V1 {
            "CancelTask"
        } else {
            "tasks/cancel"
        };
        (method, json!({"id": task.external.clone()?}))
    } else {
        let parts = event
            .payload
            .get("parts")
            .and_then(Value::as_array)
            .cloned();
        let parts: Vec<Value> = parts
            .unwrap_or_default()
            .iter()
            .map(|p| wire::part_out(p, version))
            .collect();
        let mut message = json!({"messageId": event.id.to_string(), "parts": parts,
            "contextId": task.context_text()});
        match version {
            Version::V1 => message["role"] = json!("ROLE_USER"),
            Version::V03 => {
                message["role"] = json!("user");
                message["kind"] = json!("message");
            }
        }
        if let Some(external) = &task.external {
            message["taskId"] = json!(external);
        }
        let method = if version == Version::V1 {
            "SendMessage"
        } else {
            "message/send"
        };
        (method, json!({"message": message}))
    };
    let body = jsonrpc::Call::new(Id::Text(event.id.to_string()), method, params).to_value();
    Some(Call {
        remote: to.clone(),
        task: task_id,
        url: url.as_str().to_owned(),
        version,
        body,
    })
}

/// What the remote said: its task, or a message that answers at once.
// Free-form on purpose: the remote's task goes on as the JSON it sent (its
// parts through `wire::parts_in`, an artifact's name as any JSON).
fn remote_task(call: &Call, answer: &Value) -> Result<Value, String> {
    if let Some(error) = answer.get("error") {
        return Err(format!("the agent answered an error: {error}"));
    }
    let result = answer
        .get("result")
        .ok_or("the agent's answer has no result")?;
    let inner = match call.version {
        Version::V1 => result
            .get("task")
            .or_else(|| result.get("message"))
            .unwrap_or(result),
        Version::V03 => result,
    };
    if inner.get("status").is_some() {
        return Ok(inner.clone());
    }
    // A message instead of a task: the work is done with it, and the
    // network's own A2A callers get it as a message too.
    Ok(json!({"status": {"state": "completed", "message": inner}, "answeredByMessage": true}))
}

/// Feeds the remote's answer (`Err`: the call failed) back into the network
/// as the remote member's events for the task.
pub fn absorb<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    call: &Call,
    answer: Result<Value, String>,
) -> Result<(), H::Error> {
    let Some(task) = network.state().tasks.get(&call.task).cloned() else {
        return Ok(());
    };
    let Some(target) = task.audience_for(&call.remote) else {
        return Ok(());
    };
    let steps = match answer.and_then(|a| remote_task(call, &a)) {
        Ok(remote) => steps(&task, &remote),
        Err(problem) => {
            let mut steps = working(&task, None);
            steps.push((
                types::UPDATE,
                json!({"state": "failed", "parts": [{"text": problem}]}),
            ));
            steps
        }
    };
    for (kind, mut payload) in steps {
        payload["task"] = json!(call.task);
        let event = new_event(
            host,
            network,
            &call.remote,
            EventType::from_static(kind),
            target.clone(),
            payload,
        );
        submit_event(host, network, &call.remote, event)?;
    }
    Ok(())
}

fn working(task: &Task, external: Option<&str>) -> Vec<(&'static str, Value)> {
    let mut payload = json!({"state": "working"});
    if let Some(external) = external {
        payload["external"] = json!(external);
    }
    match task.state {
        TaskState::Accepted | TaskState::AwaitingInput => vec![(types::UPDATE, payload)],
        _ => Vec::new(),
    }
}

/// The events that bring `task` to the remote's task.
fn steps(task: &Task, remote: &Value) -> Vec<(&'static str, Value)> {
    let external = remote.get("id").and_then(Value::as_str);
    let state = remote
        .pointer("/status/state")
        .and_then(Value::as_str)
        .and_then(TaskState::from_a2a)
        .unwrap_or(TaskState::Working);
    let parts = |v: Option<&Value>| -> Vec<Value> {
        v.and_then(|m| m.get("parts"))
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |ps| {
                ps.iter()
                    .filter_map(|p| wire::parts_in(&json!({"parts": [p]})).ok()?.pop())
                    .collect()
            })
    };
    let said = parts(remote.pointer("/status/message"));
    if remote.get("answeredByMessage") == Some(&Value::Bool(true))
        && task.state == TaskState::Accepted
        && !said.is_empty()
    {
        let answer = json!({"state": "completed", "answer": "message", "parts": said});
        return vec![(types::UPDATE, answer)];
    }
    let mut out = if state == TaskState::Canceled || state == TaskState::Rejected {
        Vec::new()
    } else {
        working(task, external)
    };
    let known: Vec<&str> = task.artifacts.iter().map(|a| a.id.as_str()).collect();
    for artifact in remote
        .get("artifacts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = artifact
            .get("artifactId")
            .and_then(Value::as_str)
            .map(slug)
            .unwrap_or_default();
        if id.is_empty() || known.contains(&id.as_str()) {
            continue;
        }
        let name = artifact.get("name").cloned().unwrap_or(json!(""));
        out.push((
            types::ARTIFACT,
            json!({"artifact": {"id": id, "name": name, "parts": parts(Some(artifact))}}),
        ));
    }
    let to = match state {
        TaskState::Accepted | TaskState::Working => return out,
        TaskState::AwaitingCompletion => TaskState::AwaitingInput,
        TaskState::Rejected if task.state != TaskState::Accepted => TaskState::Failed,
        other => other,
    };
    let mut payload = json!({"state": to.as_str(), "parts": said});
    if let (Some(external), true) = (external, out.is_empty()) {
        payload["external"] = json!(external);
    }
    out.push((types::UPDATE, payload));
    out
}

#[cfg(test)]
#[path = "remote_tests.rs"]
mod tests;
