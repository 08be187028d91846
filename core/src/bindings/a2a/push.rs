//! A2A push notifications: the configuration methods (1.0's
//! `…TaskPushNotificationConfig…`, 0.3's `tasks/pushNotificationConfig/…`)
//! as `task.push` events of the requester, and the signed request each
//! queued notification becomes ([`render`]).
//!
//! A notification is `POST {url}` with the task as a `StreamResponse`
//! (`{"task": …}`; 0.3: the task), `Content-Type: application/a2a+json`,
//! `Authorization: {scheme} {credentials}` when configured,
//! `X-A2A-Notification-Token: {token}`, and — when a token is set —
//! `X-Agentnet-Signature: t={unix ms},v1={hex HMAC-SHA256 of "{t}.{body}" under the token}`.
//!
//! A push target is its owner's alone: `task.push` goes to `core` (never to
//! the task's partner or channel), `Get…`/`List…` show a caller only the
//! targets it set, and the network's shared A2A guest (anonymous callers)
//! is never shown a token or credentials, only the target's id and URL.

use super::version::{A2aError, Version};
use super::wire;
use crate::bindings::exchange::BindingHost;
use crate::bindings::jsonrpc::{self, Code, Id, RpcCode, RpcError};
use crate::bindings::member::submit;
use crate::crypto::hmac_sha256_hex;
use crate::ids::event_type::EventType;
use crate::ids::time::Timestamp;
use crate::model::push::{PendingPush, PushTarget};
use crate::network::task_types as types;
use crate::{Address, Network};
use serde_json::{Map, Value, json};

/// A notification as an HTTP request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// Where.
    pub url: String,
    /// Its headers.
    pub headers: Vec<(String, String)>,
    /// Its body.
    pub body: String,
}

/// Whether a config as answered carries its secrets (token, credentials).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Secrets {
    Shown,
    Withheld,
}

fn config_json(task: &str, target: &PushTarget, version: Version, secrets: Secrets) -> Value {
    let mut out = json!({"id": target.id, "url": target.url});
    if let (Some(token), Secrets::Shown) = (&target.token, secrets) {
        out["token"] = json!(token);
    }
    if let Some(scheme) = &target.scheme {
        out["authentication"] = match secrets {
            Secrets::Shown => json!({"scheme": scheme, "credentials": target.credentials}),
            Secrets::Withheld => json!({"scheme": scheme}),
        };
    }
    match version {
        Version::V1 => {
            out["taskId"] = json!(task);
            out
        }
        Version::V03 => json!({"taskId": task, "pushNotificationConfig": out}),
    }
}

fn error(id: &Id, code: impl RpcCode, message: impl Into<String>) -> Value {
    jsonrpc::error(Some(id), &RpcError::new(code, message))
}

/// The task and the config a request names: 1.0 says `taskId` and `id`;
/// 0.3's get, list and delete say `id` (the task) and `pushNotificationConfigId`.
fn names(version: Version, method: &str, params: &Value) -> (String, Option<String>) {
    let text = |key: &str| {
        wire::field(params, key)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let (task, config) = match version {
        Version::V03 if !method.ends_with("/set") => (
            text("id").or_else(|| text("taskId")),
            text("pushNotificationConfigId"),
        ),
        _ => (text("taskId"), text("id")),
    };
    (task.unwrap_or_default(), config)
}

/// A send's `configuration.taskPushNotificationConfig` (0.3:
/// `pushNotificationConfig`), set on its `task` as the push methods set one.
pub fn configure_from_send<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    version: Version,
    (id, params, task): (&Id, &Map<String, Value>, &str),
) -> Result<(), H::Error> {
    let push = params.get("configuration").and_then(|c| {
        c.get("taskPushNotificationConfig")
            .or_else(|| c.get("pushNotificationConfig"))
    });
    if let Some(config) = push {
        let mut set = Map::new();
        set.insert("taskId".into(), json!(task));
        if let Value::Object(fields) = config {
            set.extend(fields.clone());
        }
        set.insert("pushNotificationConfig".into(), config.clone());
        let method = match version {
            Version::V1 => "CreateTaskPushNotificationConfig",
            Version::V03 => "tasks/pushNotificationConfig/set",
        };
        configure(host, network, member, version, (id, method, &set))?;
    }
    Ok(())
}

