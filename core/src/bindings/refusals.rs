//! Identity, discovery and outbound-fetch errors as HTTP responses: `{code, message,
//! reason}` with the error's status (used by the registry's and the
//! discovery service's routes).

use super::message::{Body, Response};
use crate::discovery::DiscoveryError;
use crate::error::Coded;
use crate::identity::error::IdentityError;
use crate::outbound::OutboundError;
use serde_json::{Value, json};

fn with_reason(mut response: Response, reason: &str) -> Response {
    if let Body::Json(Value::Object(body)) = &mut response.body {
        body.insert("reason".into(), json!(reason));
    }
    response
}

/// An identity error as a response: `{code, message, reason}`; a revoked agent is 410.
pub fn identity_refusal(error: &IdentityError) -> Response {
    let mut response = with_reason(
        Response::error(error.code(), error.to_string()),
        error.reason(),
    );
    if matches!(error, IdentityError::Revoked(_)) {
        response.status = 410;
    }
    response
}

/// A discovery error as a response: `{code, message, reason}` with its status (410 behind the feed's window).
pub fn discovery_refusal(error: &DiscoveryError) -> Response {
    let response = with_reason(
        Response::error(error.code(), error.to_string()).with_status(error.status()),
        error.reason(),
    );
    match error.retry_after() {
        Some(seconds) => response.with_header("retry-after", &seconds.to_string()),
        None => response,
    }
}

/// A URL the outbound policy refuses, or a fetch of `what` that gave no
/// answer: `{code, message, reason}`, 400 or 502; the message names the
/// reason and never how the connection failed.
pub fn outbound_refusal(what: &str, error: &OutboundError) -> Response {
    with_reason(
        Response::error(error.code(), format!("{what}: {error}")).with_status(error.status()),
        error.reason(),
    )
}
