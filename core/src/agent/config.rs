//! An agent's configuration: who it is, which model it thinks with, when it
//! answers and what it may spend.
//!
//! The configuration names the environment variable that holds the provider
//! key ([`AgentConfig::key_var`]), never the key: the host reads the variable
//! and puts its value in the request header the loop names, so the key never
//! appears in an effect, a log or the model's context.
//!
//! ```json
//! {"address": "agent:helper", "provider": "openai_chat",
//!  "base_url": "https://api.openai.com/v1", "model": "gpt-4o-mini",
//!  "key_var": "OPENAI_API_KEY", "tools": "all"}
//! ```

use crate::error::{Coded, ErrorCode};
use crate::ids::address::{Address, Entity};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The longest system prompt accepted, in bytes.
pub const MAX_SYSTEM_PROMPT: usize = 32 * 1024;
/// The most messages of a conversation sent to the model.
pub const MAX_HISTORY_DEPTH: usize = 200;

/// Which wire format the model provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// OpenAI Chat Completions (`POST {base_url}/chat/completions`) and compatible servers.
    OpenaiChat,
    /// Anthropic Messages (`POST {base_url}/v1/messages`).
    AnthropicMessages,
    /// A command-line program ([`AgentConfig::command`]) that takes the
    /// conversation as a prompt and prints its answer (Claude Code `-p`,
    /// Codex `exec`, a script): the host runs it, the loop keeps the rules.
    Command,
}

/// Which tools the agent may call: `"all"` or a list of names.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ToolsAllowed {
    /// No tools (the default).
    #[default]
    None,
    /// Every tool the host offers.
    All,
    /// Only these tools.
    Names(Vec<String>),
}

impl ToolsAllowed {
    /// Whether the tool `name` may be called.
    pub fn allows(&self, name: &str) -> bool {
        match self {
            Self::None => false,
            Self::All => true,
            Self::Names(names) => names.iter().any(|n| n == name),
        }
    }
}

impl Serialize for ToolsAllowed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::None => Vec::<String>::new().serialize(s),
            Self::All => "all".serialize(s),
            Self::Names(names) => names.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ToolsAllowed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) if s == "all" => Ok(Self::All),
            Value::Array(items) if items.is_empty() => Ok(Self::None),
            Value::Array(items) => items
                .into_iter()
                .map(|i| match i {
                    Value::String(s) => Ok(s),
                    _ => Err(serde::de::Error::custom("tool names are strings")),
                })
                .collect::<Result<_, _>>()
                .map(Self::Names),
            _ => Err(serde::de::Error::custom(
                "tools is \"all\" or a list of tool names",
            )),
        }
    }
}

/// When the agent answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerMode {
    /// Direct messages, mentions, and follow-ups in threads it was mentioned
    /// in or answered (the default).
    #[default]
    Addressed,
    /// Also every message in the channels it is in.
    EveryMessage,
}

/// What the agent may spend. A zero limit means none may be spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Budgets {
    /// Model tokens (prompt and completion) in any hour.
    pub tokens_per_hour: u64,
    /// Model calls in any hour.
    pub calls_per_hour: u32,
    /// Rounds of tool calls in one turn before the agent answers with what it has.
    pub tool_rounds_per_turn: u32,
    /// Agent messages in a row in one conversation, without a person, after
    /// which agents stop answering each other.
    pub agent_turns_without_person: u32,
}

impl Default for Budgets {
    fn default() -> Self {
        Self {
            tokens_per_hour: 200_000,
            calls_per_hour: 120,
            tool_rounds_per_turn: 4,
            agent_turns_without_person: 4,
        }
    }
}

fn default_history_depth() -> usize {
    20
}

fn default_approval_wait() -> u64 {
    15 * 60
}

fn default_max_tokens() -> u32 {
    1024
}

/// One agent's configuration. Read it with [`AgentConfig::from_json`], which validates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentConfig {
    /// The agent's address in the network (`agent:helper`); `@helper` mentions it.
    pub address: Address,
    /// What the agent does, for people.
    #[serde(default)]
    pub description: String,
    /// The persona: the system prompt of every model call.
    #[serde(default)]
    pub system_prompt: String,
    /// The provider's wire format.
    pub provider: ProviderKind,
    /// The program a `command` agent runs: `{prompt}` in it is replaced by
    /// the prompt as one argument, else the prompt goes to its stdin.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub command: String,
    /// The provider's base URL (`https://api.openai.com/v1`, `https://api.anthropic.com`).
    #[serde(default)]
    pub base_url: String,
    /// The model name.
    #[serde(default)]
    pub model: String,
    /// The environment variable holding the provider key (never the key).
    #[serde(default)]
    pub key_var: String,
    /// The tools it may call.
    #[serde(default)]
    pub tools: ToolsAllowed,
    /// The tools a person approves before each call (`"all"` or names; none by default).
    #[serde(default)]
    pub approve_tools: ToolsAllowed,
    /// Who approves ([`crate::agent::approve`]): none, the person asking
    /// directly or a channel's masters.
    #[serde(default)]
    pub approvers: Vec<Address>,
    /// How long an approval waits before it expires, in seconds (10 s to a week).
    #[serde(default = "default_approval_wait")]
    pub approval_wait_secs: u64,
    /// When it answers.
    #[serde(default)]
    pub answers: AnswerMode,
    /// How many of the conversation's last messages the model sees.
    #[serde(default = "default_history_depth")]
    pub history_depth: usize,
    /// The longest reply, in tokens, asked of the model.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u32,
    /// What it may spend.
    #[serde(default)]
    pub budgets: Budgets,
}

