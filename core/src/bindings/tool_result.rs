//! A tool's answer as the bindings read it: the payload of the
//! `network.resource.invoke.result` its owner sends, `{output}` or
//! `{error: {code, message}}`, read once into typed fields. The owner is any
//! member, so the reading is lenient as it always was: a field of another
//! type reads as absent, a payload that is no object has no fields, and the
//! readers (MCP's tool results, the hosted agents' loops) decide what an
//! answer without `output` means.

use crate::model::requests::field::{read, request_types};
use serde_json::Value;

/// The code of a failure whose owner gave none as text.
pub const TOOL_FAILED: &str = "tool_failed";

request_types! {
    /// The payload of `network.resource.invoke.result`.
    pub struct InvokeResult {
        /// The tool's output: any JSON (`null` too), as the tool made it.
        output: Value,
        /// Why the tool failed; `null` is no failure. Any JSON: an owner
        /// that answers in its own shape is told back as it sent it.
        error: Value,
    }

    /// The fields of an [`InvokeResult`]'s `error`, when it is an object.
    pub struct ErrorFields {
        /// A stable code.
        code: String,
        /// What went wrong, for people.
        message: String,
    }
}

/// A failure an owner answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// Its code, [`TOOL_FAILED`] when the owner gave none as text.
    pub code: String,
    /// Its message, when the owner gave one as text.
    pub message: Option<String>,
    /// The error as the owner sent it.
    pub error: Value,
}

impl InvokeResult {
    /// `payload` read: any JSON reads (what is not an object has no fields).
    pub fn of(payload: &Value) -> Self {
        read(payload)
    }

    /// The failure, when the payload has an `error` that is not `null`.
    pub fn failure(&self) -> Option<Failure> {
        let error = self.error.as_given()?;
        let fields: ErrorFields = read(error);
        Some(Failure {
            code: fields.code.as_text().unwrap_or(TOOL_FAILED).to_owned(),
            message: fields.message.given(),
            error: error.clone(),
        })
    }

    /// The output, when the payload has one (`null` too).
    pub fn output(self) -> Option<Value> {
        self.output.value()
    }
}
