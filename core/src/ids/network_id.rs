//! Network ids: short, URL-safe names such as `a1b2c3d4` or `demo`.

use crate::error::{Coded, ErrorCode};
use crate::ids::text_form::serde_as_text;
use std::fmt;
use std::rc::Rc;
use std::str::FromStr;

/// Longest network id accepted.
pub const MAX_NETWORK_ID_LEN: usize = 64;

/// Why a string is not a network id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkIdError {
    /// Empty string.
    #[error("network id is empty")]
    Empty,
    /// Longer than [`MAX_NETWORK_ID_LEN`].
    #[error("network id is longer than {MAX_NETWORK_ID_LEN} characters")]
    TooLong,
    /// A character other than `a-z`, `0-9`, `-`, `_`.
    #[error("network id may contain only a-z, 0-9, '-' and '_', found {0:?}")]
    Character(char),
    /// `local` names the current network and cannot be an id.
    #[error("'local' is reserved for the current network")]
    Reserved,
}

impl Coded for NetworkIdError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidNetworkId
    }
}

/// A validated network id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
pub struct NetworkId(Rc<str>);

impl NetworkId {
    /// The id as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for NetworkId {
    type Err = NetworkIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() {
            return Err(NetworkIdError::Empty);
        }
        if s.len() > MAX_NETWORK_ID_LEN {
            return Err(NetworkIdError::TooLong);
        }
        if let Some(bad) = s
            .chars()
            .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-' || *c == '_'))
        {
            return Err(NetworkIdError::Character(bad));
        }
        if s == "local" {
            return Err(NetworkIdError::Reserved);
        }
        Ok(Self(Rc::from(s)))
    }
}

impl TryFrom<&str> for NetworkId {
    type Error = NetworkIdError;
    fn try_from(s: &str) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl fmt::Display for NetworkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

serde_as_text!(NetworkId);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_short_ids() {
        assert_eq!(
            "a1b2c3d4".parse::<NetworkId>().unwrap().as_str(),
            "a1b2c3d4"
        );
        assert!("demo".parse::<NetworkId>().is_ok());
        assert!("network-123_x".parse::<NetworkId>().is_ok());
    }

    #[test]
    fn rejects_with_reason() {
        assert_eq!("".parse::<NetworkId>(), Err(NetworkIdError::Empty));
        assert_eq!(
            "Demo".parse::<NetworkId>(),
            Err(NetworkIdError::Character('D'))
        );
        assert_eq!("local".parse::<NetworkId>(), Err(NetworkIdError::Reserved));
        assert_eq!(
            "a".repeat(65).parse::<NetworkId>(),
            Err(NetworkIdError::TooLong)
        );
    }

    #[test]
    fn deserialize_validates() {
        assert!(serde_json::from_str::<NetworkId>("\"a b\"").is_err());
        assert!(serde_json::from_str::<NetworkId>("\"ok\"").is_ok());
    }
}
