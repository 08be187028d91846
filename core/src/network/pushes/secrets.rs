//! A `task.push`'s secrets (`set.token`, `set.credentials`) held apart from
//! the event while guards, transforms and agent mods see it: taken out when
//! the event arrives ([`take_secrets`]), given back for the network's own
//! handler alone ([`restore_secrets`]).

use crate::event::Event;
use serde_json::{Map, Value};

/// The event type whose secrets these are (`task_types::PUSH`).
pub(crate) const TASK_PUSH: &str = "task.push";

/// The secrets of a `task.push` (`set.token`, `set.credentials`), held
/// apart from the event while the mods see it.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PushSecrets(Map<String, Value>);

/// Takes a `task.push`'s secrets out of `event` (none for any other type).
pub(crate) fn take_secrets(event: &mut Event) -> PushSecrets {
    let mut secrets = Map::new();
    if event.event_type.as_str() == TASK_PUSH
        && let Some(Value::Object(set)) = event.payload.get_mut("set")
    {
        for key in SECRET_KEYS {
            if let Some(value) = set.remove(key) {
                secrets.insert(key.to_owned(), value);
            }
        }
    }
    PushSecrets(secrets)
}

/// Puts secrets [`take_secrets`] took back into `event`, for the handler.
pub(crate) fn restore_secrets(event: &mut Event, secrets: PushSecrets) {
    if secrets.0.is_empty() {
        return;
    }
    if let Some(Value::Object(set)) = event.payload.get_mut("set") {
        set.extend(secrets.0);
    }
}

/// The fields of a `task.push`'s `payload.set` that are secrets.
const SECRET_KEYS: [&str; 2] = ["token", "credentials"];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(kind: &str, payload: Value) -> Event {
        serde_json::from_value(json!({"id": "000000000AB5CZZSRA2D0MCZXN", "type": kind,
            "source": "agent:alice", "target": "core", "payload": payload,
            "metadata": {}, "timestamp": 1}))
        .expect("a valid event")
    }

    #[test]
    fn secrets_leave_a_push_and_come_back_whole() {
        let payload = json!({"task": "t", "set": {"url": "https://h.example/", "token": "s", "credentials": "c"}});
        let mut push = event(TASK_PUSH, payload.clone());
        let secrets = take_secrets(&mut push);
        assert_eq!(
            push.payload,
            json!({"task": "t", "set": {"url": "https://h.example/"}})
        );
        restore_secrets(&mut push, secrets);
        assert_eq!(push.payload, payload);
    }

    #[test]
    fn other_events_keep_their_fields() {
        let payload = json!({"set": {"token": "not a push's"}});
        let mut other = event("chat.msg", payload.clone());
        assert_eq!(take_secrets(&mut other), PushSecrets::default());
        assert_eq!(other.payload, payload);
    }
}