/// Answers one of the push configuration methods (`method`) of `member`:
/// the JSON-RPC response.
pub fn configure<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    version: Version,
    (id, method, params): (&Id, &str, &Map<String, Value>),
) -> Result<Value, H::Error> {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let whole = Value::Object(params.clone());
    let (task, config_id) = names(version, method, &whole);
    let Some(current) = network
        .state()
        .tasks
        .get(task.as_str())
        .filter(|t| t.involves(member))
    else {
        return Ok(error(id, A2aError::TaskNotFound, format!("no task {task}")));
    };
    // The configuration is the requester's: its event reaches nobody else.
    let target = Address::core();
    // Anonymous callers share the guest's address: none of them is shown another's secrets.
    let secrets = if network.config().a2a_guest.as_ref() == Some(member) {
        Secrets::Withheld
    } else {
        Secrets::Shown
    };
    let mine: Vec<&PushTarget> = current.push.iter().filter(|p| &p.owner == member).collect();
    let (is_set, is_delete, is_list) = (
        method == "CreateTaskPushNotificationConfig" || method.ends_with("/set"),
        method == "DeleteTaskPushNotificationConfig" || method.ends_with("/delete"),
        method == "ListTaskPushNotificationConfigs" || method.ends_with("/list"),
    );
    if is_set {
        let config = match version {
            Version::V1 => whole.clone(),
            Version::V03 => whole
                .get("pushNotificationConfig")
                .cloned()
                .unwrap_or(Value::Null),
        };
        let mut set = json!({"url": text(&config, "url"), "version": version.as_str()});
        for key in ["id", "token"] {
            if let Some(v) = text(&config, key) {
                set[key] = json!(v);
            }
        }
        if let Some(auth) = config.get("authentication") {
            set["scheme"] = json!(text(auth, "scheme").or_else(|| {
                auth.get("schemes")
                    .and_then(|s| s.get(0))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            }));
            set["credentials"] = json!(text(auth, "credentials"));
        }
        let kind = EventType::from_static(types::PUSH);
        let payload = json!({"task": task, "set": set});
        let submitted = submit(host, network, member, kind, target, payload)?;
        let made = match submitted.answer {
            Ok(ack) => ack.and_then(|a| text(&a.payload, "push")),
            Err(rejection) => return Ok(error(id, Code::InvalidParams, rejection.message)),
        };
        let stored = network.state().tasks.get(task.as_str()).and_then(|t| {
            t.push
                .iter()
                .find(|p| Some(&p.id) == made.as_ref())
                .map(|p| config_json(&task, p, version, Secrets::Shown))
        });
        return Ok(jsonrpc::result(id, stored.unwrap_or(Value::Null)));
    }
    if is_delete {
        let payload = json!({"task": task, "remove": config_id.unwrap_or_default()});
        submit(
            host,
            network,
            member,
            EventType::from_static(types::PUSH),
            target,
            payload,
        )?;
        // 1.0 answers `google.protobuf.Empty`; 0.3's schema says `null`.
        let done = match version {
            Version::V1 => json!({}),
            Version::V03 => Value::Null,
        };
        return Ok(jsonrpc::result(id, done));
    }
    let all: Vec<Value> = mine
        .iter()
        .map(|p| config_json(&task, p, version, secrets))
        .collect();
    if is_list {
        let result = match version {
            Version::V1 => json!({"configs": all, "nextPageToken": ""}),
            Version::V03 => Value::Array(all),
        };
        return Ok(jsonrpc::result(id, result));
    }
    let one = mine
        .iter()
        .find(|p| config_id.as_ref().is_none_or(|c| &p.id == c));
    Ok(match one {
        Some(p) => jsonrpc::result(id, config_json(&task, p, version, secrets)),
        None => error(
            id,
            A2aError::TaskNotFound,
            "no such push notification config",
        ),
    })
}

/// The request a queued notification is, at `now`; `None` when its task or
/// target is gone, or the network's outbound policy refuses its URL now
/// (checked again at every delivery: the URL sent is the policy's reading).
pub fn render(network: &Network, pending: &PendingPush, now: Timestamp) -> Option<Outgoing> {
    let task = network.state().tasks.get(pending.task.as_str())?;
    let target = task.push.iter().find(|t| t.id == pending.target)?;
    let url = network.outbound().check(&target.url).ok()?;
    let version = if target.version == "0.3" {
        Version::V03
    } else {
        Version::V1
    };
    let body = wire::task_event(wire::task(task, version, Some(0)), version).to_string();
    let mut headers = vec![("Content-Type".to_owned(), "application/a2a+json".to_owned())];
    if let Some(scheme) = &target.scheme {
        let credentials = target.credentials.clone().unwrap_or_default();
        headers.push(("Authorization".into(), format!("{scheme} {credentials}")));
    }
    if let Some(token) = &target.token {
        headers.push(("X-A2A-Notification-Token".into(), token.clone()));
        let signature = hmac_sha256_hex(token.as_bytes(), format!("{now}.{body}").as_bytes());
        headers.push((
            "X-Agentnet-Signature".into(),
            format!("t={now},v1={signature}"),
        ));
    }
    Some(Outgoing {
        url: url.as_str().to_owned(),
        headers,
        body,
    })
}
