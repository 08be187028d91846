//! OpenAI Chat Completions: the request body, the answer (JSON or a stream
//! of `chat.completion.chunk`s) and the error body, following the public API
//! reference (`POST /chat/completions`).
//!
//! * The persona is the first message, `role: system`; others' messages are
//!   `role: user`; the agent's are `role: assistant` with `tool_calls`
//!   (`{id, type: "function", function: {name, arguments}}`, the arguments a
//!   JSON text); a tool's result is `role: tool` with its `tool_call_id`.
//! * Tools are `{type: "function", function: {name, description, parameters}}`.
//! * A stream is `data: {chunk}` events ending with `data: [DONE]`; text comes
//!   in `choices[0].delta.content`, tool calls in `delta.tool_calls[]` by
//!   `index`, their `function.arguments` in fragments; with
//!   `stream_options.include_usage` a last chunk with no choices has `usage`;
//!   a refusal comes in `message.refusal` (`delta.refusal` in fragments)
//!   instead of the content, and is the answer's text.
//! * An error body is `{"error": {"message", "type", "code"}}`.

use crate::agent::chat::{
    Entry, Prompt, ProviderError, Reply, Stop, ToolCall, Usage, arguments, str_or,
};
use crate::agent::sse::SseEvent;
use serde_json::{Map, Value, json};

/// The request body for `prompt`.
pub fn request_body(prompt: &Prompt<'_>) -> Value {
    let mut messages = Vec::with_capacity(prompt.entries.len() + 1);
    if !prompt.system.is_empty() {
        messages.push(json!({"role": "system", "content": prompt.system}));
    }
    for entry in prompt.entries {
        messages.push(match entry {
            Entry::User { text } => json!({"role": "user", "content": text}),
            Entry::Assistant { text, tool_calls } => {
                let mut message = json!({"role": "assistant", "content": text});
                if !tool_calls.is_empty() {
                    message["tool_calls"] = tool_calls
                        .iter()
                        .map(|call| {
                            json!({"id": call.id, "type": "function", "function": {
                                "name": call.name, "arguments": call.arguments.to_string()}})
                        })
                        .collect();
                    if text.is_empty() {
                        message["content"] = Value::Null;
                    }
                }
                message
            }
            Entry::ToolResult {
                call_id, content, ..
            } => json!({"role": "tool", "tool_call_id": call_id, "content": content}),
        });
    }
    let mut body = json!({
        "model": prompt.model,
        "messages": messages,
        "max_completion_tokens": prompt.max_tokens,
    });
    if !prompt.tools.is_empty() {
        body["tools"] = prompt
            .tools
            .iter()
            .map(|tool| {
                json!({"type": "function", "function": {
                    "name": tool.name, "description": tool.description, "parameters": tool.parameters}})
            })
            .collect();
    }
    if prompt.stream {
        body["stream"] = json!(true);
        body["stream_options"] = json!({"include_usage": true});
    }
    body
}

fn stop_of(reason: &str) -> Stop {
    match reason {
        "stop" => Stop::Done,
        "tool_calls" | "function_call" => Stop::ToolUse,
        "length" => Stop::Length,
        other => Stop::Other(other.to_owned()),
    }
}

fn usage_of(usage: &Value) -> Usage {
    let read = |key: &str| usage.get(key).and_then(Value::as_u64).unwrap_or(0);
    Usage {
        input_tokens: read("prompt_tokens"),
        output_tokens: read("completion_tokens"),
    }
}

fn malformed(what: &str) -> ProviderError {
    ProviderError::Malformed(format!("a chat completion without {what}"))
}

