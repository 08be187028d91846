//! IOA's errors: `{"detail": "…"}` with IOA's status codes, from agentnet's
//! rejections and error responses; and the JSON object bodies IOA reads.

use crate::Rejection;
use crate::bindings::message::{Response, status_of};
use serde_json::{Map, Value, json};

/// Why IOA refuses a request: a status and IOA's `detail`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 401, 403, 404, 405, 422, 500 or 503.
    pub status: u16,
    /// The explanation.
    pub detail: String,
}

impl Refusal {
    /// A refusal with `status`.
    pub fn new(status: u16, detail: impl Into<String>) -> Self {
        Self {
            status,
            detail: detail.into(),
        }
    }

    /// Bad input: 422.
    pub fn input(detail: impl Into<String>) -> Self {
        Self::new(422, detail)
    }

    /// Nothing there: 404.
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(404, detail)
    }

    /// An agentnet error response (`{code, message}`) as IOA's.
    pub fn from_response(response: &Response) -> Self {
        let body = response.json_body();
        let text = |k: &str| {
            body.and_then(|e| e.get(k))
                .and_then(Value::as_str)
                .unwrap_or("")
        };
        Self::new(
            ioa_status(response.status),
            format!("{}: {}", text("code"), text("message")),
        )
    }

    /// IOA's answer.
    pub fn response(&self) -> Response {
        Response::json(json!({"detail": self.detail})).with_status(self.status)
    }
}

/// IOA answers bad input with 422 where agentnet says 400 (or 409 for a taken name).
fn ioa_status(status: u16) -> u16 {
    match status {
        400 | 409 | 413 => 422,
        other => other,
    }
}

impl From<&Rejection> for Refusal {
    fn from(rejection: &Rejection) -> Self {
        Self::new(
            ioa_status(status_of(rejection.code)),
            format!("{}: {}", rejection.code, rejection.message),
        )
    }
}

/// A JSON object body (IOA answers 422 for anything else).
pub fn object_body(text: &str) -> Result<Map<String, Value>, Refusal> {
    if text.len() > crate::Limits::default().max_frame_bytes {
        return Err(Refusal::input("request body is too large"));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(body)) => Ok(body),
        Ok(_) => Err(Refusal::input("request body must be a JSON object")),
        Err(err) => Err(Refusal::input(err.to_string())),
    }
}
