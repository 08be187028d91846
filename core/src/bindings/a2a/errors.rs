//! A2A errors as JSON-RPC errors (A2A 1.0 §9.5, §3.3.2): `error.data` is an
//! array whose first object is a `google.rpc.ErrorInfo` —
//! `{"@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain,
//! metadata}` — as the official SDKs send it.
//!
//! * `reason` is the A2A error type in UPPER_SNAKE_CASE without `Error`
//!   (`TASK_NOT_FOUND`, `UNSUPPORTED_OPERATION`, `INVALID_PARAMS`, …), with
//!   `domain` `a2a-protocol.org`;
//! * agentnet's own refusals (`-31000`, e.g. a rate limit) say their
//!   agentnet code as the reason (`RATE_LIMITED`), with `domain` `agentnet`;
//! * `metadata` (string values only, as `ErrorInfo` has them) keeps what the
//!   error said before: `metadata.code` is the agentnet error code, when
//!   there is one (`invalid_transition`, `not_found`, …).
//!
//! An error answers the request's `id`, or `null` when none could be read
//! (JSON-RPC 2.0 §5).

use super::version::A2aError;
use crate::bindings::jsonrpc::{self, Code, Id, RpcError};
use serde_json::{Map, Value, json};

/// The `@type` of a `google.rpc.ErrorInfo` in ProtoJSON `Any` form.
pub const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";
/// The `domain` of A2A's own errors.
pub const A2A_DOMAIN: &str = "a2a-protocol.org";
/// The `domain` of agentnet's refusals (`-31000`).
pub const AGENTNET_DOMAIN: &str = "agentnet";

/// The ErrorInfo `reason` of an A2A or JSON-RPC error `code`, if it is one.
pub fn reason(code: i64) -> Option<&'static str> {
    if let Some(error) = A2aError::of(code) {
        return Some(error.reason());
    }
    Some(match Code::of(code)? {
        Code::ParseError => "JSON_PARSE",
        Code::InvalidRequest => "INVALID_REQUEST",
        Code::MethodNotFound => "METHOD_NOT_FOUND",
        Code::InvalidParams => "INVALID_PARAMS",
        Code::InternalError => "INTERNAL_ERROR",
        Code::NetworkRefused => return None,
    })
}

/// `metadata` as `ErrorInfo` has it: a map of strings.
fn strings(fields: &Map<String, Value>) -> Map<String, Value> {
    fields
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| {
            let text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            (k.clone(), Value::String(text))
        })
        .collect()
}

/// The ErrorInfo of an error with `code` and `metadata`.
fn error_info(code: i64, metadata: &Map<String, Value>) -> Value {
    let agentnet = || {
        metadata
            .get("code")
            .and_then(Value::as_str)
            .map(str::to_ascii_uppercase)
    };
    let (reason, domain) = match reason(code) {
        Some(reason) => (reason.to_owned(), A2A_DOMAIN),
        None => (
            agentnet().unwrap_or_else(|| "UNKNOWN_ERROR".to_owned()),
            AGENTNET_DOMAIN,
        ),
    };
    json!({"@type": ERROR_INFO_TYPE, "reason": reason, "domain": domain, "metadata": strings(metadata)})
}

/// An A2A error: `code`, `message` and an ErrorInfo with `metadata`.
pub fn a2a(code: A2aError, message: impl Into<String>, metadata: Map<String, Value>) -> RpcError {
    RpcError::new(code, message).with_data(json!([error_info(code.code(), &metadata)]))
}

/// `error` in A2A's shape: data that is not already an array of typed
/// details becomes one ErrorInfo (an object's fields its metadata).
pub fn typed(error: RpcError) -> RpcError {
    let metadata = match &error.data {
        Some(Value::Array(details)) if details.iter().all(|d| d.get("@type").is_some()) => {
            return error;
        }
        Some(Value::Object(fields)) => fields.clone(),
        Some(other) => {
            let mut fields = Map::new();
            fields.insert("detail".into(), other.clone());
            fields
        }
        None => Map::new(),
    };
    RpcError {
        data: Some(json!([error_info(error.code, &metadata)])),
        ..error
    }
}

