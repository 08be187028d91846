//! `task.list`: a member reads the tasks it takes part in (as requester or
//! partner, or the member a task was asked for), newest change first, answered with `task.list.response`. It is
//! how a WebSocket client (the web workspace, an npm agent) sees its tasks
//! after a reload; live changes then arrive as the `task.*` events
//! themselves. Push targets are the requester's configuration, never listed.

use super::payload::invalid;
use super::tasks::types::LIST_RESPONSE;
use crate::error::Rejection;
use crate::event::Event;
use crate::ids::time::Timestamp;
use crate::model::requests::field::read;
use crate::model::requests::tasks::TaskList;
use crate::model::task::{Task, TaskState};
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, replied};
use serde_json::{Value, json};

/// Most tasks one answer lists when the request names no `limit`.
pub const DEFAULT_LIMIT: usize = 50;
/// Most tasks one answer lists at all.
pub const MAX_LIMIT: usize = 200;
/// Most bytes of tasks one answer carries (well under the payload limit):
/// the listing stops before the task that would pass it and says `more`.
pub const MAX_LISTED_BYTES: usize = 384 * 1024;

/// The request's `{state?, limit?}`, checked.
fn filters(event: &Event) -> Result<(Option<TaskState>, usize), Rejection> {
    let request = read::<TaskList>(&event.payload);
    let state = match request
        .state
        .checked(|| invalid("payload.state must be a task state"))?
    {
        None => None,
        Some(s) => Some(
            TaskState::parse(&s)
                .ok_or_else(|| invalid(format!("payload.state must be a task state, not {s:?}")))?,
        ),
    };
    let out_of_range = || invalid(format!("payload.limit must be 1 to {MAX_LIMIT}"));
    let limit = match request.limit.checked(out_of_range)? {
        None => DEFAULT_LIMIT,
        Some(n) => usize::try_from(n)
            .ok()
            .filter(|n| (1..=MAX_LIMIT).contains(n))
            .ok_or_else(out_of_range)?,
    };
    Ok((state, limit))
}

/// A task as listed: everything but its push targets.
fn listed(task: &Task) -> Value {
    let mut shown = task.clone();
    shown.push.clear();
    serde_json::to_value(&shown).unwrap_or(Value::Null)
}

/// `task.list` to core: the sender's tasks, newest change first.
pub(super) fn list(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let (state, limit) = filters(event)?;
    // Public A2A callers share the guest's address: they reach their tasks by id only.
    let guest = network.config.a2a_guest.as_ref() == Some(&event.source);
    let mut mine: Vec<&Task> = network
        .state
        .tasks
        .values()
        .filter(|t| !guest && t.visible_to(&event.source))
        .filter(|t| state.is_none_or(|s| t.state == s))
        .collect();
    crate::sorting::sort_by(&mut mine, |a, b| a.cmp_newest_first(b));
    let total = mine.len();
    let mut tasks = Vec::new();
    let mut bytes = 0;
    for task in mine.into_iter().take(limit) {
        let value = listed(task);
        bytes += value.to_string().len();
        if bytes > MAX_LISTED_BYTES {
            break;
        }
        tasks.push(value);
    }
    let more = tasks.len() < total;
    let answer = network.reply_to(
        event,
        LIST_RESPONSE,
        json!({ "tasks": tasks, "total": total, "more": more }),
        now,
    );
    Ok(replied(Effect::Reply(answer)))
}
