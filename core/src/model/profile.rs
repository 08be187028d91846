//! A member's profile: what it says about itself to the rest of the network.
//!
//! A short `description`, a free `meta` object (IOA's node `meta`, icons,
//! links), `listed`, the member's opt-in to being described outside the
//! network (public agent descriptions), and `tasks`, whether it takes tasks
//! (`false`: a `task.create` to it is refused at once with `takes_no_tasks`;
//! unsaid: tasks are delivered as before). A member sets it when it joins
//! (`profile` in the join payload) and replaces it with
//! `network.agent.profile`; the roster shows it. Every path in goes through
//! [`Profile::from_value`], so a stored profile is always within its limits.

use crate::error::{Coded, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1_000;
/// Largest `meta`, in bytes of its JSON text.
pub const MAX_META_BYTES: usize = 4_096;

/// What a member says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// A sentence or two for people and directories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Free-form fields (IOA's node `meta`).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
    /// True when the member agrees to be listed outside the network.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub listed: bool,
    /// Whether the member takes tasks; `None` when it has not said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<bool>,
}

/// Why a profile was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// Not a JSON object.
    #[error("profile must be a JSON object")]
    NotAnObject,
    /// A field this version does not know.
    #[error("profile has an unknown field \"{0}\"")]
    UnknownField(String),
    /// A field of the wrong JSON type.
    #[error("profile.{0} must be {1}")]
    WrongType(&'static str, &'static str),
    /// The description is too long.
    #[error("profile.description has at most {MAX_DESCRIPTION_CHARS} characters")]
    DescriptionTooLong,
    /// `meta` is too large.
    #[error("profile.meta is at most {MAX_META_BYTES} bytes of JSON")]
    MetaTooLarge,
}

impl Coded for ProfileError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidRequest
    }
}

impl Profile {
    /// True when the member said nothing about itself.
    pub fn is_empty(&self) -> bool {
        self == &Self::default()
    }

    /// Reads and checks a profile object: `{description?, meta?, listed?, tasks?}`;
    /// `null` fields read as absent, a blank description as none.
    pub fn from_value(value: &Value) -> Result<Self, ProfileError> {
        let Value::Object(fields) = value else {
            return Err(ProfileError::NotAnObject);
        };
        if let Some(unknown) = fields
            .keys()
            .find(|k| !["description", "meta", "listed", "tasks"].contains(&k.as_str()))
        {
            return Err(ProfileError::UnknownField(unknown.clone()));
        }
        let description = match fields.get("description") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) if text.trim().is_empty() => None,
            Some(Value::String(text)) if text.chars().count() > MAX_DESCRIPTION_CHARS => {
                return Err(ProfileError::DescriptionTooLong);
            }
            Some(Value::String(text)) => Some(text.trim().to_owned()),
            Some(_) => return Err(ProfileError::WrongType("description", "a string")),
        };
        let meta = match fields.get("meta") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(meta)) => {
                if Value::Object(meta.clone()).to_string().len() > MAX_META_BYTES {
                    return Err(ProfileError::MetaTooLarge);
                }
                meta.clone()
            }
            Some(_) => return Err(ProfileError::WrongType("meta", "an object")),
        };
        let listed = match fields.get("listed") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(listed)) => *listed,
            Some(_) => return Err(ProfileError::WrongType("listed", "true or false")),
        };
        let tasks = match fields.get("tasks") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(tasks)) => Some(*tasks),
            Some(_) => return Err(ProfileError::WrongType("tasks", "true or false")),
        };
        Ok(Self {
            description,
            meta,
            listed,
            tasks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn reads_every_field_and_round_trips() {
        let profile = Profile::from_value(&json!({
            "description": "  translates German legal text ",
            "meta": {"icon": "⚖"},
            "listed": true,
            "tasks": false
        }))
        .unwrap();
        assert_eq!(profile.tasks, Some(false));
        assert_eq!(
            profile.description.as_deref(),
            Some("translates German legal text")
        );
        assert_eq!(profile.meta["icon"], "⚖");
        assert!(profile.listed);
        let text = serde_json::to_value(&profile).unwrap();
        assert_eq!(Profile::from_value(&text).unwrap(), profile);
    }

    #[test]
    fn an_empty_profile_serializes_to_nothing() {
        let empty = Profile::from_value(&json!({"description": " ", "meta": null})).unwrap();
        assert!(empty.is_empty());
        assert_eq!(serde_json::to_value(&empty).unwrap(), json!({}));
    }

    #[test]
    fn refuses_what_it_cannot_keep() {
        let refused = |v: Value| Profile::from_value(&v).unwrap_err();
        assert_eq!(refused(json!("hi")), ProfileError::NotAnObject);
        assert_eq!(
            refused(json!({"name": "x"})),
            ProfileError::UnknownField("name".into())
        );
        assert_eq!(
            refused(json!({"meta": [1]})),
            ProfileError::WrongType("meta", "an object")
        );
        assert_eq!(
            refused(json!({"listed": "yes"})),
            ProfileError::WrongType("listed", "true or false")
        );
        assert_eq!(
            refused(json!({"description": "d".repeat(MAX_DESCRIPTION_CHARS + 1)})),
            ProfileError::DescriptionTooLong
        );
        assert_eq!(
            refused(json!({"meta": {"k": "v".repeat(MAX_META_BYTES)}})),
            ProfileError::MetaTooLarge
        );
        assert_eq!(
            refused(json!({"tasks": "no"})),
            ProfileError::WrongType("tasks", "true or false")
        );
        assert_eq!(
            refused(json!({"listed": 1})).code(),
            ErrorCode::InvalidRequest
        );
    }

    proptest! {
        #[test]
        fn any_json_is_read_or_refused_without_panic(text in ".{0,64}", n in any::<i64>()) {
            let mut unknown = Map::new();
            unknown.insert(text.clone(), json!(n));
            for value in [json!(text), json!({"description": text}), json!({"meta": {"n": n}}),
                          json!({"listed": n}), json!({"tasks": n}), Value::Object(unknown)] {
                if let Ok(profile) = Profile::from_value(&value) {
                    let back = serde_json::to_value(&profile).unwrap();
                    prop_assert_eq!(Profile::from_value(&back).unwrap(), profile);
                }
            }
        }
    }
}
