//! Searching the messages of a network: what a search text is and which
//! text of an event it is matched against.
//!
//! * A [`SearchText`] is what a person typed: 1 to [`MAX_SEARCH_CHARS`]
//!   characters once trimmed, without control characters. Its terms are its
//!   whitespace-separated words, lower-cased (at most [`MAX_TERMS`]).
//! * An event's searchable text ([`searchable_text`]) is the text of a chat
//!   message: `payload.content` when it is a string, the strings inside it
//!   when it is an object or array (IOA messages), and `payload.status` of a
//!   status update; the network's own events (`network.*`) have none. It is
//!   lower-cased and cut at [`MAX_SEARCHABLE_BYTES`].
//! * An event matches when **every** term appears in its searchable text, as
//!   a case-insensitive substring (`"dep"` finds "Deploy"): the same rule in
//!   memory ([`SearchText::matches`]), in the edge's SQLite (which narrows
//!   with an FTS5 index, then the core checks again) and in the browser's
//!   replica.

use crate::error::{Coded, ErrorCode};
use crate::event::Event;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// The longest search text, in characters (after trimming).
pub const MAX_SEARCH_CHARS: usize = 200;

/// The most terms one search text may have.
pub const MAX_TERMS: usize = 16;

/// How much of a message's text is searched (bytes, cut on a character boundary).
pub const MAX_SEARCHABLE_BYTES: usize = 16 * 1024;

/// How deep the strings inside an object `content` are looked for.
const MAX_DEPTH: usize = 4;

/// Why a search text is refused (code `invalid_search`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchTextError {
    /// Nothing but white space.
    #[error("the search text is empty")]
    Empty,
    /// Longer than [`MAX_SEARCH_CHARS`].
    #[error("the search text is longer than {MAX_SEARCH_CHARS} characters")]
    TooLong,
    /// More than [`MAX_TERMS`] words.
    #[error("the search text has more than {MAX_TERMS} words")]
    TooManyTerms,
    /// A control character (a line break, a NUL…).
    #[error("the search text has a control character")]
    Control,
    /// Not a string.
    #[error("text is a string")]
    NotText,
}

impl Coded for SearchTextError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidSearch
    }
}

/// A valid search text: its trimmed form and its lower-cased terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchText {
    text: String,
    terms: Vec<String>,
}

impl SearchText {
    /// The text as typed (trimmed).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The lower-cased terms, in order, each once.
    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    /// True when every term appears in `event`'s searchable text.
    pub fn matches(&self, event: &Event) -> bool {
        searchable_text(event).is_some_and(|text| self.matches_text(&text))
    }

    /// True when every term appears in `text` (already lower-cased, as
    /// [`searchable_text`] returns it).
    pub fn matches_text(&self, text: &str) -> bool {
        self.terms.iter().all(|term| text.contains(term.as_str()))
    }

    /// The byte ranges of `text` where terms appear (case-insensitive),
    /// sorted and merged, for highlighting; ranges fall on character boundaries.
    pub fn highlights(&self, text: &str) -> Vec<(usize, usize)> {
        let mut ranges = Vec::new();
        for (start, _) in text.char_indices() {
            let rest = &text[start..];
            for term in &self.terms {
                if let Some(len) = prefix_len_ignoring_case(rest, term) {
                    ranges.push((start, start + len));
                }
            }
        }
        ranges.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (start, end) in ranges {
            match merged.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        merged
    }
}

/// The byte length of the prefix of `text` that lower-cases to `term`, if one does.
fn prefix_len_ignoring_case(text: &str, term: &str) -> Option<usize> {
    let mut wanted = term.chars();
    let mut pending: Vec<char> = Vec::new();
    for (at, c) in text.char_indices() {
        pending.extend(c.to_lowercase());
        for lower in pending.drain(..) {
            if wanted.next() != Some(lower) {
                return None;
            }
        }
        if wanted.as_str().is_empty() {
            return Some(at + c.len_utf8());
        }
    }
    None
}

impl FromStr for SearchText {
    type Err = SearchTextError;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        let text = raw.trim();
        if text.is_empty() {
            return Err(SearchTextError::Empty);
        }
        if text.chars().count() > MAX_SEARCH_CHARS {
            return Err(SearchTextError::TooLong);
        }
        if text.chars().any(char::is_control) {
            return Err(SearchTextError::Control);
        }
        let mut terms: Vec<String> = Vec::new();
        for word in text.split_whitespace() {
            let term = word.to_lowercase();
            if !terms.contains(&term) {
                terms.push(term);
            }
        }
        if terms.len() > MAX_TERMS {
            return Err(SearchTextError::TooManyTerms);
        }
        Ok(Self {
            text: text.to_owned(),
            terms,
        })
    }
}

impl TryFrom<&Value> for SearchText {
    type Error = SearchTextError;

    fn try_from(value: &Value) -> Result<Self, Self::Error> {
        value.as_str().ok_or(SearchTextError::NotText)?.parse()
    }
}

impl fmt::Display for SearchText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for SearchText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for SearchText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        raw.parse().map_err(serde::de::Error::custom)
    }
}

/// The lower-cased text of `event` that a search looks in (see the module
/// doc), or `None` when it has none.
pub fn searchable_text(event: &Event) -> Option<String> {
    let kind = event.event_type.as_str();
    if kind.starts_with("network.") {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    // Free-form: any app's event, whose payload is its own; only `content` and `status` are looked in.
    if let Some(content) = event.payload.get("content") {
        strings_in(content, 0, &mut parts);
    }
    if let Some(Value::String(status)) = event.payload.get("status") {
        parts.push(status);
    }
    let mut text = String::new();
    for part in parts.into_iter().filter(|p| !p.trim().is_empty()) {
        if text.len() >= MAX_SEARCHABLE_BYTES {
            break;
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(part);
    }
    if text.is_empty() {
        return None;
    }
    let mut lower = text.to_lowercase();
    if lower.len() > MAX_SEARCHABLE_BYTES {
        let mut end = MAX_SEARCHABLE_BYTES;
        while !lower.is_char_boundary(end) {
            end -= 1;
        }
        lower.truncate(end);
    }
    Some(lower)
}

/// The strings in `value`, depth first, at most [`MAX_DEPTH`] levels down.
fn strings_in<'a>(value: &'a Value, depth: usize, out: &mut Vec<&'a str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(items) if depth < MAX_DEPTH => {
            for item in items {
                strings_in(item, depth + 1, out);
            }
        }
        Value::Object(map) if depth < MAX_DEPTH => {
            for item in map.values() {
                strings_in(item, depth + 1, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
