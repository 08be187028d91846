//! Capability search (ACPs ADP): ranks listed agents for a text query with
//! weighted field matches, deterministic and explained in `docs/discovery.md`.
//!
//! A query is split into lower-case terms (letters and digits). Each term
//! scores, per agent, the best of:
//!
//! | match | points |
//! |---|---|
//! | equals a skill's `id` or `name` (whole), or one of its tags | 10 |
//! | equals the agent's name | 8 |
//! | a word of a skill's name | 6 |
//! | a word of the agent's name | 5 |
//! | a word of a skill's description or example | 2 |
//! | a word of the agent's description | 1 |
//!
//! An agent's score is the sum over terms; agents with a term that matches
//! nothing still rank by the others, agents matching no term are left out.
//! Ties go to the name, then the id, so the order is total. Filters (`tags`
//! all present, input/output `mode`, endpoint `transport`, least
//! `verification`, `network`) drop agents before scoring. An empty query
//! lists every agent the filters keep, by name.

use serde_json::Value;
use std::collections::BTreeSet;

/// The points of each kind of match (the table above).
pub mod weight {
    /// Whole skill id or name, or a skill tag.
    pub const SKILL_EXACT: u32 = 10;
    /// Whole agent name.
    pub const NAME_EXACT: u32 = 8;
    /// A word of a skill name.
    pub const SKILL_NAME_WORD: u32 = 6;
    /// A word of the agent's name.
    pub const NAME_WORD: u32 = 5;
    /// A word of a skill description or example.
    pub const SKILL_TEXT_WORD: u32 = 2;
    /// A word of the agent's description.
    pub const DESCRIPTION_WORD: u32 = 1;
}

/// Lower-case words of `text` (letters and digits; everything else splits).
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// `text` percent-encoded for a URL's query (unreserved characters kept).
pub fn encode_component(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn normalised(text: &str) -> String {
    words(text).collect::<Vec<_>>().join(" ")
}

/// What search knows of one listed agent, prepared for scoring.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry {
    /// Its key (an AIC, or the URL of a passively registered description).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its verification level (2: registered with a key proof; 1: a fetched description).
    pub verification: u8,
    /// Networks its endpoints are in.
    pub networks: BTreeSet<String>,
    /// Endpoint transports (`JSONRPC`, `HTTP_JSON`).
    pub transports: BTreeSet<String>,
    /// Input and output modes, default and per skill.
    pub modes: BTreeSet<String>,
    /// Every skill tag, lower case.
    pub tags: BTreeSet<String>,
    /// Whole skill ids and names, normalised.
    skill_exact: BTreeSet<String>,
    name_exact: String,
    skill_name_words: BTreeSet<String>,
    name_words: BTreeSet<String>,
    skill_text_words: BTreeSet<String>,
    description_words: BTreeSet<String>,
}

/// The elements of `value` when it is an array (none for anything else).
pub(crate) fn elements(value: Option<&Value>) -> impl Iterator<Item = &Value> {
    value.and_then(Value::as_array).into_iter().flatten()
}

fn texts(value: Option<&Value>) -> impl Iterator<Item = &str> {
    elements(value).filter_map(Value::as_str)
}

impl Entry {
    /// An entry named `name` described by `description`.
    pub fn new(id: &str, name: &str, description: &str, verification: u8) -> Self {
        Self {
            id: id.to_owned(),
            name: name.to_owned(),
            verification,
            name_exact: normalised(name),
            name_words: words(name).collect(),
            description_words: words(description).collect(),
            ..Self::default()
        }
    }

    /// An entry from a (validated) ACS document.
    pub fn from_acs(id: &str, fallback_name: &str, acs: Option<&Value>, verification: u8) -> Self {
        let Some(acs) = acs else {
            return Self::new(id, fallback_name, "", verification);
        };
        let text = |k: &str| acs.get(k).and_then(Value::as_str).unwrap_or("");
        let name = Some(text("name"))
            .filter(|n| !n.is_empty())
            .unwrap_or(fallback_name);
        let mut entry = Self::new(id, name, text("description"), verification);
        for endpoint in elements(acs.get("endPoints")) {
            if let Some(t) = endpoint.get("transport").and_then(Value::as_str) {
                entry.transports.insert(t.to_owned());
            }
            if let Some(n) = endpoint
                .get("url")
                .and_then(Value::as_str)
                .and_then(crate::bindings::route::paths::network_in_url)
            {
                entry.networks.insert(n);
            }
        }
        for key in ["defaultInputModes", "defaultOutputModes"] {
            entry.modes.extend(texts(acs.get(key)).map(str::to_owned));
        }
        for skill in elements(acs.get("skills")) {
            entry.add_skill(skill);
        }
        entry
    }

