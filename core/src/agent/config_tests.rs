//! The configuration read, defaulted and refused field by field.

use super::*;

const MINIMAL: &str = r#"{"address": "agent:helper", "provider": "openai_chat",
    "base_url": "https://api.openai.com/v1", "model": "gpt-4o-mini",
    "key_var": "OPENAI_API_KEY"}"#;

fn with(field: &str, value: Value) -> Result<AgentConfig, ConfigError> {
    let mut json: Value = serde_json::from_str(MINIMAL).unwrap();
    json[field] = value;
    AgentConfig::from_json(&json.to_string())
}

#[test]
fn a_minimal_config_has_the_defaults() {
    let config = AgentConfig::from_json(MINIMAL).unwrap();
    assert_eq!(config.answers, AnswerMode::Addressed);
    assert_eq!(config.tools, ToolsAllowed::None);
    assert_eq!(config.history_depth, 20);
    assert_eq!(config.budgets, Budgets::default());
    assert_eq!(
        config.endpoint(),
        "https://api.openai.com/v1/chat/completions"
    );
    let back = AgentConfig::from_json(&serde_json::to_string(&config).unwrap()).unwrap();
    assert_eq!(back, config);
}

#[test]
fn a_command_agent_needs_a_command_and_nothing_of_a_provider() {
    let config = AgentConfig::from_json(
        r#"{"address": "agent:coder", "provider": "command", "command": "codex exec"}"#,
    )
    .unwrap();
    assert_eq!(config.endpoint(), "command:codex exec");
    let none = AgentConfig::from_json(r#"{"address": "agent:coder", "provider": "command"}"#);
    assert_eq!(none.unwrap_err().reason(), "agent_config_command");
    let stray = with("command", serde_json::json!("ls"));
    assert_eq!(stray.unwrap_err().reason(), "agent_config_command");
}

#[test]
fn tools_are_all_or_names() {
    let all = with("tools", serde_json::json!("all")).unwrap();
    assert!(all.tools.allows("anything"));
    let some = with("tools", serde_json::json!(["search"])).unwrap();
    assert!(some.tools.allows("search") && !some.tools.allows("delete"));
    assert!(with("tools", serde_json::json!("some")).is_err());
    assert_eq!(
        with("tools", serde_json::json!([""])).unwrap_err().reason(),
        "agent_config_tool_name"
    );
}

#[test]
fn bad_fields_have_stable_reasons() {
    let cases = [
        ("address", "human:ann", "agent_config_address"),
        ("address", "channel/general", "agent_config_address"),
        ("base_url", "http://api.openai.com", "agent_config_base_url"),
        ("base_url", "not a url", "agent_config_base_url"),
        ("model", "", "agent_config_model"),
        ("model", "gpt 4", "agent_config_model"),
        ("key_var", "sk-proj-abc123", "agent_config_key_var"),
        ("provider", "gemini", "agent_config_malformed"),
    ];
    for (field, value, reason) in cases {
        let err = with(field, Value::from(value)).unwrap_err();
        assert_eq!(err.reason(), reason, "{field} = {value}");
    }
    for (field, reason) in [
        ("history_depth", "agent_config_history_depth"),
        ("max_tokens", "agent_config_max_tokens"),
    ] {
        assert_eq!(with(field, Value::from(0)).unwrap_err().reason(), reason);
    }
    let address = with("address", Value::from("human:ann")).unwrap_err();
    assert_eq!(address.code(), ErrorCode::InvalidAddress);
}

#[test]
fn the_mode_is_chat_or_assistant() {
    assert_eq!(
        AgentConfig::from_json(MINIMAL).unwrap().mode,
        AgentMode::Chat
    );
    let assistant = with("mode", Value::from("assistant")).unwrap();
    assert_eq!(assistant.mode, AgentMode::Assistant);
    assert_eq!(
        assistant.budgets.tool_rounds_per_turn,
        ASSISTANT_TOOL_ROUNDS
    );
    let mut json: Value = serde_json::from_str(MINIMAL).unwrap();
    json["mode"] = Value::from("assistant");
    json["budgets"] = serde_json::json!({"tool_rounds_per_turn": 3});
    let bounded = AgentConfig::from_json(&json.to_string()).unwrap();
    assert_eq!(
        bounded.budgets.tool_rounds_per_turn, 3,
        "a configured bound stays"
    );
    for bad in [Value::from("butler"), Value::from(1)] {
        assert_eq!(with("mode", bad).unwrap_err().reason(), "agent_config_mode");
    }
    let command = AgentConfig::from_json(
        r#"{"address": "agent:coder", "provider": "command", "command": "x", "mode": "assistant"}"#,
    );
    assert_eq!(command.unwrap_err().reason(), "agent_config_mode");
}

#[test]
fn http_is_for_localhost_only() {
    assert!(with("base_url", serde_json::json!("http://localhost:11434/v1")).is_ok());
    assert!(with("base_url", serde_json::json!("https://user:pw@example.com")).is_err());
}
