//! A document's content as an editor shows it and as it is sent, and what
//! is known of a structured (JSON) context being read or saved. A context's
//! content is JSON and is checked before it is sent.

use crate::error::WebError;
use serde_json::Value;

/// The text an editor shows for a resource's content: a file's text as is,
/// anything else as pretty JSON (the core's rule, shared with documents).
pub use agentnet_core::documents::content_text as text_of;

/// The content to send for edited `text`: a file's text as a string, a
/// context's as JSON (an error when it is not JSON).
pub fn content_from(kind: &str, text: &str) -> Result<Value, WebError> {
    if kind == "context" {
        serde_json::from_str(text).map_err(|e| WebError::NotJson(e.to_string()))
    } else {
        Ok(Value::String(text.to_owned()))
    }
}

/// What is known of an opened document.
#[derive(Clone, Debug, PartialEq)]
pub enum Opened {
    /// Being read.
    Reading,
    /// Its text.
    Text(String),
    /// Saved (the text as saved).
    Saved(String),
    /// Why it could not be read or saved.
    Failed(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn files_are_text_and_contexts_are_checked_json() {
        assert_eq!(text_of(&json!("# plan")), "# plan");
        assert_eq!(
            text_of(&json!({"goal": "ship"})),
            "{\n  \"goal\": \"ship\"\n}"
        );
        assert_eq!(content_from("file", "{not json"), Ok(json!("{not json")));
        assert_eq!(content_from("context", "{\"a\": 1}"), Ok(json!({"a": 1})));
        let error = content_from("context", "{not json").unwrap_err();
        assert!(matches!(error, WebError::NotJson(_)));
        assert!(error.to_string().starts_with("A context is JSON"));
    }
}