/// Why a configuration is refused. [`ConfigError::reason`] is stable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Not JSON of the configuration's shape.
    #[error("the agent configuration is not valid: {0}")]
    Malformed(String),
    /// The address is not an agent's.
    #[error("an agent's address is agent:name or registrar:name, not {0}")]
    NotAnAgent(String),
    /// The base URL is not an absolute http(s) URL.
    #[error("base_url must be an absolute https URL (http only for localhost): {0}")]
    BaseUrl(String),
    /// The model name is empty or has whitespace.
    #[error("model must be a non-empty name without spaces")]
    Model,
    /// The key variable is not an environment variable name (it may be a key pasted by mistake).
    #[error("key_var must name an environment variable (A-Z, 0-9, _), not hold the key")]
    KeyVar,
    /// The system prompt is too long.
    #[error("system_prompt is longer than {MAX_SYSTEM_PROMPT} bytes")]
    SystemPrompt,
    /// The history depth is 0 or too large.
    #[error("history_depth must be between 1 and {MAX_HISTORY_DEPTH}")]
    HistoryDepth,
    /// A tool name is empty.
    #[error("tool names must not be empty")]
    ToolName,
    /// `max_tokens` is 0.
    #[error("max_tokens must be at least 1")]
    MaxTokens,
    /// The approval wait is out of range, or an approver is not a member's address.
    #[error("approval_wait_secs is 10 to 604800, approvers are people's or agents' addresses")]
    Approval,
    /// A `command` agent without a command, or another agent with one.
    #[error("command is required with provider command (and only there), at most 4096 bytes")]
    Command,
}

impl ConfigError {
    /// The stable reason, naming what is wrong.
    pub const fn reason(&self) -> &'static str {
        match self {
            Self::Malformed(_) => "agent_config_malformed",
            Self::NotAnAgent(_) => "agent_config_address",
            Self::BaseUrl(_) => "agent_config_base_url",
            Self::Model => "agent_config_model",
            Self::KeyVar => "agent_config_key_var",
            Self::SystemPrompt => "agent_config_system_prompt",
            Self::HistoryDepth => "agent_config_history_depth",
            Self::ToolName => "agent_config_tool_name",
            Self::MaxTokens => "agent_config_max_tokens",
            Self::Approval => "agent_config_approval",
            Self::Command => "agent_config_command",
        }
    }
}

impl Coded for ConfigError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::NotAnAgent(_) => ErrorCode::InvalidAddress,
            _ => ErrorCode::InvalidRequest,
        }
    }
}

fn is_env_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 128
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn check_base_url(s: &str) -> Result<(), ConfigError> {
    let bad = || ConfigError::BaseUrl(s.chars().take(100).collect());
    let url = url::Url::parse(s).map_err(|_| bad())?;
    let local = matches!(url.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"));
    match url.scheme() {
        "https" => {}
        "http" if local => {}
        _ => return Err(bad()),
    }
    if url.host_str().is_none() || url.query().is_some() || !url.username().is_empty() {
        return Err(bad());
    }
    Ok(())
}

impl AgentConfig {
    /// Reads and validates a configuration.
    pub fn from_json(text: &str) -> Result<Self, ConfigError> {
        let config: Self =
            serde_json::from_str(text).map_err(|e| ConfigError::Malformed(e.to_string()))?;
        config.validate()?;
        Ok(config)
    }

    /// Checks every field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !matches!(
            self.address.entity(),
            Entity::Agent(_) | Entity::Registered { .. }
        ) {
            return Err(ConfigError::NotAnAgent(self.address.to_string()));
        }
        let command = self.provider == ProviderKind::Command;
        if command == self.command.trim().is_empty() || self.command.len() > 4096 {
            return Err(ConfigError::Command);
        }
        if !command {
            check_base_url(&self.base_url)?;
            if self.model.is_empty()
                || self.model.len() > 200
                || self.model.contains(char::is_whitespace)
            {
                return Err(ConfigError::Model);
            }
            if !is_env_name(&self.key_var) {
                return Err(ConfigError::KeyVar);
            }
        }
        if self.system_prompt.len() > MAX_SYSTEM_PROMPT {
            return Err(ConfigError::SystemPrompt);
        }
        if self.history_depth == 0 || self.history_depth > MAX_HISTORY_DEPTH {
            return Err(ConfigError::HistoryDepth);
        }
        if let ToolsAllowed::Names(names) = &self.tools
            && names.iter().any(String::is_empty)
        {
            return Err(ConfigError::ToolName);
        }
        if self.max_tokens == 0 {
            return Err(ConfigError::MaxTokens);
        }
        if !(10..=7 * 24 * 3600).contains(&self.approval_wait_secs)
            || self.approvers.iter().any(|a| !a.entity().is_participant())
        {
            return Err(ConfigError::Approval);
        }
        Ok(())
    }

    /// The provider's endpoint for this configuration.
    pub fn endpoint(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        match self.provider {
            ProviderKind::OpenaiChat => format!("{base}/chat/completions"),
            ProviderKind::AnthropicMessages => format!("{base}/v1/messages"),
            ProviderKind::Command => format!("command:{}", self.command),
        }
    }
}

#[cfg(test)]
mod tests {
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
    fn http_is_for_localhost_only() {
        assert!(with("base_url", serde_json::json!("http://localhost:11434/v1")).is_ok());
        assert!(with("base_url", serde_json::json!("https://user:pw@example.com")).is_err());
    }
}
