//! Reading what a client POSTs: one message or a batch, each element read on
//! its own into a [`Message`] or refused with the standard code that says why
//! ([`Refused`]).

use super::codes::Code;
use super::envelope::{Id, RpcError};
use serde_json::{Map, Value};

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
    /// A response to a request the server sent (MCP's `elicitation/create`;
    /// a binding drops any other).
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
    fn new(id: Option<Id>, code: Code, message: impl Into<String>) -> Self {
        Self {
            id,
            error: RpcError::new(code, message),
        }
    }

    /// An Invalid Request (-32600) saying `what` is wrong.
    fn invalid(id: Option<Id>, what: &str) -> Self {
        Self::new(id, Code::InvalidRequest, format!("Invalid Request: {what}"))
    }

    /// The error response for it.
    pub fn response(&self) -> Value {
        super::envelope::error(self.id.as_ref(), &self.error)
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
        .map_err(|e| Refused::new(None, Code::ParseError, format!("Parse error: {e}")))?;
    match value {
        Value::Array(items) if items.is_empty() => Err(Refused::invalid(None, "an empty batch")),
        Value::Array(items) => Ok(Body::Batch(items.into_iter().map(message).collect())),
        other => message(other).map(Body::Single),
    }
}

/// Reads one message.
pub fn message(value: Value) -> Result<Message, Refused> {
    let Value::Object(mut object) = value else {
        return Err(Refused::invalid(None, "a message is a JSON object"));
    };
    let raw_id = object.remove("id");
    let id = match &raw_id {
        None => None,
        Some(value) => match Id::from_value(value) {
            Some(id) => Some(id),
            None => {
                return Err(Refused::invalid(None, "id must be a string or an integer"));
            }
        },
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Refused::invalid(id, "jsonrpc must be \"2.0\""));
    }
    let method = match object.remove("method") {
        Some(Value::String(method)) => method,
        Some(_) => {
            return Err(Refused::invalid(id, "method must be a string"));
        }
        None => {
            let answers = object.contains_key("result") || object.contains_key("error");
            let result = object
                .remove("result")
                .filter(|_| !object.contains_key("error"));
            return match id {
                Some(id) if answers => Ok(Message::Response { id, result }),
                _ => Err(Refused::invalid(id, "no method")),
            };
        }
    };
    let params = match object.remove("params") {
        None => Map::new(),
        Some(Value::Object(params)) => params,
        Some(_) => {
            return Err(Refused::new(
                id,
                Code::InvalidParams,
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
