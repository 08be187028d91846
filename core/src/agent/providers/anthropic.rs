//! Anthropic Messages: the request body, the answer (JSON or a stream of
//! SSE events) and the error body, following the public API reference
//! (`POST /v1/messages`, `anthropic-version: 2023-06-01`).
//!
//! * The persona is the top-level `system`; `messages` alternate `user` and
//!   `assistant` and start with `user` (entries of one role in a row are one
//!   message of several content blocks).
//! * The agent's tool calls are `tool_use` blocks `{id, name, input}`; their
//!   results go back in a `user` message as `tool_result` blocks
//!   `{tool_use_id, content, is_error}`.
//! * Tools are `{name, description, input_schema}`.
//! * A stream is `message_start`, then for each content block
//!   `content_block_start`, `content_block_delta`s (`text_delta` or
//!   `input_json_delta` fragments of the tool input) and
//!   `content_block_stop`, then `message_delta` (stop reason, output tokens)
//!   and `message_stop`; `ping`s anywhere; an `error` event ends it.
//! * `usage.input_tokens` leaves out cached input: the tokens a call spent
//!   are it plus `cache_creation_input_tokens` and `cache_read_input_tokens`.
//! * An error body is `{"type": "error", "error": {"type", "message"}}`.

use crate::agent::chat::{
    Entry, Prompt, ProviderError, Reply, Stop, ToolCall, Usage, arguments, str_or,
};
use crate::agent::sse::SseEvent;
use serde_json::{Value, json};

/// The API version every request names.
pub const VERSION: &str = "2023-06-01";

fn blocks_of(entry: &Entry) -> (&'static str, Vec<Value>) {
    match entry {
        Entry::User { text } => ("user", vec![json!({"type": "text", "text": text})]),
        Entry::Assistant { text, tool_calls } => {
            let mut blocks = Vec::new();
            if !text.is_empty() {
                blocks.push(json!({"type": "text", "text": text}));
            }
            for call in tool_calls {
                blocks.push(json!({"type": "tool_use", "id": call.id, "name": call.name,
                    "input": call.arguments}));
            }
            ("assistant", blocks)
        }
        Entry::ToolResult {
            call_id,
            content,
            is_error,
            ..
        } => (
            "user",
            vec![json!({"type": "tool_result", "tool_use_id": call_id,
                "content": content, "is_error": is_error})],
        ),
    }
}

/// The request body for `prompt`.
pub fn request_body(prompt: &Prompt<'_>) -> Value {
    let mut messages: Vec<(&str, Vec<Value>)> = Vec::new();
    for entry in prompt.entries {
        let (role, blocks) = blocks_of(entry);
        if blocks.is_empty() || (messages.is_empty() && role != "user") {
            continue;
        }
        match messages.last_mut() {
            Some((last, existing)) if *last == role => existing.extend(blocks),
            _ => messages.push((role, blocks)),
        }
    }
    let messages: Vec<Value> = messages
        .into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    let mut body = json!({
        "model": prompt.model,
        "max_tokens": prompt.max_tokens,
        "messages": messages,
    });
    if !prompt.system.is_empty() {
        body["system"] = json!(prompt.system);
    }
    if !prompt.tools.is_empty() {
        body["tools"] = prompt
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
            .collect();
    }
    if prompt.stream {
        body["stream"] = json!(true);
    }
    body
}

fn stop_of(reason: &str) -> Stop {
    match reason {
        "end_turn" | "stop_sequence" => Stop::Done,
        "tool_use" => Stop::ToolUse,
        "max_tokens" => Stop::Length,
        other => Stop::Other(other.to_owned()),
    }
}

fn tokens(usage: &Value, key: &str) -> Option<u64> {
    usage.get(key).and_then(Value::as_u64)
}

/// The input tokens `usage` counts, when it counts them: the reference's
/// total is `input_tokens` + `cache_creation_input_tokens` + `cache_read_input_tokens`.
fn input_tokens(usage: &Value) -> Option<u64> {
    let fresh = tokens(usage, "input_tokens")?;
    Some(
        ["cache_creation_input_tokens", "cache_read_input_tokens"]
            .iter()
            .filter_map(|key| tokens(usage, key))
            .fold(fresh, u64::saturating_add),
    )
}

fn usage_of(usage: &Value) -> Usage {
    Usage {
        input_tokens: input_tokens(usage).unwrap_or(0),
        output_tokens: tokens(usage, "output_tokens").unwrap_or(0),
    }
}

/// Reads a whole (not streamed) message.
pub fn parse_reply(body: &str) -> Result<Reply, ProviderError> {
    let value: Value =
        serde_json::from_str(body).map_err(|_| ProviderError::Malformed("not JSON".into()))?;
    let content = value
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| ProviderError::Malformed("a message without content".into()))?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in content {
        let field = |key: &str| str_or(block, key, "");
        match field("type") {
            "text" => text.push_str(field("text")),
            "tool_use" => {
                let input = block.get("input").cloned().unwrap_or(json!({}));
                if !input.is_object() {
                    return Err(ProviderError::MalformedToolArguments {
                        name: field("name").to_owned(),
                    });
                }
                tool_calls.push(ToolCall {
                    id: field("id").to_owned(),
                    name: field("name").to_owned(),
                    arguments: input,
                });
            }
            _ => {}
        }
    }
    Ok(Reply {
        text,
        tool_calls,
        usage: value.get("usage").map(usage_of).unwrap_or_default(),
        stop: stop_of(str_or(&value, "stop_reason", "end_turn")),
    })
}

