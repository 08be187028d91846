//! One network joined in this browser (its id, how to get in, the name it
//! gave itself) and the list of them kept in localStorage.

use crate::storage;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The network the workspace opens when none was joined yet.
pub const DEFAULT_NETWORK: &str = "demo";

/// One joined network and how to get in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Joined {
    /// The network's id.
    pub id: String,
    /// Its access token, for token networks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The administrator token, for networks created here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_token: Option<String>,
    /// The invitation code accepted, for networks joined by invitation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The name the network gave itself (its profile's), once known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Joined {
    /// A network known by its id only.
    pub fn by_id(id: String) -> Self {
        Self {
            id,
            token: None,
            admin_token: None,
            invite: None,
            name: None,
        }
    }

    /// What to call it: its name, else its id.
    pub fn label(&self) -> &str {
        self.name
            .as_deref()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or(&self.id)
    }

    /// The join credentials for this network, if any.
    pub fn credentials(&self) -> Option<Value> {
        let mut map = serde_json::Map::new();
        if let Some(token) = &self.token {
            map.insert("token".into(), json!(token));
        }
        if let Some(admin) = &self.admin_token {
            map.insert("admin_token".into(), json!(admin));
        }
        if let Some(code) = &self.invite {
            map.insert("invite".into(), json!(code));
        }
        (!map.is_empty()).then_some(Value::Object(map))
    }
}

/// The joined networks, `demo` first when nothing was kept.
pub fn load() -> Vec<Joined> {
    storage::recall_json::<Vec<Joined>>("networks")
        .filter(|list| !list.is_empty())
        .unwrap_or_else(|| vec![Joined::by_id(DEFAULT_NETWORK.into())])
}

/// Keeps the list.
pub fn save(list: &[Joined]) {
    if let Ok(text) = serde_json::to_string(list) {
        storage::keep("networks", &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_carry_the_tokens_there_are() {
        let joined = Joined {
            token: Some("t".into()),
            ..Joined::by_id("x".into())
        };
        assert_eq!(joined.credentials(), Some(json!({"token": "t"})));
        let open = Joined::by_id("x".into());
        assert_eq!(open.credentials(), None);
    }

    #[test]
    fn a_network_is_called_by_its_name_once_known_else_by_its_id() {
        let mut network = Joined::by_id("cb4f48ac7c5abe84455cde9bf005bddd".into());
        assert_eq!(network.label(), "cb4f48ac7c5abe84455cde9bf005bddd");
        network.name = Some("  ".into());
        assert_eq!(network.label(), "cb4f48ac7c5abe84455cde9bf005bddd");
        network.name = Some("UX Team".into());
        assert_eq!(network.label(), "UX Team");
        // Lists kept before names were kept still load.
        let old: Vec<Joined> = serde_json::from_str(r#"[{"id":"demo"}]"#).unwrap();
        assert_eq!(old, vec![Joined::by_id("demo".into())]);
    }
}
