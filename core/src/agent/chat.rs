//! The provider-neutral conversation a model call carries, and what a model
//! answers: the shapes both wire formats ([`crate::agent::providers`]) are
//! written from and read into.

use crate::error::{Coded, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A tool the model may call: its name, what it does and its arguments' JSON Schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// The tool's name.
    pub name: String,
    /// What it does, for the model.
    #[serde(default)]
    pub description: String,
    /// The JSON Schema of its arguments (an object schema).
    pub parameters: Value,
}

/// A tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id of the call, which its result names.
    pub id: String,
    /// The tool.
    pub name: String,
    /// The arguments, a JSON object.
    pub arguments: Value,
}

/// One entry of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// A message from someone else, prefixed with its sender's address.
    User {
        /// The text, as the model sees it.
        text: String,
    },
    /// What the agent said, and the tools it called.
    Assistant {
        /// The text (may be empty when it only called tools).
        text: String,
        /// The tool calls.
        tool_calls: Vec<ToolCall>,
    },
    /// A tool's result, fed back to the model.
    ToolResult {
        /// The call it answers.
        call_id: String,
        /// The tool's name.
        name: String,
        /// The result as text (JSON for structured results).
        content: String,
        /// The call failed; the text says why.
        is_error: bool,
    },
}

impl Entry {
    /// The result of `call` (`Ok` with the tool's output, `Err` with why it
    /// failed), as text of at most `max` characters (JSON for structured output).
    pub fn tool_result(call: ToolCall, result: Result<Value, String>, max: usize) -> Self {
        let (content, is_error) = match result {
            Ok(Value::String(text)) => (text, false),
            Ok(value) => (value.to_string(), false),
            Err(why) => (why, true),
        };
        Self::ToolResult {
            call_id: call.id,
            name: call.name,
            content: content.chars().take(max).collect(),
            is_error,
        }
    }
}

/// What one model call asks.
#[derive(Debug, Clone, Copy)]
pub struct Prompt<'a> {
    /// The model.
    pub model: &'a str,
    /// The persona.
    pub system: &'a str,
    /// The conversation, oldest first.
    pub entries: &'a [Entry],
    /// The tools it may call.
    pub tools: &'a [ToolDef],
    /// The longest reply, in tokens.
    pub max_tokens: u32,
    /// Ask for a streamed (SSE) answer.
    pub stream: bool,
}

/// Tokens a call spent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
}

impl Usage {
    /// Prompt and completion tokens together.
    pub fn total(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// It finished its answer.
    Done,
    /// It wants tool results.
    ToolUse,
    /// It ran out of tokens.
    Length,
    /// Anything else the provider said.
    Other(String),
}

/// A model's whole answer to one call.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The text.
    pub text: String,
    /// The tools it calls.
    pub tool_calls: Vec<ToolCall>,
    /// What it spent.
    pub usage: Usage,
    /// Why it stopped.
    pub stop: Stop,
}

/// A model call that failed, with a plain message for the conversation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    /// HTTP 401 or 403: the key is missing, wrong or not allowed.
    #[error("the model provider refused the key (HTTP {status}); check the agent's key variable")]
    Unauthorized {
        /// The HTTP status.
        status: u16,
    },
    /// HTTP 429: too many requests or tokens.
    #[error("the model provider is rate limiting this agent{}", retry_text(*retry_after_secs))]
    RateLimited {
        /// Seconds to wait, from `retry-after`.
        retry_after_secs: Option<u64>,
    },
    /// HTTP 5xx, or the provider's overloaded error.
    #[error("the model provider is unavailable (HTTP {status}); try again later")]
    Unavailable {
        /// The HTTP status.
        status: u16,
    },
    /// Another refusal (HTTP 4xx), with the provider's message.
    #[error("the model provider refused the request (HTTP {status}): {message}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The provider's explanation.
        message: String,
    },
    /// A tool call's arguments are not a JSON object.
    #[error("the model asked for the tool {name} with arguments that are not valid JSON")]
    MalformedToolArguments {
        /// The tool.
        name: String,
    },
    /// The answer is not of the provider's documented shape.
    #[error("the model provider's answer could not be read: {0}")]
    Malformed(String),
    /// The host could not reach the provider.
    #[error("the model provider could not be reached: {0}")]
    Unreachable(String),
    /// A command agent's program failed: the end of what it printed.
    #[error("the command failed: {0}")]
    CommandFailed(String),
}

