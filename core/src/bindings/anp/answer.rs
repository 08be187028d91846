//! What an ANP caller reads back: a tool's result as a plain JSON-RPC
//! answer. The tool's output is the `result`; a failed call is an error
//! [`AnpError::ToolFailed`] whose `data` is the failure's `{code, message}`;
//! an unknown tool is "method not found" (-32601), the method being the tool.

use crate::bindings::jsonrpc::{self, Code, Id, RpcCode, RpcError};
use serde::Deserialize;
use serde_json::Value;

/// ANP's own JSON-RPC error codes (the shared ones are [`Code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnpError {
    /// A tool call that failed (-32000); `data` is the failure's `{code, message}`.
    ToolFailed,
}

impl RpcCode for AnpError {
    fn code(self) -> i64 {
        match self {
            Self::ToolFailed => -32000,
        }
    }
}

/// What ANP reads of a tool's result (MCP's `CallToolResult`, the shape
/// every tool answers in).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolResult {
    /// Whether the call failed.
    #[serde(default)]
    is_error: bool,
    /// The content blocks; the first one's text is the answer when there is
    /// no structured content.
    #[serde(default)]
    content: Vec<ContentBlock>,
    /// The tool's output as JSON.
    #[serde(default)]
    structured_content: Option<Value>,
}

/// A content block of a [`ToolResult`] (its text, when it is a text block).
#[derive(Debug, Deserialize)]
struct ContentBlock {
    #[serde(default)]
    text: Option<String>,
}

/// The answer to call `id` whose tool answered `result` (JSON that is no
/// tool result is the `result` as it is).
pub fn result(id: &Id, result: Value) -> Value {
    let Ok(tool) = serde_json::from_value::<ToolResult>(result.clone()) else {
        return jsonrpc::result(id, result);
    };
    let text = tool.content.into_iter().next().and_then(|c| c.text);
    if tool.is_error {
        let data = tool
            .structured_content
            .and_then(|s| s.get("error").cloned())
            .unwrap_or(Value::Null);
        let message = text.unwrap_or_else(|| "the tool call failed".to_owned());
        let error = RpcError::new(AnpError::ToolFailed, message).with_data(data);
        return jsonrpc::error(Some(id), &error);
    }
    let output = match tool.structured_content {
        Some(structured) => structured,
        None => text.map_or(Value::Null, Value::String),
    };
    jsonrpc::result(id, output)
}

/// The answer to call `id` that was refused with `error` (an unknown tool
/// is an unknown method).
pub fn error(id: &Id, mut error: RpcError) -> Value {
    if error.is(Code::InvalidParams) && error.message.starts_with("Unknown tool") {
        error.code = Code::MethodNotFound.code();
        error.message = error
            .message
            .replacen("Unknown tool", "Method not found", 1);
    }
    jsonrpc::error(Some(id), &error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tool_results_become_results_and_errors_in_anp_terms() {
        let id = Id::Number(1);
        let done = json!({"content": [{"type": "text", "text": "{\"a\":1}"}], "structuredContent": {"a": 1}, "isError": false});
        assert_eq!(
            result(&id, done),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"a": 1}})
        );
        let text = json!({"content": [{"type": "text", "text": "hi"}]});
        assert_eq!(result(&id, text)["result"], "hi");
        let failed = json!({"content": [{"type": "text", "text": "forbidden: no"}], "structuredContent": {"error": {"code": "forbidden", "message": "no"}}, "isError": true});
        assert_eq!(
            result(&id, failed)["error"],
            json!({"code": -32000, "message": "forbidden: no", "data": {"code": "forbidden", "message": "no"}})
        );
        let unknown = error(&id, RpcError::invalid_params("Unknown tool: x"));
        assert_eq!(unknown["error"]["code"], -32601);
        assert_eq!(unknown["error"]["message"], "Method not found: x");
        let other = error(&id, RpcError::invalid_params("Invalid params: no"));
        assert_eq!(other["error"]["code"], -32602);
    }
}
