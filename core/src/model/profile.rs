//! A member's profile: what it says about itself to the rest of the network.
//!
//! A display `name` (what people read instead of the address: at most
//! [`MAX_NAME_CHARS`] characters, no control characters), a `picture` (a
//! small `data:image/…;base64,` URL: the picture travels with the profile,
//! so showing it fetches nothing from elsewhere), a short
//! `description`, a free `meta` object (IOA's node `meta`, icons,
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

/// Longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest picture URL, in bytes (a small avatar as a data URL fits).
pub const MAX_PICTURE_BYTES: usize = 48_000;
/// Longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1_000;
/// Largest `meta`, in bytes of its JSON text.
pub const MAX_META_BYTES: usize = 4_096;

/// What a member says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "MemberProfile"))]
pub struct Profile {
    /// The name people read (the address is one click away).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A picture: `data:image/{png,jpeg,webp,gif};base64,…`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
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
    /// The name is too long.
    #[error("profile.name has at most {MAX_NAME_CHARS} characters")]
    NameTooLong,
    /// The name holds a control character (a line break, a bidi override…).
    #[error("profile.name has no control characters")]
    NameHasControls,
    /// The picture is not an image data URL.
    #[error("profile.picture is a data:image/(png|jpeg|webp|gif);base64 URL")]
    PictureNotAnImage,
    /// The picture is too large.
    #[error("profile.picture is at most {MAX_PICTURE_BYTES} bytes")]
    PictureTooLarge,
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

    /// Reads and checks a profile object: `{name?, picture?, description?,
    /// meta?, listed?, tasks?}`; `null` fields read as absent, a blank name or
    /// description as none.
    pub fn from_value(value: &Value) -> Result<Self, ProfileError> {
        let Value::Object(fields) = value else {
            return Err(ProfileError::NotAnObject);
        };
        if let Some(unknown) = fields.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(ProfileError::UnknownField(unknown.clone()));
        }
        let name = match fields.get("name") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => name_of(text)?,
            Some(_) => return Err(ProfileError::WrongType("name", "a string")),
        };
        let picture = match fields.get("picture") {
            None | Some(Value::Null) => None,
            Some(Value::String(url)) if url.is_empty() => None,
            Some(Value::String(url)) => Some(picture_of(url)?),
            Some(_) => return Err(ProfileError::WrongType("picture", "a string")),
        };
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
            name,
            picture,
            description,
            meta,
            listed,
            tasks,
        })
    }
}

/// The fields a profile has.
const FIELDS: [&str; 6] = ["name", "picture", "description", "meta", "listed", "tasks"];

/// The fields a member changes one by one: a payload of only these changes
/// only them, and a payload that replaces the profile keeps them when it
/// leaves them out.
pub const KEPT_FIELDS: [&str; 3] = ["name", "picture", "tasks"];

/// A display name: trimmed, blank as none, at most [`MAX_NAME_CHARS`]
/// characters, no control or bidi-override characters.
fn name_of(text: &str) -> Result<Option<String>, ProfileError> {
    let name = text.trim();
    if name.is_empty() {
        return Ok(None);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ProfileError::NameTooLong);
    }
    let hostile = |c: char| {
        c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
    };
    if name.chars().any(hostile) {
        return Err(ProfileError::NameHasControls);
    }
    Ok(Some(name.to_owned()))
}

/// A picture URL: a raster image as a base64 data URL (no SVG: it may
/// carry script; no remote URL: showing it would tell its server who looks).
fn picture_of(url: &str) -> Result<String, ProfileError> {
    if url.len() > MAX_PICTURE_BYTES {
        return Err(ProfileError::PictureTooLarge);
    }
    let data = ["png", "jpeg", "webp", "gif"].iter().any(|kind| {
        url.strip_prefix(&format!("data:image/{kind};base64,"))
            .is_some_and(|b64| {
                !b64.is_empty()
                    && b64
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
            })
    });
    let https = url.strip_prefix("https://").is_some_and(|rest| {
        !rest.is_empty()
            && !rest
                .bytes()
                .any(|b| b.is_ascii_control() || b == b' ' || b == b'"')
    });
    if data || https {
        Ok(url.to_owned())
    } else {
        Err(ProfileError::PictureNotAnImage)
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
            refused(json!({"nickname": "x"})),
            ProfileError::UnknownField("nickname".into())
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

    #[test]
    fn a_name_and_picture_are_checked() {
        let profile = Profile::from_value(&json!({
            "name": "  Ada Lovelace ", "picture": "data:image/png;base64,iVBORw0KGgo="
        }))
        .unwrap();
        assert_eq!(profile.name.as_deref(), Some("Ada Lovelace"));
        assert!(profile.picture.is_some());
        assert_eq!(
            Profile::from_value(&json!({"name": "  "})).unwrap().name,
            None
        );
        let refused = |v: Value| Profile::from_value(&v).unwrap_err();
        assert_eq!(
            refused(json!({"name": "a".repeat(MAX_NAME_CHARS + 1)})),
            ProfileError::NameTooLong
        );
        assert_eq!(
            Profile::from_value(&json!({"name": "é".repeat(MAX_NAME_CHARS)}))
                .unwrap()
                .name
                .map(|n| n.chars().count()),
            Some(MAX_NAME_CHARS)
        );
        for bad in [
            "Ada\nLovelace",
            "Ada\u{202e}ecalevol",
            "a\u{0007}",
            "x\u{200b}y",
        ] {
            assert_eq!(
                refused(json!({"name": bad})),
                ProfileError::NameHasControls,
                "{bad:?}"
            );
        }
        assert_eq!(
            refused(json!({"name": 5})),
            ProfileError::WrongType("name", "a string")
        );
        for bad in [
            "javascript:alert(1)",
            "data:text/html;base64,PGI+",
            "http://x/a.png",
            "data:image/svg+xml;base64,PHN2Zz4=",
            "data:image/png;base64,<script>",
            "https://",
        ] {
            assert_eq!(
                refused(json!({"picture": bad})),
                ProfileError::PictureNotAnImage,
                "{bad}"
            );
        }
        let huge = format!("data:image/png;base64,{}", "A".repeat(MAX_PICTURE_BYTES));
        assert_eq!(
            refused(json!({"picture": huge})),
            ProfileError::PictureTooLarge
        );
    }

    proptest! {
        #[test]
        fn any_json_is_read_or_refused_without_panic(text in ".{0,64}", n in any::<i64>()) {
            let mut unknown = Map::new();
            unknown.insert(text.clone(), json!(n));
            for value in [json!(text), json!({"description": text}), json!({"meta": {"n": n}}),
                          json!({"listed": n}), json!({"tasks": n}), json!({"name": text}),
                          json!({"picture": text}), Value::Object(unknown)] {
                if let Ok(profile) = Profile::from_value(&value) {
                    let back = serde_json::to_value(&profile).unwrap();
                    prop_assert_eq!(Profile::from_value(&back).unwrap(), profile);
                }
            }
        }
    }
}
