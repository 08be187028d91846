//! Creating a network on this edge, and who may join it: anyone with the
//! link, whoever holds an access token, or only those a member invites (the
//! safe default). Also reads the name a network gives itself in its profile.

use super::joined::Joined;
use crate::error::WebError;
use agentnet_core::bindings::route::paths;
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    #[wasm_bindgen(js_name = createNetwork, catch)]
    async fn create_network(body: String) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = getJson, catch)]
    async fn get_json(url: &str) -> Result<JsValue, JsValue>;
}

/// The shortest access token the edge accepts.
pub const MIN_TOKEN_LEN: usize = 8;

/// Who may join a network being created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// Only people and agents a member invites (the default).
    Invite,
    /// Whoever presents this token.
    Token(String),
    /// Anyone with the link.
    Open,
}

/// The choices, in the order the form offers them: `(value, label, explanation)`.
pub const CHOICES: [(&str, &str, &str); 3] = [
    (
        "invite",
        "Only people I invite",
        "Nobody gets in without an invitation you make in Admin. The safe choice for a team.",
    ),
    (
        "token",
        "Anyone with the access token",
        "Share the token with the people and agents who should join; anyone holding it gets in.",
    ),
    (
        "open",
        "Anyone with the link",
        "Open to whoever knows the network's address. Good for public demos, not for private work.",
    ),
];

impl Access {
    /// The access a form's choice and token field name.
    pub fn from_choice(choice: &str, token: Option<String>) -> Self {
        match choice {
            "open" => Self::Open,
            "token" => Self::Token(token.unwrap_or_default()),
            _ => Self::Invite,
        }
    }

    /// Why the edge would refuse it, before asking.
    pub fn check(&self) -> Result<(), WebError> {
        match self {
            Self::Token(token) if token.trim().chars().count() < MIN_TOKEN_LEN => {
                Err(WebError::TokenTooShort(MIN_TOKEN_LEN))
            }
            _ => Ok(()),
        }
    }

    /// The `access` section of the creation request.
    pub fn json(&self) -> Value {
        match self {
            Self::Invite => json!({ "policy": "invite" }),
            Self::Token(token) => json!({ "policy": "token", "token": token.trim() }),
            Self::Open => json!({ "policy": "open" }),
        }
    }

    /// The token a creator joins with, for a token network.
    fn token(&self) -> Option<String> {
        match self {
            Self::Token(token) => Some(token.trim().to_owned()),
            _ => None,
        }
    }
}

/// The creation request's body.
pub fn request(name: &str, access: &Access) -> Value {
    json!({ "name": name, "access": access.json(), "mods": ["workspace", "persistence"] })
}

/// Creates a network named `name` on this edge; resolves with how to get in or why not.
pub async fn create(name: &str, access: &Access) -> Result<Joined, WebError> {
    let answer = create_network(request(name, access).to_string())
        .await
        .map_err(|e| {
            WebError::Edge(
                js_sys::Reflect::get(&e, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string())
                    .unwrap_or_else(|| "the edge could not create it".into()),
            )
        })?;
    let answer: Value = answer
        .as_string()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or(WebError::UnexpectedAnswer)?;
    let id = answer
        .get("id")
        .and_then(Value::as_str)
        .ok_or(WebError::NoNetworkId)?;
    Ok(Joined {
        token: access.token(),
        admin_token: answer
            .get("admin_token")
            .and_then(Value::as_str)
            .map(str::to_owned),
        name: Some(name.trim().to_owned()),
        ..Joined::by_id(id.to_owned())
    })
}

/// Network `id`'s public profile, if it can be read.
pub async fn profile(id: &str) -> Option<Value> {
    let text = get_json(&paths::network_path(id, "/v1/profile"))
        .await
        .ok()?
        .as_string()?;
    serde_json::from_str(&text).ok()
}

/// The name network `id` gives itself in its public profile, if it can be read.
pub async fn profile_name(id: &str) -> Option<String> {
    let profile = profile(id).await?;
    profile
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_becomes_the_access_the_edge_reads() {
        assert_eq!(
            Access::from_choice("anything else", None).json(),
            json!({"policy": "invite"})
        );
        assert_eq!(
            Access::from_choice("open", Some("ignored".into())).json(),
            json!({"policy": "open"})
        );
        let token = Access::from_choice("token", Some(" sekret-token ".into()));
        assert_eq!(
            token.json(),
            json!({"policy": "token", "token": "sekret-token"})
        );
        assert_eq!(token.token().as_deref(), Some("sekret-token"));
        assert_eq!(Access::Invite.token(), None);
        assert_eq!(
            request("UX Team", &Access::Invite),
            json!({"name": "UX Team", "access": {"policy": "invite"}, "mods": ["workspace", "persistence"]})
        );
    }

    #[test]
    fn a_short_token_is_refused_before_asking_the_edge() {
        let short = Access::from_choice("token", Some("abc".into()));
        assert_eq!(short.check(), Err(WebError::TokenTooShort(MIN_TOKEN_LEN)));
        assert_eq!(
            Access::from_choice("token", None)
                .check()
                .map_err(|e| e.code()),
            Err("token_too_short")
        );
        assert_eq!(
            Access::from_choice("token", Some("12345678".into())).check(),
            Ok(())
        );
        assert_eq!(Access::Invite.check(), Ok(()));
        // The first choice, the default, is the safe one.
        assert_eq!(CHOICES[0].0, "invite");
    }
}
