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
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "LlmProvider"))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum AnswerMode {
    /// Direct messages, mentions, and follow-ups in threads it was mentioned
    /// in or answered (the default).
    #[default]
    Addressed,
    /// Also every message in the channels it is in.
    EveryMessage,
}

/// What the agent is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum AgentMode {
    /// It answers with the model and the network's tools (the default).
    #[default]
    Chat,
    /// A personal assistant: it plans a person's request, finds agents
    /// whose skills fit and hands them the parts as tasks
    /// ([`crate::agent::assistant`]).
    Assistant,
}

/// Rounds of tool calls in one turn of an assistant, unless configured:
/// planning, finding and delegating take several.
pub const ASSISTANT_TOOL_ROUNDS: u32 = 12;

/// What the agent may spend. A zero limit means none may be spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// What it is for: `chat` or `assistant`.
    #[serde(default)]
    pub mode: AgentMode,
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
    /// `mode` is not `chat` or `assistant`, or an assistant cannot call tools.
    #[error(
        "mode is chat or assistant; an assistant needs a model provider that calls tools, not a command"
    )]
    Mode,
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
            Self::Mode => "agent_config_mode",
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
        let mut value: Value =
            serde_json::from_str(text).map_err(|e| ConfigError::Malformed(e.to_string()))?;
        let mode = value.get("mode").cloned();
        if !matches!(
            mode.as_ref().and_then(Value::as_str),
            None | Some("chat" | "assistant")
        ) || !matches!(mode, None | Some(Value::String(_)))
        {
            return Err(ConfigError::Mode);
        }
        let rounds = value.pointer("/budgets/tool_rounds_per_turn").is_some();
        let mut config: Self = serde_json::from_value(value.take())
            .map_err(|e| ConfigError::Malformed(e.to_string()))?;
        if config.mode == AgentMode::Assistant && !rounds {
            config.budgets.tool_rounds_per_turn = ASSISTANT_TOOL_ROUNDS;
        }
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
        if command && self.mode == AgentMode::Assistant {
            return Err(ConfigError::Mode);
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
#[path = "config_tests.rs"]
mod tests;