/// Reads a whole (not streamed) `chat.completion`.
pub fn parse_reply(body: &str) -> Result<Reply, ProviderError> {
    let value: Value =
        serde_json::from_str(body).map_err(|_| ProviderError::Malformed("not JSON".into()))?;
    let choice = value
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| malformed("choices"))?;
    let message = choice
        .get("message")
        .ok_or_else(|| malformed("a message"))?;
    let text = str_or(message, "content", "");
    let refusal = str_or(message, "refusal", "");
    let mut tool_calls = Vec::new();
    for call in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let field = |path: &[&str]| {
            path.iter()
                .try_fold(call, |v, k| v.get(k))
                .and_then(Value::as_str)
                .unwrap_or("")
        };
        let name = field(&["function", "name"]);
        tool_calls.push(ToolCall {
            id: field(&["id"]).to_owned(),
            name: name.to_owned(),
            arguments: arguments(name, field(&["function", "arguments"]))?,
        });
    }
    Ok(Reply {
        text: if text.is_empty() { refusal } else { text }.to_owned(),
        tool_calls,
        usage: value.get("usage").map(usage_of).unwrap_or_default(),
        stop: stop_of(str_or(choice, "finish_reason", "stop")),
    })
}

/// A tool call being streamed.
#[derive(Debug, Default)]
struct Partial {
    id: String,
    name: String,
    arguments: String,
}

/// A streamed answer being put together from its chunks.
#[derive(Debug, Default)]
pub struct Stream {
    text: String,
    refusal: String,
    calls: Vec<Partial>,
    usage: Usage,
    stop: Option<Stop>,
    done: bool,
}

/// The most tool calls one answer may stream.
const MAX_CALLS: usize = 64;

impl Stream {
    /// Reads one SSE event; returns the text it adds.
    pub fn event(&mut self, event: &SseEvent) -> Result<String, ProviderError> {
        if event.data.trim() == "[DONE]" {
            self.done = true;
            return Ok(String::new());
        }
        let chunk: Value = serde_json::from_str(&event.data)
            .map_err(|_| ProviderError::Malformed("a stream chunk is not JSON".into()))?;
        // An error midway: `{"error": {…}}`, or an `event: error` whose data is the error.
        let error = match event.event.as_deref() {
            Some("error") => chunk.get("error").or(Some(&chunk)),
            _ => chunk.get("error"),
        };
        if let Some(message) = error.and_then(|e| e.get("message")) {
            let message = message.as_str().unwrap_or("").to_owned();
            return Err(ProviderError::Refused {
                status: 200,
                message,
            });
        }
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            self.usage = usage_of(usage);
        }
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
            return Ok(String::new());
        };
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.stop = Some(stop_of(reason));
        }
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        for call in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.call_fragment(call)?;
        }
        if let Some(refusal) = delta.get("refusal").and_then(Value::as_str) {
            self.refusal.push_str(refusal);
        }
        let text = str_or(delta, "content", "").to_owned();
        self.text.push_str(&text);
        Ok(text)
    }

    fn call_fragment(&mut self, call: &Value) -> Result<(), ProviderError> {
        let index = call
            .get("index")
            .and_then(Value::as_u64)
            .map_or(self.calls.len().saturating_sub(1), |i| i as usize);
        if index >= MAX_CALLS {
            return Err(ProviderError::Malformed("too many tool calls".into()));
        }
        while self.calls.len() <= index {
            self.calls.push(Partial::default());
        }
        let partial = &mut self.calls[index];
        let empty = Map::new();
        let function = call
            .get("function")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        if let Some(id) = call.get("id").and_then(Value::as_str) {
            partial.id = id.to_owned();
        }
        if let Some(name) = function.get("name").and_then(Value::as_str) {
            partial.name.push_str(name);
        }
        if let Some(fragment) = function.get("arguments").and_then(Value::as_str) {
            partial.arguments.push_str(fragment);
        }
        Ok(())
    }

    /// The text so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `[DONE]` arrived.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The whole answer, once the stream has ended.
    pub fn finish(self) -> Result<Reply, ProviderError> {
        let mut tool_calls = Vec::with_capacity(self.calls.len());
        for call in self.calls {
            tool_calls.push(ToolCall {
                arguments: arguments(&call.name, &call.arguments)?,
                id: call.id,
                name: call.name,
            });
        }
        let stop = self.stop.unwrap_or(if tool_calls.is_empty() {
            Stop::Done
        } else {
            Stop::ToolUse
        });
        Ok(Reply {
            text: if self.text.is_empty() {
                self.refusal
            } else {
                self.text
            },
            tool_calls,
            usage: self.usage,
            stop,
        })
    }
}

#[cfg(test)]
#[path = "openai_tests.rs"]
mod tests;
