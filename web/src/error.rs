//! What can go wrong in the workspace itself, as typed errors.
//!
//! Each error has a stable [`WebError::code`] (what tests and logs match on)
//! and a sentence for people (its `Display`, which the page shows).

use agentnet_core::error::{ErrorCode, Rejection};

/// An error of the browser workspace.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WebError {
    /// The replica (or the network through it) refused a document operation.
    #[error("{}", .0.message)]
    Refused(Rejection),
    /// A required field of a tool form is empty.
    #[error("Please fill in {0}.")]
    MissingField(String),
    /// A number field of a tool form holds something else.
    #[error("{0} must be a number.")]
    NotANumber(String),
    /// A context's edited text is not JSON.
    #[error("A context is JSON, and this is not: {0}.")]
    NotJson(String),
    /// A chosen name cannot be an address.
    #[error("“{0}” cannot be a name: use letters, digits, dots, dashes or underscores")]
    InvalidName(String),
    /// A token network's token is shorter than the edge accepts.
    #[error("An access token needs at least {0} characters")]
    TokenTooShort(usize),
    /// The edge refused or failed a request, in its words.
    #[error("{0}")]
    Edge(String),
    /// The edge answered something this page does not understand.
    #[error("the edge gave an answer this page does not understand")]
    UnexpectedAnswer,
    /// The edge created a network without saying its id.
    #[error("the edge gave no network id")]
    NoNetworkId,
    /// The network's profile could not be fetched.
    #[error("the network's profile cannot be reached right now")]
    Unreachable,
    /// The network's profile is not readable JSON.
    #[error("the profile could not be read")]
    UnreadableProfile,
    /// The browser would not open a WebSocket.
    #[error("This browser could not open a connection to the network.")]
    NoSocket,
}

impl WebError {
    /// The stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Refused(rejection) => rejection.code.as_str(),
            Self::MissingField(_) => "missing_field",
            Self::NotANumber(_) => "not_a_number",
            Self::NotJson(_) => ErrorCode::MalformedEvent.as_str(),
            Self::InvalidName(_) => ErrorCode::InvalidAddress.as_str(),
            Self::TokenTooShort(_) => "token_too_short",
            Self::Edge(_) => "edge_error",
            Self::UnexpectedAnswer => "unexpected_answer",
            Self::NoNetworkId => "no_network_id",
            Self::Unreachable => "unreachable",
            Self::UnreadableProfile => "unreadable_profile",
            Self::NoSocket => "no_socket",
        }
    }
}

impl From<Rejection> for WebError {
    fn from(rejection: Rejection) -> Self {
        Self::Refused(rejection)
    }
}

/// The `message` of a JS error (a rejected promise of `web/js/`), for
/// people; `fallback` when it has none.
pub fn js_message(error: &wasm_bindgen::JsValue, fallback: &str) -> String {
    js_sys::Reflect::get(error, &wasm_bindgen::JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| fallback.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_have_stable_codes_and_words_for_people() {
        let refused = WebError::from(Rejection::new(ErrorCode::Forbidden, "no write permission"));
        assert_eq!(refused.to_string(), "no write permission");
        assert_eq!(refused.code(), "forbidden");
        assert_eq!(
            WebError::NotANumber("a".into()).to_string(),
            "a must be a number."
        );
        assert_eq!(WebError::MissingField("a".into()).code(), "missing_field");
        assert_eq!(
            WebError::InvalidName("a b".into()).code(),
            "invalid_address"
        );
    }
}
