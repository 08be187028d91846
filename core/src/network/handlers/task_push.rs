//! Push notifications of tasks: `task.push` sets or removes where a task's
//! requester wants them, and every change of a task queues one per target
//! ([`crate::model::push`]); the host sends them from its alarm. A target's
//! URL must pass the network's outbound policy ([`crate::outbound`]) when it
//! is set, and again when each notification is rendered.
//!
//! A target is its requester's alone: `task.push` goes to `core` (so it
//! reaches no partner or channel, live or from the log), and its token and
//! credentials are kept out of the logged and observed event.
//! Guards, transforms and agent mods never see them either: they are taken
//! out of the event when it arrives and put back only for this handler
//! ([`crate::network::pushes::secrets`]).

use super::payload::invalid;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::model::push::{MAX_TARGETS, PendingPush, PushTarget};
use crate::model::requests::field::{nested, read};
use crate::model::requests::tasks::TaskPush;
use crate::model::state::{Row, RowKind};
use crate::model::task::Task;
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, Outcome, logged};
use serde_json::{Value, json};

/// Sets (`{task, set: {url, id?, token?, scheme?, credentials?, version?}}`)
/// or removes (`{task, remove: id}`) a push target of a task, by its requester.
pub(super) fn configure(network: &mut Network, event: &Event) -> Handled {
    if event.target != Address::core() {
        return Err(invalid(
            "task.push goes to core: push targets are the requester's alone",
        ));
    }
    let requested = |task: &Task, who: &Address| &task.requester == who;
    let refusal = "only its requester sets push notifications of task";
    let outbound = network.outbound.clone();
    let task = super::tasks::named_task(network, event, requested, refusal)?;
    let id = task.id.clone();
    let mut outcome = logged();
    let mut removed = None;
    let request = read::<TaskPush>(&event.payload);
    if let Some(remove) = request.remove.given() {
        task.push.retain(|t| t.id != remove);
        let key = format!("{id}/{remove}");
        outcome.effects.push(Effect::Remove {
            kind: RowKind::Push,
            key: key.clone(),
        });
        removed = Some(key);
    } else {
        if request.set.is_absent() {
            return Err(invalid("payload.set or payload.remove is required"));
        }
        let set = nested(request.set);
        let url = set
            .url
            .given()
            .filter(|u| (u.starts_with("https://") || u.starts_with("http://")) && u.len() <= 2048)
            .ok_or_else(|| invalid("set.url must be an http(s) URL"))?;
        // The outbound policy: no host that is not public, as the runtime reads the URL.
        let url = outbound
            .check(&url)
            .map_err(|e| invalid(format!("set.url: {}", e.described())))?
            .as_str()
            .to_owned();
        let target_id = set
            .id
            .given()
            .filter(|i| !i.is_empty() && i.len() <= 128)
            .unwrap_or_else(|| format!("push-{}", task.push.len() + 1));
        task.push.retain(|t| t.id != target_id);
        if task.push.len() >= MAX_TARGETS {
            return Err(invalid(format!(
                "a task has at most {MAX_TARGETS} push targets"
            )));
        }
        task.push.push(PushTarget {
            id: target_id.clone(),
            url,
            token: set.token.given().filter(|t| !t.is_empty()),
            scheme: set.scheme.given().filter(|t| !t.is_empty()),
            credentials: set.credentials.given(),
            version: set.version.given().unwrap_or_else(|| "1.0".into()),
            owner: event.source.clone(),
        });
        outcome.ack.insert("push".into(), json!(target_id));
    }
    outcome
        .effects
        .push(Effect::Store(Row::Task(Box::new(task.clone()))));
    if let Some(key) = removed {
        // Its queued notification goes too.
        network.state.pushes.remove(&key);
    }
    outcome.ack.insert("task".into(), json!(id));
    Ok(outcome)
}

/// Queues a notification per push target of the task a handler changed
/// (named by its ack).
pub(super) fn queue(network: &mut Network, outcome: &mut Outcome, now: Timestamp) {
    let Some(id) = outcome.ack.get("task").and_then(Value::as_str) else {
        return;
    };
    let Some(task) = network.state.tasks.get(id) else {
        return;
    };
    // The seq this change is logged at: it orders the task's notifications.
    let generation = network.last_seq.saturating_add(1);
    for target in &task.push {
        let pending = match network
            .state
            .pushes
            .get_mut(&format!("{}/{}", task.id, target.id))
        {
            Some(queued) => {
                queued.replace(generation, now);
                queued.clone()
            }
            None => PendingPush::new(task.id.as_str(), &target.id, generation, now),
        };
        outcome
            .effects
            .push(Effect::Store(Row::Push(pending.clone())));
        network.state.pushes.insert(pending.key.clone(), pending);
    }
}
