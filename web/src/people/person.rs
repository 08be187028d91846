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

#[cfg(test)]
impl Person {
    /// A plain member at `address`, `online` or `offline`, for tests.
    pub fn test(address: &str, status: &str) -> Self {
        Self {
            address: address.into(),
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

/// The members, as last discovered, for the components below the workspace.
#[derive(Clone, Copy)]
pub struct Members(pub ReadSignal<Vec<Person>>);

impl Members {
    /// The members around the calling component (none outside a workspace).
    pub fn get() -> Option<ReadSignal<Vec<Person>>> {
        use_context::<Self>().map(|m| m.0)
    }
}