    /// Adds one skill (`{id, name, description, tags, examples?, inputModes?, outputModes?}`).
    pub fn add_skill(&mut self, skill: &Value) {
        let text = |k: &str| skill.get(k).and_then(Value::as_str).unwrap_or("");
        for whole in [text("id"), text("name")] {
            if !whole.is_empty() {
                self.skill_exact.insert(normalised(whole));
            }
        }
        self.skill_name_words.extend(words(text("name")));
        self.skill_text_words.extend(words(text("description")));
        for example in texts(skill.get("examples")) {
            self.skill_text_words.extend(words(example));
        }
        for tag in texts(skill.get("tags")) {
            self.tags.insert(normalised(tag));
        }
        for key in ["inputModes", "outputModes"] {
            self.modes.extend(texts(skill.get(key)).map(str::to_owned));
        }
    }

    /// The points `term` earns here (the best single match).
    pub fn term_score(&self, term: &str) -> u32 {
        if self.skill_exact.contains(term) || self.tags.contains(term) {
            weight::SKILL_EXACT
        } else if self.name_exact == term {
            weight::NAME_EXACT
        } else if self.skill_name_words.contains(term) {
            weight::SKILL_NAME_WORD
        } else if self.name_words.contains(term) {
            weight::NAME_WORD
        } else if self.skill_text_words.contains(term) {
            weight::SKILL_TEXT_WORD
        } else if self.description_words.contains(term) {
            weight::DESCRIPTION_WORD
        } else {
            0
        }
    }
}

/// A search: terms and filters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    /// The query's terms.
    pub terms: Vec<String>,
    /// Tags every result's skills carry.
    pub tags: Vec<String>,
    /// An input or output mode results accept.
    pub mode: Option<String>,
    /// An endpoint transport results offer.
    pub transport: Option<String>,
    /// Least verification level.
    pub verification: u8,
    /// A network results are in.
    pub network: Option<String>,
    /// Most results.
    pub limit: usize,
}

impl Query {
    /// A query for the text `q` (terms are its words) returning up to `limit`.
    pub fn text(q: &str, limit: usize) -> Self {
        let mut terms: Vec<String> = Vec::new();
        for w in words(q) {
            if !terms.contains(&w) {
                terms.push(w);
            }
        }
        Self {
            terms,
            limit,
            ..Self::default()
        }
    }

    fn keeps(&self, e: &Entry) -> bool {
        self.tags.iter().all(|t| e.tags.contains(&normalised(t)))
            && self.mode.as_ref().is_none_or(|m| e.modes.contains(m))
            && self
                .transport
                .as_ref()
                .is_none_or(|t| e.transports.contains(t))
            && e.verification >= self.verification
            && self.network.as_ref().is_none_or(|n| e.networks.contains(n))
    }

    /// The score of `entry`: `None` when a filter drops it or no term matches.
    pub fn score(&self, entry: &Entry) -> Option<u32> {
        if !self.keeps(entry) {
            return None;
        }
        if self.terms.is_empty() {
            return Some(0);
        }
        let total: u32 = self.terms.iter().map(|t| entry.term_score(t)).sum();
        (total > 0).then_some(total)
    }
}

/// One ranked result: the entry's id and score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The entry's id.
    pub id: String,
    /// Its score.
    pub score: u32,
}

/// Ranks `entries` for `query`: best score first, then name, then id; at most `query.limit`.
pub fn rank<'a>(entries: impl IntoIterator<Item = &'a Entry>, query: &Query) -> Vec<Hit> {
    let mut scored: Vec<(u32, &Entry)> = entries
        .into_iter()
        .filter_map(|e| query.score(e).map(|s| (s, e)))
        .collect();
    crate::sorting::sort_by(&mut scored, |(sa, a), (sb, b)| {
        sb.cmp(sa)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.id.cmp(&b.id))
    });
    scored
        .into_iter()
        .take(query.limit)
        .map(|(score, e)| Hit {
            id: e.id.clone(),
            score,
        })
        .collect()
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