/// The error an `error` event of a stream stands for.
fn stream_error(data: &Value) -> ProviderError {
    let error = data.get("error").unwrap_or(&Value::Null);
    let message = str_or(error, "message", "");
    match str_or(error, "type", "") {
        "overloaded_error" => ProviderError::Unavailable { status: 529 },
        "api_error" => ProviderError::Unavailable { status: 500 },
        "rate_limit_error" => ProviderError::RateLimited {
            retry_after_secs: None,
        },
        _ => ProviderError::Refused {
            status: 200,
            message: message.chars().take(300).collect(),
        },
    }
}

/// A content block being streamed.
#[derive(Debug)]
enum Block {
    Text,
    Tool {
        id: String,
        name: String,
        input: String,
    },
}

/// The most content blocks one answer may stream.
const MAX_BLOCKS: usize = 64;

/// A streamed message being put together from its events.
#[derive(Debug, Default)]
pub struct Stream {
    text: String,
    blocks: Vec<(u64, Block)>,
    usage: Usage,
    stop: Option<Stop>,
    done: bool,
}

impl Stream {
    /// Reads one SSE event; returns the text it adds.
    pub fn event(&mut self, event: &SseEvent) -> Result<String, ProviderError> {
        let data: Value = serde_json::from_str(&event.data)
            .map_err(|_| ProviderError::Malformed("a stream event is not JSON".into()))?;
        let kind = str_or(&data, "type", "");
        let index = data.get("index").and_then(Value::as_u64).unwrap_or(0);
        match kind {
            "message_start" => {
                if let Some(usage) = data.get("message").and_then(|m| m.get("usage")) {
                    self.usage = usage_of(usage);
                }
            }
            "content_block_start" => {
                if self.blocks.len() >= MAX_BLOCKS {
                    return Err(ProviderError::Malformed("too many content blocks".into()));
                }
                let block = data.get("content_block").unwrap_or(&Value::Null);
                let field = |key: &str| str_or(block, key, "");
                let started = match field("type") {
                    "tool_use" => Block::Tool {
                        id: field("id").to_owned(),
                        name: field("name").to_owned(),
                        input: String::new(),
                    },
                    _ => Block::Text,
                };
                self.blocks.push((index, started));
                if field("type") == "text" && !field("text").is_empty() {
                    self.text.push_str(field("text"));
                    return Ok(field("text").to_owned());
                }
            }
            "content_block_delta" => return Ok(self.delta(index, &data)),
            "message_delta" => {
                if let Some(reason) = data
                    .get("delta")
                    .and_then(|d| d.get("stop_reason"))
                    .and_then(Value::as_str)
                {
                    self.stop = Some(stop_of(reason));
                }
                if let Some(usage) = data.get("usage") {
                    if let Some(input) = input_tokens(usage) {
                        self.usage.input_tokens = input;
                    }
                    if let Some(output) = tokens(usage, "output_tokens") {
                        self.usage.output_tokens = output;
                    }
                }
            }
            "message_stop" => self.done = true,
            "error" => return Err(stream_error(&data)),
            _ => {}
        }
        Ok(String::new())
    }

    fn delta(&mut self, index: u64, data: &Value) -> String {
        let delta = data.get("delta").unwrap_or(&Value::Null);
        let field = |key: &str| str_or(delta, key, "");
        let block = self.blocks.iter_mut().rev().find(|(i, _)| *i == index);
        match (field("type"), block) {
            ("text_delta", _) => {
                self.text.push_str(field("text"));
                field("text").to_owned()
            }
            ("input_json_delta", Some((_, Block::Tool { input, .. }))) => {
                input.push_str(field("partial_json"));
                String::new()
            }
            _ => String::new(),
        }
    }

    /// The text so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `message_stop` arrived.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The whole message, once the stream has ended.
    pub fn finish(self) -> Result<Reply, ProviderError> {
        let mut tool_calls = Vec::new();
        for (_, block) in self.blocks {
            if let Block::Tool { id, name, input } = block {
                tool_calls.push(ToolCall {
                    arguments: arguments(&name, &input)?,
                    id,
                    name,
                });
            }
        }
        let stop = self.stop.unwrap_or(if tool_calls.is_empty() {
            Stop::Done
        } else {
            Stop::ToolUse
        });
        Ok(Reply {
            text: self.text,
            tool_calls,
            usage: self.usage,
            stop,
        })
    }
}

#[cfg(test)]
#[path = "anthropic_tests.rs"]
mod tests;
