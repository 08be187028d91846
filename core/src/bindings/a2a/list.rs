//! `ListTasks`: the member's tasks, newest first, filtered and paged. Its
//! params are read once into [`ListParams`], as leniently as they always
//! were: a param of another type is as if left out.

use super::version::Version;
use super::wire;
use crate::model::requests::field::request_types;
use crate::model::task::{Task, TaskState};
use crate::{Address, Network};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The most tasks one `ListTasks` page holds.
pub const MAX_PAGE: usize = 100;
/// The tasks a page holds when the params do not say.
const DEFAULT_PAGE: usize = 50;

request_types! {
    /// The params of `ListTasks` it reads itself (`historyLength` is
    /// [`wire::history_length`]'s).
    pub struct ListParams {
        /// Only the tasks of this context.
        #[serde(rename = "contextId")]
        context: String,
        /// Only the tasks in this state (`TASK_STATE_…`).
        status: String,
        /// How many tasks a page holds, 1 to [`MAX_PAGE`].
        #[serde(rename = "pageSize")]
        page_size: u64,
        /// Where the page starts: the `nextPageToken` of the page before.
        #[serde(rename = "pageToken")]
        page_token: String,
        /// Whether tasks carry their artifacts.
        #[serde(rename = "includeArtifacts")]
        include_artifacts: bool,
    }
}

/// The page of `member`'s tasks that `params` ask for.
pub fn list(network: &Network, member: &Address, params: &Map<String, Value>) -> Value {
    let asked = ListParams::deserialize(params).unwrap_or_default();
    let context = asked.context.as_text();
    let state = asked.status.as_text().and_then(TaskState::from_a2a);
    // Public callers share the guest's address: they reach their tasks by id only.
    let guest = network.config().a2a_guest.as_ref() == Some(member);
    let mut tasks: Vec<&Task> = network
        .state()
        .tasks
        .values()
        .filter(|t| !guest && t.involves(member))
        .filter(|t| context.is_none_or(|c| t.context_text() == c))
        .filter(|t| state.is_none_or(|s| t.state == s))
        .collect();
    crate::sorting::sort_by(&mut tasks, |a, b| a.cmp_newest_first(b));
    let size = asked
        .page_size
        .given()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(DEFAULT_PAGE)
        .clamp(1, MAX_PAGE);
    let start: usize = asked
        .page_token
        .as_text()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let history = wire::history_length(params).or(Some(0));
    let artifacts = asked.include_artifacts.given() == Some(true);
    let page: Vec<Value> = tasks
        .iter()
        .skip(start)
        .take(size)
        .map(|t| {
            let mut task = wire::task(t, Version::V1, history);
            if !artifacts && let Value::Object(fields) = &mut task {
                fields.remove("artifacts");
            }
            task
        })
        .collect();
    let next = start + page.len();
    json!({
        "tasks": page,
        "nextPageToken": if next < tasks.len() { next.to_string() } else { String::new() },
        "pageSize": size,
        "totalSize": tasks.len(),
    })
}
