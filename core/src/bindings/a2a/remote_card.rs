//! What the network reads of a remote agent's card (an A2A `AgentCard`,
//! 1.0 or 0.3) to admit it: its name, its JSON-RPC endpoint and its skills,
//! read once into typed fields. The card is another server's, so the reading
//! is lenient as it always was: a field of another type reads as absent, an
//! interface or skill that is no object has no fields, and a card that is no
//! object has none.

use super::version::Version;
use crate::model::requests::field::{AsSent, read, request_types};
use serde_json::Value;

request_types! {
    /// The fields of a card the network reads.
    pub struct RemoteCard {
        /// The agent's name, which its address is made of.
        name: String,
        /// 0.3: the JSON-RPC endpoint, when no interface names one.
        url: String,
        /// The interfaces it offers, each read as an [`Interface`].
        #[serde(rename = "supportedInterfaces")]
        interfaces: Vec<Value>,
        /// Its skills, each read as a [`Skill`].
        skills: Vec<Value>,
    }

    /// One of a card's `supportedInterfaces`.
    pub struct Interface {
        /// `JSONRPC`, `GRPC`, `HTTP+JSON`, in any case.
        #[serde(rename = "protocolBinding")]
        binding: String,
        /// The A2A version it speaks (`1.0`, `0.3.0`, …).
        #[serde(rename = "protocolVersion")]
        version: String,
        /// Where.
        url: String,
    }

    /// One of a card's skills.
    pub struct Skill {
        /// Its id, which its tool's name is made of.
        id: String,
        /// Its name.
        name: String,
        /// What it does.
        description: String,
    }
}

impl RemoteCard {
    /// `card` read: any JSON reads (what is not an object has no fields).
    pub fn of(card: &Value) -> Self {
        read(card)
    }

    /// Its name, empty when it has none as text.
    pub fn name(&self) -> &str {
        self.name.as_text().unwrap_or("")
    }

    /// The JSON-RPC endpoint and generation it offers: a 1.0 interface, else
    /// a 0.3 one, else its `url` (0.3).
    pub fn endpoint(&self) -> Option<(String, Version)> {
        let interfaces: Vec<Interface> = self
            .interfaces
            .as_given()
            .into_iter()
            .flatten()
            .map(read)
            .collect();
        let jsonrpc = |version: &str| {
            interfaces.iter().find_map(|i| {
                let binding = i.binding.as_text()?;
                let at = i.version.as_text()?;
                (binding.eq_ignore_ascii_case("JSONRPC") && at.starts_with(version))
                    .then(|| i.url.as_text().map(str::to_owned))?
            })
        };
        if let Some(url) = jsonrpc("1.") {
            return Some((url, Version::V1));
        }
        if let Some(url) = jsonrpc("0.3") {
            return Some((url, Version::V03));
        }
        Some((self.url.as_text()?.to_owned(), Version::V03))
    }

    /// Its first `at_most` skills, each read (an entry that is no object reads
    /// as a skill with no fields, and counts).
    pub fn skills(&self, at_most: usize) -> impl Iterator<Item = Skill> + '_ {
        self.skills
            .as_given()
            .into_iter()
            .flatten()
            .take(at_most)
            .map(read)
    }
}

impl Skill {
    /// How its tool is described: `name: description`, either empty when it
    /// has none as text.
    pub fn described(&self) -> String {
        let text = |field: &AsSent<String>| field.as_text().unwrap_or("").to_owned();
        format!("{}: {}", text(&self.name), text(&self.description))
    }
}
