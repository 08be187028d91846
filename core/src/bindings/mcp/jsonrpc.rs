//! JSON-RPC 2.0 framing as MCP uses it: reading a POST body into messages,
//! and writing results, errors and notifications.
//!
//! A body is one message or (revision 2025-03-26 only) a batch array. Every
//! malformed input is an [`RpcError`] with its standard code, never a panic:
//! text that is not JSON is a parse error (-32700); JSON that is not a
//! message — no `"jsonrpc": "2.0"`, a method that is no string, an id that is
//! `null`, a float or an object — is an invalid request (-32600); `params`
//! that are not an object are invalid params (-32602).

use serde_json::{Map, Value, json};
use std::fmt;

/// Invalid JSON was received.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON sent is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist or is not available.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters.
pub const INVALID_PARAMS: i64 = -32602;
/// Internal error.
pub const INTERNAL_ERROR: i64 = -32603;
/// Resource not found (revisions up to 2025-11-25).
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// Headers do not match the body (2026-07-28).
pub const HEADER_MISMATCH: i64 = -32020;
/// The protocol version is not supported (2026-07-28).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// The network refused what the request asked (an agentnet code outside the
/// JSON-RPC reserved range; `data.code` says which, e.g. `rate_limited`).
pub const NETWORK_REFUSED: i64 = -31000;

/// A request id: a string or an integer (MCP forbids `null`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Id {
    /// An integer id.
    Number(i64),
    /// A string id.
    Text(String),
}

impl Id {
    /// Reads an id: a string or an integer; anything else is not one.
    pub fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::String(text) => Some(Self::Text(text.clone())),
            Value::Number(n) => n.as_i64().map(Self::Number),
            _ => None,
        }
    }

    /// The id as JSON.
    pub fn to_value(&self) -> Value {
        match self {
            Self::Number(n) => json!(n),
            Self::Text(text) => json!(text),
        }
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::Text(text) => f.write_str(text),
        }
    }
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The code.
    pub code: i64,
    /// A short description.
    pub message: String,
    /// More about it, when there is more.
    pub data: Option<Value>,
}

impl RpcError {
    /// An error without data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// The error with `data`.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// Invalid params (-32602).
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(INVALID_PARAMS, message)
    }

    /// The error object as JSON.
    pub fn to_value(&self) -> Value {
        let mut error = Map::new();
        error.insert("code".into(), json!(self.code));
        error.insert("message".into(), json!(self.message));
        if let Some(data) = &self.data {
            error.insert("data".into(), data.clone());
        }
        Value::Object(error)
    }
}

/// One message a client sent.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request: it gets an answer.
    Request {
        /// Its id.
        id: Id,
        /// The method.
        method: String,
        /// The parameters (an empty object when none were sent).
        params: Map<String, Value>,
    },
    /// A notification: no answer.
    Notification {
        /// The method.
        method: String,
        /// The parameters (an empty object when none were sent).
        params: Map<String, Value>,
    },
    /// A response to a request of the server's (an `elicitation/create`,
    /// [`super::elicit`]; any other is accepted and dropped).
    Response {
        /// The id it answers.
        id: Id,
        /// Its `result`; `None` when it is an error.
        result: Option<Value>,
    },
}

/// A message that could not be read, with the id to answer it under when one could be read.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// The request's id, if it had a readable one.
    pub id: Option<Id>,
    /// Why it was refused.
    pub error: RpcError,
}

impl Refused {
    fn new(id: Option<Id>, code: i64, message: impl Into<String>) -> Self {
        Self {
            id,
            error: RpcError::new(code, message),
        }
    }

    /// The error response for it.
    pub fn response(&self) -> Value {
        error(self.id.as_ref(), &self.error)
    }
}

/// What a POST body holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// One message.
    Single(Message),
    /// A batch: each element read on its own.
    Batch(Vec<Result<Message, Refused>>),
}

/// Reads a POST body. The whole body fails only when it is not JSON (-32700)
/// or is neither an object nor a non-empty array (-32600).
pub fn parse(text: &str) -> Result<Body, Refused> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Refused::new(None, PARSE_ERROR, format!("Parse error: {e}")))?;
    match value {
        Value::Array(items) if items.is_empty() => Err(Refused::new(
            None,
            INVALID_REQUEST,
            "Invalid Request: an empty batch",
        )),
        Value::Array(items) => Ok(Body::Batch(items.into_iter().map(message).collect())),
        other => message(other).map(Body::Single),
    }
}

/// Reads one message.
pub fn message(value: Value) -> Result<Message, Refused> {
    let Value::Object(mut object) = value else {
        return Err(Refused::new(
            None,
            INVALID_REQUEST,
            "Invalid Request: a message is a JSON object",
        ));
    };
    let raw_id = object.remove("id");
    let id = match &raw_id {
        None => None,
        Some(value) => match Id::from_value(value) {
            Some(id) => Some(id),
            None => {
                return Err(Refused::new(
                    None,
                    INVALID_REQUEST,
                    "Invalid Request: id must be a string or an integer",
                ));
            }
        },
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Refused::new(
            id,
            INVALID_REQUEST,
            "Invalid Request: jsonrpc must be \"2.0\"",
        ));
    }
    let method = match object.remove("method") {
        Some(Value::String(method)) => method,
        Some(_) => {
            return Err(Refused::new(
                id,
                INVALID_REQUEST,
                "Invalid Request: method must be a string",
            ));
        }
        None => {
            let answers = object.contains_key("result") || object.contains_key("error");
            let result = object
                .remove("result")
                .filter(|_| !object.contains_key("error"));
            return match id {
                Some(id) if answers => Ok(Message::Response { id, result }),
                _ => Err(Refused::new(
                    id,
                    INVALID_REQUEST,
                    "Invalid Request: no method",
                )),
            };
        }
    };
    let params = match object.remove("params") {
        None => Map::new(),
        Some(Value::Object(params)) => params,
        Some(_) => {
            return Err(Refused::new(
                id,
                INVALID_PARAMS,
                "Invalid params: params must be an object",
            ));
        }
    };
    Ok(match id {
        Some(id) => Message::Request { id, method, params },
        None => Message::Notification { method, params },
    })
}

/// The string parameter `key`, or invalid params.
pub fn string_param<'a>(params: &'a Map<String, Value>, key: &str) -> Result<&'a str, RpcError> {
    params
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::invalid_params(format!("Invalid params: {key} must be a string")))
}

/// A result response.
pub fn result(id: &Id, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id.to_value(), "result": result})
}

/// An error response (without `id` when none could be read).
pub fn error(id: Option<&Id>, error: &RpcError) -> Value {
    let mut response = Map::new();
    response.insert("jsonrpc".into(), json!("2.0"));
    if let Some(id) = id {
        response.insert("id".into(), id.to_value());
    }
    response.insert("error".into(), error.to_value());
    Value::Object(response)
}

/// A notification from the server.
pub fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

#[cfg(test)]
#[path = "jsonrpc_tests.rs"]
mod tests;
