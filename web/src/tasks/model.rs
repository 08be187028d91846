//! Tasks as the page reads them: the listing's tasks, the text of their
//! parts, their first words, which events change a task (so the list is
//! read again), and the members a task may go to (the partner picker).

use crate::people::Person;
use crate::people::order::{Kind, kind_of, panel_order};
use agentnet_core::model::task::Task;
use agentnet_core::network::task_types as types;
use agentnet_core::sorting::sort_by;
use serde_json::Value;

/// The tasks in a `task.list.response` payload (`{tasks: […]}`); none when it does not read.
pub fn tasks_from(payload: &Value) -> Vec<Task> {
    payload
        .get("tasks")
        .and_then(|t| serde_json::from_value(t.clone()).ok())
        .unwrap_or_default()
}

/// True for the event types that change a task (not the listing's own answer).
pub fn changes_a_task(kind: &str) -> bool {
    matches!(
        kind,
        types::CREATE | types::MESSAGE | types::UPDATE | types::ARTIFACT | types::CANCEL
    )
}

/// The text of a message's or artifact's parts: text parts as they are,
/// data parts as JSON, file parts by name.
pub fn text_of(parts: &[Value]) -> String {
    parts
        .iter()
        .map(|part| {
            if let Some(text) = part.get("text").and_then(Value::as_str) {
                text.to_owned()
            } else if let Some(data) = part.get("data") {
                data.to_string()
            } else if let Some(file) = part.get("file") {
                let name = file.get("name").and_then(Value::as_str).unwrap_or("a file");
                format!("[{name}]")
            } else {
                String::new()
            }
        })
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A task's first words (its first message), or its skill, or its id.
pub fn summary(task: &Task) -> String {
    let first = task
        .history
        .first()
        .map(|m| text_of(&m.parts))
        .filter(|t| !t.is_empty());
    let mut text = first
        .or_else(|| task.skill.clone())
        .unwrap_or_else(|| format!("Task {}", task.id));
    if text.chars().count() > 80 {
        text = text.chars().take(80).collect::<String>() + "…";
    }
    text
}

/// True when `person` takes tasks: its profile says so, or it is an agent
/// that has not said (the network gives those tasks as before). People at a
/// browser take none unless they said so (the workspace cannot work a task).
pub fn takes_tasks(person: &Person) -> bool {
    match person.tasks {
        Some(takes) => takes,
        None => kind_of(&person.address) == Kind::Agent,
    }
}

/// One choice of the partner picker.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    /// The member's address (the option's value).
    pub address: String,
    /// What the option reads: its name, and "offline" when it is.
    pub label: String,
}

/// The members a task of `me`'s may go to: those that take tasks, other
/// than `me` and than `refused` (a member the network just said takes
/// none), online first and by name as in the People panel.
pub fn partner_choices(people: &[Person], me: &str, refused: &[String]) -> Vec<Choice> {
    let mut takers: Vec<&Person> = people
        .iter()
        .filter(|p| takes_tasks(p) && p.address != me && !refused.contains(&p.address))
        .collect();
    sort_by(&mut takers, |a, b| panel_order(a, b));
    takers
        .into_iter()
        .map(|p| Choice {
            address: p.address.clone(),
            label: if p.status == "online" {
                p.shown_name().to_owned()
            } else {
                format!("{} (offline)", p.shown_name())
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_listing_reads_as_tasks_and_parts_as_text() {
        let payload = json!({"tasks": [{
            "id": "t1", "context": "t1", "requester": "human:ann", "partners": ["agent:bob"],
            "mode": "direct", "state": "working", "history": [], "artifacts": [],
            "created_at": 1, "updated_at": 2
        }], "total": 1, "more": false});
        let tasks = tasks_from(&payload);
        assert_eq!(tasks.len(), 1);
        // As the core writes it: every field, timestamps past 2^32.
        let real = json!({"more": false, "total": 1, "tasks": [{
            "artifacts": [], "confirm": false, "context": "01M866R2SDZGKET33BHA9XA3Y5",
            "created_at": 1_795_504_737_076u64, "id": "01M866R2SDZGKET33BHA9XA3Y5",
            "history": [{"at": 1_795_504_737_076u64, "from": "human:guest-51378",
                "id": "01M866R2SDZGKET33BHA9XA3Y5", "parts": [{"text": "write the report"}],
                "role": "leader"}],
            "mode": "direct", "partners": ["agent:worker"], "requester": "human:guest-51378",
            "state": "completed", "updated_at": 1_795_504_737_139u64
        }]});
        assert_eq!(
            tasks_from(&real).len(),
            1,
            "a listing as the core writes it"
        );
        assert_eq!(tasks[0].state.as_str(), "working");
        assert!(tasks_from(&json!({"tasks": "no"})).is_empty());
        assert!(changes_a_task("task.update") && changes_a_task("task.artifact"));
        assert!(
            !changes_a_task(types::LIST_RESPONSE),
            "reading does not read again"
        );
        let parts = [
            json!({"text": "hello"}),
            json!({"data": {"n": 1}}),
            json!({"file": {"name": "a.txt"}}),
            json!({}),
        ];
        assert_eq!(text_of(&parts), "hello\n{\"n\":1}\n[a.txt]");
        assert_eq!(summary(&tasks[0]), "Task t1");
    }

    fn member(address: &str, status: &str, tasks: Option<bool>) -> Person {
        Person {
            tasks,
            ..Person::test(address, status)
        }
    }

    #[test]
    fn the_picker_offers_only_members_that_take_tasks() {
        let people = [
            member("agent:idle", "online", Some(false)),
            member("agent:worker10", "online", Some(true)),
            member("agent:worker2", "online", None),
            member("agent:sleepy", "offline", Some(true)),
            member("human:ann", "online", None),
            member("human:bea", "online", Some(true)),
            member("human:me", "online", Some(true)),
            member("agent:flaky", "online", Some(true)),
        ];
        let choices = partner_choices(&people, "human:me", &["agent:flaky".to_owned()]);
        let shown: Vec<(&str, &str)> = choices
            .iter()
            .map(|c| (c.address.as_str(), c.label.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                ("human:bea", "bea"),
                ("agent:worker2", "worker2"),
                ("agent:worker10", "worker10"),
                ("agent:sleepy", "sleepy (offline)"),
            ]
        );
    }
}
