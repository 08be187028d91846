//! The model providers' wire formats, and the one place that picks between them.
//!
//! * [`openai`] — OpenAI Chat Completions
//! * [`anthropic`] — Anthropic Messages
//! * [`command`] — a command-line program that prints its answer
//!
//! Each builds a request body from a [`Prompt`], reads a whole answer, a
//! stream of SSE events and an error body. [`Decoder`] holds a streamed
//! answer of either provider while it arrives.

pub mod anthropic;
pub mod command;
pub mod openai;
#[cfg(test)]
mod tests;

use crate::agent::chat::{Prompt, ProviderError, Reply, error_message, http_error};
use crate::agent::config::{AgentConfig, ProviderKind};
use crate::agent::effects::KeySlot;
use crate::agent::sse::SseEvent;
use serde_json::Value;

/// The request body for `prompt` in `kind`'s format.
pub fn request_body(kind: ProviderKind, prompt: &Prompt<'_>) -> Value {
    match kind {
        ProviderKind::OpenaiChat => openai::request_body(prompt),
        ProviderKind::AnthropicMessages => anthropic::request_body(prompt),
        ProviderKind::Command => command::request_body(prompt),
    }
}

/// A request's headers for `config`, and where the host puts the key: the
/// key header holds a placeholder naming the environment variable
/// (`authorization: Bearer ${OPENAI_API_KEY}`, `x-api-key: ${ANTHROPIC_API_KEY}`).
/// A command takes no key: no headers, no slot.
pub fn headers(config: &AgentConfig) -> (Vec<(String, String)>, Option<KeySlot>) {
    let mut headers = vec![("content-type".to_owned(), "application/json".to_owned())];
    let (header, prefix) = match config.provider {
        ProviderKind::Command => return (Vec::new(), None),
        ProviderKind::OpenaiChat => ("authorization", "Bearer "),
        ProviderKind::AnthropicMessages => {
            headers.push((
                "anthropic-version".to_owned(),
                anthropic::VERSION.to_owned(),
            ));
            ("x-api-key", "")
        }
    };
    let placeholder = format!("${{{}}}", config.key_var);
    headers.push((header.to_owned(), format!("{prefix}{placeholder}")));
    let key = KeySlot {
        header: header.to_owned(),
        variable: config.key_var.clone(),
        placeholder,
    };
    (headers, Some(key))
}

/// Reads a whole answer of status `status` (non-2xx bodies are errors).
pub fn parse(
    kind: ProviderKind,
    status: u16,
    retry_after_secs: Option<u64>,
    body: &str,
) -> Result<Reply, ProviderError> {
    if kind == ProviderKind::Command {
        return command::parse(status, body);
    }
    if !(200..300).contains(&status) {
        return Err(http_error(status, retry_after_secs, error_message(body)));
    }
    match kind {
        ProviderKind::Command => command::parse(status, body),
        ProviderKind::OpenaiChat => openai::parse_reply(body),
        ProviderKind::AnthropicMessages => anthropic::parse_reply(body),
    }
}

/// A streamed answer of either provider.
#[derive(Debug)]
pub enum Decoder {
    /// OpenAI chunks.
    Openai(openai::Stream),
    /// Anthropic events.
    Anthropic(anthropic::Stream),
}

impl Decoder {
    /// An empty decoder for `kind`; none for a command, whose output comes whole.
    pub fn new(kind: ProviderKind) -> Option<Self> {
        match kind {
            ProviderKind::OpenaiChat => Some(Self::Openai(openai::Stream::default())),
            ProviderKind::AnthropicMessages => Some(Self::Anthropic(anthropic::Stream::default())),
            ProviderKind::Command => None,
        }
    }

    /// Reads one event; returns the text it adds.
    pub fn event(&mut self, event: &SseEvent) -> Result<String, ProviderError> {
        match self {
            Self::Openai(s) => s.event(event),
            Self::Anthropic(s) => s.event(event),
        }
    }

    /// The text so far.
    pub fn text(&self) -> &str {
        match self {
            Self::Openai(s) => s.text(),
            Self::Anthropic(s) => s.text(),
        }
    }

    /// The whole answer.
    pub fn finish(self) -> Result<Reply, ProviderError> {
        match self {
            Self::Openai(s) => s.finish(),
            Self::Anthropic(s) => s.finish(),
        }
    }
}
