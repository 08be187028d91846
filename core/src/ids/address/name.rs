//! The parts an address is built from: validated [`Name`]s, [`FilePath`]s and
//! [`Registrar`]s, and why a string is not an address ([`AddressError`]).

use crate::error::{Coded, ErrorCode};
use crate::ids::network_id::NetworkIdError;
use crate::ids::text_form::serde_as_text;
use std::fmt;
use std::rc::Rc;
use std::str::FromStr;

/// Longest name accepted in any entity.
pub const MAX_NAME_LEN: usize = 128;
/// Longest file path accepted in `resource/file/{path}`.
pub const MAX_PATH_LEN: usize = 512;
/// The registrar of globally registered agents in the model.
pub const OPENAGENTS_REGISTRAR: &str = "openagents";

/// Why a string is not an address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// Nothing after the network scope, or an empty string.
    #[error("address has no entity")]
    EmptyEntity,
    /// The part before `::` is not `local` or a valid network id.
    #[error("invalid network scope: {0}")]
    Network(#[from] NetworkIdError),
    /// A name is empty (`agent:`, `channel/`).
    #[error("{kind} name is empty")]
    EmptyName {
        /// Entity kind whose name is empty.
        kind: &'static str,
    },
    /// A name is longer than allowed.
    #[error("{kind} name is longer than {max} characters")]
    NameTooLong {
        /// Entity kind.
        kind: &'static str,
        /// Limit that was exceeded.
        max: usize,
    },
    /// A name contains a character outside `A-Z a-z 0-9 . _ - @ +`.
    #[error("{kind} name may contain only letters, digits and . _ - @ +, found {found:?}")]
    NameCharacter {
        /// Entity kind.
        kind: &'static str,
        /// The offending character.
        found: char,
    },
    /// A `x/...` prefix that is not channel, mod, group or resource.
    #[error("unknown entity kind {0:?} (expected channel/, mod/, group/ or resource/)")]
    UnknownKind(String),
    /// `resource/{type}/` with a type other than tool, file or context.
    #[error("unknown resource type {0:?} (expected tool, file or context)")]
    UnknownResourceType(String),
    /// A registrar prefix that is not lowercase letters, digits and `-`.
    #[error("invalid registrar prefix {0:?}")]
    Registrar(String),
    /// A file path with an empty, `.` or `..` segment.
    #[error("file path segment {0:?} is not allowed")]
    PathSegment(String),
    /// A URI that does not start with `openagents://`.
    #[error("URI must have the form openagents://{{network}}/{{entity}}")]
    Uri,
    /// A DID that is not `did:{registrar}:{name}` of a registered agent.
    #[error("DID must have the form did:{{registrar}}:{{name}}")]
    Did,
}

impl Coded for AddressError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidAddress
    }
}

/// A validated name: 1–128 characters of `A-Z a-z 0-9 . _ - @ +`, not `.` or `..`.
#[derive(Debug, Clone, Eq)]
pub struct Name(Rc<str>);

// Names are compared on every map lookup of an address (several per event, per
// recipient): byte by byte in place, as `str` orders them, and a clone of the
// same name (the usual case for the key that matches) is equal at once.
impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Rc::ptr_eq(&self.0, &other.0) {
            return std::cmp::Ordering::Equal;
        }
        let (a, b) = (self.0.as_bytes(), other.0.as_bytes());
        a.iter()
            .zip(b)
            .find(|(x, y)| x != y)
            .map_or_else(|| a.len().cmp(&b.len()), |(x, y)| x.cmp(y))
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::hash::Hash for Name {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // As the text: equal names (same text) hash alike.
        self.0.hash(state);
    }
}

impl Name {
    pub(super) fn parse(kind: &'static str, s: &str) -> Result<Self, AddressError> {
        if s.is_empty() {
            return Err(AddressError::EmptyName { kind });
        }
        if s.len() > MAX_NAME_LEN {
            return Err(AddressError::NameTooLong {
                kind,
                max: MAX_NAME_LEN,
            });
        }
        if let Some(found) = s
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+')))
        {
            return Err(AddressError::NameCharacter { kind, found });
        }
        if s == "." || s == ".." {
            return Err(AddressError::PathSegment(s.to_owned()));
        }
        Ok(Self(Rc::from(s)))
    }

    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for Name {
    type Err = AddressError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse("name", s)
    }
}

serde_as_text!(Name);

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A file path under `resource/file/`: `/`-separated [`Name`] segments.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FilePath(Rc<str>);

impl FilePath {
    pub(super) fn parse(s: &str) -> Result<Self, AddressError> {
        if s.is_empty() {
            return Err(AddressError::EmptyName { kind: "file" });
        }
        if s.len() > MAX_PATH_LEN {
            return Err(AddressError::NameTooLong {
                kind: "file",
                max: MAX_PATH_LEN,
            });
        }
        for segment in s.split('/') {
            if segment.is_empty() {
                return Err(AddressError::PathSegment(segment.to_owned()));
            }
            Name::parse("file", segment)?;
        }
        Ok(Self(Rc::from(s)))
    }

    /// The path as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A registrar prefix such as `openagents` (lowercase letters, digits, `-`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Registrar(Rc<str>);

impl Registrar {
    pub(super) fn parse(s: &str) -> Result<Self, AddressError> {
        let valid = (1..=32).contains(&s.len())
            && s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if valid && s != "did" {
            Ok(Self(Rc::from(s)))
        } else {
            Err(AddressError::Registrar(s.to_owned()))
        }
    }

    /// The registrar as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}
