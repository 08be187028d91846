//! One member as the workspace shows it ([`Person`]), and the members as a
//! context of their own ([`Members`]) for the views that only read them
//! (`@` completion in the composer): a leaf, so they need not depend on
//! [`super::People`], which depends on the chat.

use leptos::prelude::*;

/// One member as the panel shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Person {
    /// Address.
    pub address: String,
    /// The display name its profile gives, if any.
    pub name: Option<String>,
    /// Its picture (an image data URL or an https URL), if any.
    pub picture: Option<String>,
    /// Role (`member`, `master`, `observer`, …).
    pub role: String,
    /// `online` or `offline`.
    pub status: String,
    /// Verification level 0–3.
    pub verification: u64,
    /// The DID the member's join proved (levels 2 and 3), if any.
    pub did: Option<String>,
    /// What the member says about itself (its profile), if anything.
    pub description: Option<String>,
    /// Its skills: `(skill, the SKILL.md context's address)`, by name.
    pub skills: Vec<(String, String)>,
    /// Whether it takes tasks, as its profile says; `None` when it has not said.
    pub tasks: Option<bool>,
}

impl Person {
    /// The name people read: its display name, else its address without
    /// its kind ([`display_name`]).
    pub fn shown_name(&self) -> &str {
        self.name
            .as_deref()
            .unwrap_or_else(|| display_name(&self.address))
    }
}

#[cfg(test)]
impl Person {
    /// A plain member at `address`, `online` or `offline`, for tests.
    pub fn test(address: &str, status: &str) -> Self {
        Self {
            address: address.into(),
            name: None,
            picture: None,
            role: "member".into(),
            status: status.into(),
            verification: 0,
            did: None,
            description: None,
            skills: Vec::new(),
            tasks: None,
        }
    }
}

/// The name a person reads when a member gave itself none: the address
/// without its `agent:`/`human:` kind (the Agent badge says that); other
/// addresses as they are.
pub fn display_name(address: &str) -> &str {
    address
        .strip_prefix("agent:")
        .or_else(|| address.strip_prefix("human:"))
        .filter(|name| !name.is_empty())
        .unwrap_or(address)
}

/// The members, as last discovered, for the components below the workspace.
#[derive(Clone, Copy)]
pub struct Members(pub ReadSignal<Vec<Person>>);

impl Members {
    /// The members around the calling component (none outside a workspace).
    pub fn get() -> Option<ReadSignal<Vec<Person>>> {
        use_context::<Self>().map(|m| m.0)
    }

    /// The name `address` goes by, tracked: its display name once the
    /// roster gives it one, else the address without its kind.
    pub fn name_of(address: &str) -> String {
        let fallback = || display_name(address).to_owned();
        Self::get().map_or_else(fallback, |members| {
            members.with(|people| {
                people
                    .iter()
                    .find(|p| p.address == address)
                    .map_or_else(fallback, |p| p.shown_name().to_owned())
            })
        })
    }

    /// The display names members gave themselves, by address, tracked.
    pub fn names() -> std::collections::HashMap<String, String> {
        Self::get().map_or_else(Default::default, |members| {
            members.with(|people| {
                people
                    .iter()
                    .filter_map(|p| Some((p.address.clone(), p.name.clone()?)))
                    .collect()
            })
        })
    }

    /// The picture of `address`, tracked, if it has one.
    pub fn picture_of(address: &str) -> Option<String> {
        Self::get()?.with(|people| {
            people
                .iter()
                .find(|p| p.address == address)
                .and_then(|p| p.picture.clone())
        })
    }
}
