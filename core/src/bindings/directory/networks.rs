//! Creating a network from the Worker (`POST /v1/networks`, which
//! [`crate::bindings::route`] reads): the body gets a fresh `id` and goes to the object
//! of that name ([`super::create`]); a public network is then registered in
//! the directory.
//!
//! The directory and creation limits are [`crate::bindings::directory`]'s.

use crate::ErrorCode;
use crate::bindings::message::Response;
use crate::event::Limits;
use serde_json::{Value, json};

/// A creation to forward to the object named `id`.
#[derive(Debug, Clone, PartialEq)]
pub struct Creation {
    /// The new network's id (the object's name).
    pub id: String,
    /// The body for the object's [`crate::bindings::http::CREATE_PATH`], with the id set.
    pub body: String,
    /// Whether to list the network once it exists.
    pub public: bool,
    /// The body that registers the network in the directory ([`crate::bindings::directory::DIRECTORY_REGISTER`]).
    pub listing: String,
}

/// Reads a `POST /v1/networks` body and gives it the id `id`; `creator` is
/// [`crate::bindings::directory::creator_of`] the request, for the directory's listing cap.
pub fn creation(text: &str, id: String, creator: &str) -> Result<Creation, Response> {
    // Unauthenticated: bounded like any frame before it is parsed (413), and
    // serde_json refuses nesting deeper than 128 levels.
    if text.len() > Limits::default().max_frame_bytes {
        return Err(Response::error(
            ErrorCode::TooLarge,
            "the body exceeds the frame limit",
        ));
    }
    let mut body: Value = serde_json::from_str(text)
        .map_err(|_| Response::error(ErrorCode::MalformedEvent, "the body is not JSON"))?;
    let Value::Object(object) = &mut body else {
        return Err(Response::error(
            ErrorCode::InvalidRequest,
            "the body is a JSON object",
        ));
    };
    object.insert("id".into(), json!(id));
    let public = object
        .get("public")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let name = object.get("name").cloned().unwrap_or(Value::Null);
    let description = object
        .get("description")
        .and_then(Value::as_str)
        .map(|d| crate::bindings::directory::listed_description(d).to_owned());
    let listing =
        json!({"id": id, "name": name, "description": description, "creator": creator}).to_string();
    Ok(Creation {
        id,
        body: body.to_string(),
        public,
        listing,
    })
}

/// The status of the object's answer to a creation that succeeded.
pub const CREATED: u16 = 201;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_creation_gets_its_id_and_listing() {
        let made = creation(
            "{\"name\": \"n\", \"public\": true}",
            "abcd1234".into(),
            "c1",
        )
        .unwrap();
        assert!(made.public);
        let body: Value = serde_json::from_str(&made.body).unwrap();
        assert_eq!(body["id"], "abcd1234");
        let listed: Value = serde_json::from_str(&made.listing).unwrap();
        assert_eq!(
            listed,
            json!({"id": "abcd1234", "name": "n", "description": null, "creator": "c1"})
        );
        let described = creation(
            r#"{"name": "n", "description": "we plan"}"#,
            "a".into(),
            "c1",
        );
        let listed: Value = serde_json::from_str(&described.unwrap().listing).unwrap();
        assert_eq!(
            listed["description"], "we plan",
            "the listing shows the description"
        );
        assert_eq!(
            creation("[1]", "a".into(), "c1")
                .unwrap_err()
                .status_and_code(),
            (400, "invalid_request")
        );
        assert_eq!(
            creation("{", "a".into(), "c1")
                .unwrap_err()
                .status_and_code(),
            (400, "malformed_event")
        );
        // An unauthenticated body is bounded before it is parsed, and deep nesting is refused.
        let huge = format!("{{\"name\": \"{}\"}}", "x".repeat(2 * 1024 * 1024));
        assert_eq!(
            creation(&huge, "a".into(), "c1")
                .unwrap_err()
                .status_and_code(),
            (413, "too_large")
        );
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(
            creation(&deep, "a".into(), "c1")
                .unwrap_err()
                .status_and_code(),
            (400, "malformed_event")
        );
    }
}