fn retry_text(secs: Option<u64>) -> String {
    match secs {
        Some(s) => format!("; try again in {s} s"),
        None => "; try again later".to_owned(),
    }
}

impl Coded for ProviderError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::Unauthorized { .. } => ErrorCode::AccessDenied,
            Self::RateLimited { .. } => ErrorCode::RateLimited,
            Self::Unavailable { .. } | Self::Unreachable(_) => ErrorCode::ModUnavailable,
            Self::Refused { .. } => ErrorCode::InvalidRequest,
            Self::MalformedToolArguments { .. } | Self::Malformed(_) | Self::CommandFailed(_) => {
                ErrorCode::Internal
            }
        }
    }
}

/// The longest provider message kept in an error.
const MAX_MESSAGE: usize = 300;

/// The provider's message in an error body: both providers answer
/// `{"error": {"message": …}}` (Anthropic's stream `error` event too).
pub fn error_message(body: &str) -> Option<String> {
    let value: Value = serde_json::from_str(body).ok()?;
    value
        .get("error")?
        .get("message")?
        .as_str()
        .map(str::to_owned)
}

/// The error for an HTTP status other than 2xx, with the provider's own
/// message ([`error_message`]) when it has one.
pub fn http_error(
    status: u16,
    retry_after_secs: Option<u64>,
    message: Option<String>,
) -> ProviderError {
    match status {
        401 | 403 => ProviderError::Unauthorized { status },
        429 => ProviderError::RateLimited { retry_after_secs },
        500..=599 => ProviderError::Unavailable { status },
        _ => ProviderError::Refused {
            status,
            message: message
                .map(|m| m.chars().take(MAX_MESSAGE).collect())
                .unwrap_or_else(|| "no reason given".to_owned()),
        },
    }
}

/// Reads a `retry-after` header value: seconds (an HTTP date reads as none).
pub fn retry_after(header: &str) -> Option<u64> {
    header.trim().parse::<u64>().ok()
}

/// Reads a tool call's arguments: a JSON object (empty text is `{}`).
pub fn arguments(name: &str, text: &str) -> Result<Value, ProviderError> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value @ Value::Object(_)) => Ok(value),
        _ => Err(ProviderError::MalformedToolArguments {
            name: name.to_owned(),
        }),
    }
}

/// The string at `key` of a provider's JSON `value`, or `default` when there
/// is none (the key absent, or not a string).
pub(crate) fn str_or<'a>(value: &'a Value, key: &str, default: &'a str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_plain_messages() {
        let limited = http_error(429, retry_after("12"), None);
        assert_eq!(
            limited.to_string(),
            "the model provider is rate limiting this agent; try again in 12 s"
        );
        assert!(matches!(
            http_error(401, None, None),
            ProviderError::Unauthorized { .. }
        ));
        assert!(matches!(
            http_error(503, None, None),
            ProviderError::Unavailable { status: 503 }
        ));
        let refused = http_error(400, None, Some("bad model".into()));
        assert!(refused.to_string().ends_with("bad model"));
        assert_eq!(retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
    }

    #[test]
    fn arguments_are_an_object() {
        assert_eq!(arguments("t", "").unwrap(), serde_json::json!({}));
        assert_eq!(
            arguments("t", r#"{"q":1}"#).unwrap(),
            serde_json::json!({"q": 1})
        );
        assert!(arguments("t", r#"{"q":"#).is_err());
        assert!(arguments("t", "[1]").is_err());
    }
}
