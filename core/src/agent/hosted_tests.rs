//! Hosted agents' configurations: the key kept out of the payload, the
//! checks, the tools offered, and a woken loop's remembered history.

use super::*;
use crate::agent::Agent;
use crate::agent::tests::model_call;
use serde_json::json;

fn ada() -> Address {
    "human:ada".parse().unwrap()
}

fn body() -> Value {
    json!({"name": "Support Bot", "persona": "You help.", "provider": "openai_chat",
        "base_url": "https://api.openai.com/v1", "model": "gpt-4o-mini", "tools": "all"})
}

#[test]
fn the_key_is_split_off_and_never_printed() {
    let mut with_key = body();
    with_key["key"] = json!("sk-test-123");
    let (payload, key) = split_key(&with_key).unwrap();
    assert!(
        payload.get("key").is_none(),
        "the event's payload has no key"
    );
    let key = key.unwrap();
    assert_eq!(key.expose(), "sk-test-123");
    assert!(!format!("{key:?} {key}").contains("sk-test"));
    assert_eq!(split_key(&body()).unwrap().1, None, "no key: none replaced");
    assert_eq!(
        split_key(&json!({"key": "two words"}))
            .unwrap_err()
            .reason(),
        "hosted_agent_key"
    );
    assert_eq!(
        split_key(&json!([1])).unwrap_err().reason(),
        "hosted_agent_malformed"
    );
}

#[test]
fn a_payload_becomes_a_chat_agent_on_the_deployment_key_variable() {
    let hosted = from_payload(&body(), &ada(), Timestamp::from(7)).unwrap();
    assert_eq!(hosted.config.address.to_string(), "agent:support-bot");
    assert_eq!(hosted.config.system_prompt, "You help.");
    assert_eq!(hosted.config.key_var, DEPLOYMENT_KEY_VAR);
    assert_eq!(hosted.name, "Support Bot");
    assert_eq!(
        (hosted.added_by, hosted.added_at),
        (ada(), Timestamp::from(7))
    );
    // A key in the event itself would be logged: refused.
    let mut keyed = body();
    keyed["key"] = json!("sk-x");
    assert_eq!(
        from_payload(&keyed, &ada(), Timestamp::from(7))
            .unwrap_err()
            .reason(),
        "hosted_agent_key_in_event"
    );
}

#[test]
fn commands_assistants_and_bad_fields_are_refused_with_their_reasons() {
    let refused = |change: Value| {
        let mut payload = body();
        payload
            .as_object_mut()
            .unwrap()
            .extend(change.as_object().unwrap().clone());
        from_payload(&payload, &ada(), Timestamp::from(1))
            .unwrap_err()
            .reason()
    };
    assert_eq!(
        refused(json!({"provider": "command", "command": "claude -p"})),
        "hosted_agent_command"
    );
    assert_eq!(refused(json!({"mode": "assistant"})), "hosted_agent_mode");
    assert_eq!(
        refused(json!({"base_url": "http://example.com"})),
        "agent_config_base_url"
    );
    assert_eq!(refused(json!({"model": ""})), "agent_config_model");
    assert_eq!(
        refused(json!({"address": "human:bob"})),
        "agent_config_address"
    );
    assert_eq!(
        refused(json!({"name": "x".repeat(81)})),
        "hosted_agent_name"
    );
}

#[test]
fn names_become_agent_addresses() {
    assert_eq!(address_from_name("Support Bot"), "agent:support-bot");
    assert_eq!(address_from_name("  Ünïcode!! 2 "), "agent:n-code-2");
    assert_eq!(address_from_name("!!!"), "agent:assistant");
}

#[test]
fn a_woken_loop_remembers_the_log_without_answering_it() {
    let hosted = from_payload(&body(), &ada(), Timestamp::from(1)).unwrap();
    let mut agent = Agent::new(hosted.config);
    let now = 1_800_000_000_000;
    let event = |n: u128, source: &str, content: &str| -> crate::Event {
        serde_json::from_value(json!({"id": crate::EventId::from_parts(now, n),
            "type": "workspace.message.posted", "source": source,
            "target": "agent:support-bot", "payload": {"content": content},
            "metadata": {}, "timestamp": now}))
        .unwrap()
    };
    let old = event(1, "human:ada", "my order number is 4417");
    agent.remember(&old);
    assert!(
        agent.handle_event(&old, Timestamp::from(now)).is_empty(),
        "a remembered message is not answered"
    );
    let effects = agent.handle_event(
        &event(2, "human:ada", "what was my order number?"),
        Timestamp::from(now),
    );
    let (_, body) = model_call(&effects);
    assert!(
        body.to_string().contains("4417"),
        "the history reaches the model: {body}"
    );
}
