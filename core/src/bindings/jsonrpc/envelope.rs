//! The messages on the wire as serde types — [`Call`], [`Notification`],
//! [`Success`], [`Failure`], and [`Answer`] for reading a peer's — with request
//! ids ([`Id`]) and the error object ([`RpcError`]).

use super::codes::{Code, RpcCode};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// A request id: a string or an integer (MCP forbids `null`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
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
            Self::Number(n) => Value::from(*n),
            Self::Text(text) => Value::String(text.clone()),
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RpcError {
    /// The code (a [`RpcCode`]'s number; any number when read from a peer).
    pub code: i64,
    /// A short description.
    pub message: String,
    /// More about it, when there is more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl RpcError {
    /// An error without data.
    pub fn new(code: impl RpcCode, message: impl Into<String>) -> Self {
        Self {
            code: code.code(),
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
        Self::new(Code::InvalidParams, message)
    }

    /// Whether its code is `code`.
    pub fn is(&self, code: impl RpcCode) -> bool {
        self.code == code.code()
    }

    /// The error object as JSON.
    pub fn to_value(&self) -> Value {
        json_of(self)
    }
}

/// `"jsonrpc": "2.0"`, which every message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum V2 {
    /// The only version.
    #[default]
    #[serde(rename = "2.0")]
    V2,
}

/// A request: it gets an answer under its id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Call<P = Map<String, Value>> {
    /// `"2.0"`.
    pub jsonrpc: V2,
    /// Its id.
    pub id: Id,
    /// The method.
    pub method: String,
    /// The parameters.
    pub params: P,
}

/// A notification: a method called without an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Notification<P = Value> {
    /// `"2.0"`.
    pub jsonrpc: V2,
    /// The method.
    pub method: String,
    /// The parameters.
    pub params: P,
}

/// A successful answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Success<R = Value> {
    /// `"2.0"`.
    pub jsonrpc: V2,
    /// The request's id.
    pub id: Id,
    /// The result.
    pub result: R,
}

/// An error answer (without `id` when the request's could not be read).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// `"2.0"`.
    pub jsonrpc: V2,
    /// The request's id, if it had a readable one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Id>,
    /// The error.
    pub error: RpcError,
}

/// An answer a peer sent: its result or its error.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Answer<R = Value> {
    /// A result.
    Success(Success<R>),
    /// An error.
    Failure(Failure),
}

impl<P: Serialize> Call<P> {
    /// A request of `method` under `id`.
    pub fn new(id: Id, method: impl Into<String>, params: P) -> Self {
        Self {
            jsonrpc: V2::V2,
            id,
            method: method.into(),
            params,
        }
    }

    /// The request as JSON.
    pub fn to_value(&self) -> Value {
        json_of(self)
    }
}

/// `value` as JSON: an envelope's fields are strings and JSON values, which
/// always serialize.
fn json_of<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}

/// A result response.
pub fn result(id: &Id, result: Value) -> Value {
    json_of(&Success {
        jsonrpc: V2::V2,
        id: id.clone(),
        result,
    })
}

/// An error response (without `id` when none could be read).
pub fn error(id: Option<&Id>, error: &RpcError) -> Value {
    json_of(&Failure {
        jsonrpc: V2::V2,
        id: id.cloned(),
        error: error.clone(),
    })
}

/// A notification from the server.
pub fn notification(method: &str, params: Value) -> Value {
    json_of(&Notification {
        jsonrpc: V2::V2,
        method: method.to_owned(),
        params,
    })
}
