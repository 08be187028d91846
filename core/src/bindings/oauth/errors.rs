//! OAuth errors as the token and registration endpoints answer them
//! (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707 §2): `400` (or `401` for
//! `invalid_client`) with `{"error", "error_description"}`, never cached.
//! The same codes go back to a client's redirect URI from the
//! authorization endpoint (RFC 6749 §4.1.2.1).

use crate::bindings::message::Response;
use serde_json::json;

/// An OAuth error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// Something is missing, repeated or malformed.
    InvalidRequest,
    /// The client is unknown (or did not authenticate as it must).
    InvalidClient,
    /// The code or refresh token is unknown, used, expired, or not this client's.
    InvalidGrant,
    /// A grant type this server does not issue.
    UnsupportedGrantType,
    /// A response type other than `code`.
    UnsupportedResponseType,
    /// A `resource` other than this network's MCP endpoint (RFC 8707).
    InvalidTarget,
    /// The person declined.
    AccessDenied,
    /// A registration's redirect URI is not acceptable (RFC 7591).
    InvalidRedirectUri,
    /// Other registration metadata is not acceptable (RFC 7591).
    InvalidClientMetadata,
}

impl Code {
    /// The code as the protocol writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidRequest => "invalid_request",
            Self::InvalidClient => "invalid_client",
            Self::InvalidGrant => "invalid_grant",
            Self::UnsupportedGrantType => "unsupported_grant_type",
            Self::UnsupportedResponseType => "unsupported_response_type",
            Self::InvalidTarget => "invalid_target",
            Self::AccessDenied => "access_denied",
            Self::InvalidRedirectUri => "invalid_redirect_uri",
            Self::InvalidClientMetadata => "invalid_client_metadata",
        }
    }
}

/// An OAuth error with its description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {description}", code.as_str())]
pub struct OAuthError {
    /// The code.
    pub code: Code,
    /// What went wrong, for the developer.
    pub description: String,
}

impl OAuthError {
    /// An error with `code`.
    pub fn new(code: Code, description: impl Into<String>) -> Self {
        Self {
            code,
            description: description.into(),
        }
    }

    /// The JSON response of RFC 6749 §5.2.
    pub fn response(&self) -> Response {
        let status = if self.code == Code::InvalidClient {
            401
        } else {
            400
        };
        no_store(Response::json(json!({
            "error": self.code.as_str(),
            "error_description": self.description,
        })))
        .with_status(status)
    }
}

/// `response` marked not to be cached (RFC 6749 §5.1), reachable from any origin.
pub fn no_store(response: Response) -> Response {
    response
        .with_header("Cache-Control", "no-store")
        .with_header("Pragma", "no-cache")
        .with_header("Access-Control-Allow-Origin", "*")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_have_the_rfc_6749_shape() {
        let response = OAuthError::new(Code::InvalidGrant, "the code was used").response();
        assert_eq!(response.status, 400);
        assert_eq!(
            response.json_body(),
            Some(&json!({"error": "invalid_grant", "error_description": "the code was used"}))
        );
        assert!(
            response
                .headers
                .contains(&("Cache-Control".into(), "no-store".into()))
        );
        assert_eq!(
            OAuthError::new(Code::InvalidClient, "x").response().status,
            401
        );
    }
}