/// The response to request `id` (`null` when unknown) with `error`.
pub fn response(id: Option<&Id>, error: &RpcError) -> Value {
    with_id(jsonrpc::error(id, &typed(error.clone())))
}

/// `response` with `"id": null` when it has no id.
fn with_id(response: Value) -> Value {
    match response {
        Value::Object(mut fields) => {
            fields.entry("id").or_insert(Value::Null);
            Value::Object(fields)
        }
        other => other,
    }
}

/// A JSON-RPC message in A2A's shape: an error response gets its ErrorInfo
/// and an `id` (`null` when it had none); anything else is unchanged.
pub fn conform(message: Value) -> Value {
    let Value::Object(mut fields) = message else {
        return message;
    };
    let Some(Value::Object(error)) = fields.get("error") else {
        return Value::Object(fields);
    };
    let rpc = RpcError {
        code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
        message: error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        data: error.get("data").cloned(),
    };
    fields.insert("error".into(), typed(rpc).to_value());
    with_id(Value::Object(fields))
}

/// The id of a JSON-RPC request body, when it has a readable one.
pub fn request_id(body: &str) -> Option<Id> {
    let value: Value = serde_json::from_str(body).ok()?;
    Id::from_value(value.get("id")?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_a2a_error_has_its_own_code_and_reason() {
        for error in A2aError::ALL {
            assert_eq!(A2aError::of(error.code()), Some(error));
            assert_eq!(reason(error.code()), Some(error.reason()));
        }
        assert_eq!(A2aError::ExtendedCardNotConfigured.code(), -32007);
        assert_eq!(reason(-32007), Some("EXTENDED_AGENT_CARD_NOT_CONFIGURED"));
        assert_eq!(A2aError::of(-32010), None);
    }

    #[test]
    fn a2a_errors_carry_an_error_info_in_an_array() {
        let mut metadata = Map::new();
        metadata.insert("taskId".into(), json!("t1"));
        let err = a2a(A2aError::TaskNotFound, "no task t1", metadata);
        let data = err.data.unwrap_or_default();
        assert_eq!(
            data,
            json!([{"@type": ERROR_INFO_TYPE, "reason": "TASK_NOT_FOUND",
                "domain": "a2a-protocol.org", "metadata": {"taskId": "t1"}}])
        );
    }

    #[test]
    fn untyped_data_becomes_error_info_metadata() {
        let err = RpcError::new(Code::NetworkRefused, "rate_limited: slow down")
            .with_data(json!({"code": "rate_limited", "retry": 3}));
        let out = typed(err);
        let info = &out.data.unwrap_or_default()[0];
        assert_eq!(info["reason"], "RATE_LIMITED");
        assert_eq!(info["domain"], "agentnet");
        assert_eq!(
            info["metadata"],
            json!({"code": "rate_limited", "retry": "3"})
        );
        let plain = typed(RpcError::invalid_params("bad"));
        assert_eq!(
            plain.data.unwrap_or_default()[0]["reason"],
            "INVALID_PARAMS"
        );
    }

    #[test]
    fn conformed_errors_have_an_id_and_typed_details_and_results_are_unchanged() {
        let bare = json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "x"}});
        let out = conform(bare);
        assert_eq!(out["id"], Value::Null);
        assert_eq!(out["error"]["data"][0]["reason"], "INVALID_REQUEST");
        let typed_once = conform(out.clone());
        assert_eq!(typed_once, out);
        let result = json!({"jsonrpc": "2.0", "id": 1, "result": {"data": {}}});
        assert_eq!(conform(result.clone()), result);
        assert_eq!(
            request_id(r#"{"id": 4, "method": "x"}"#),
            Some(Id::Number(4))
        );
        assert_eq!(request_id("not json"), None);
    }
}
