//! Which web origins a network lets browsers use it from (CORS): the
//! `allowed_origins` of its configuration, each `*` or an exact origin such
//! as `https://app.example` (scheme, host, optional port; nothing else).
//!
//! Validated when a network is created, stored as the strings it was given
//! in canonical form (lowercase, no default port), and read back unchanged.
//! The decisions made with it (preflights, response headers) are
//! `bindings::access::cors`'s.

use crate::error::{Coded, ErrorCode};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Most entries one network may list.
pub const MAX_ALLOWED_ORIGINS: usize = 32;
/// Longest origin accepted, in bytes.
const MAX_ORIGIN_LEN: usize = 253 + "https://".len() + ":65535".len();

/// Why an `allowed_origins` entry, or the list, is refused (`invalid_origin`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OriginError {
    /// Not a list of strings, or longer than [`MAX_ALLOWED_ORIGINS`].
    #[error(
        "allowed_origins is a list of at most {MAX_ALLOWED_ORIGINS} origins (\"*\" or scheme://host[:port])"
    )]
    NotAList,
    /// An entry that is not `*` or `http(s)://host[:port]` without a path.
    #[error(
        "{0:?} is not an origin: \"*\" or http(s)://host[:port], without path, query or trailing slash"
    )]
    Invalid(String),
}

impl Coded for OriginError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidOrigin
    }
}

/// One web origin in canonical form: `scheme://host[:port]`, lowercase, without the scheme's default port.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WebOrigin(String);

impl WebOrigin {
    /// Reads an origin as a browser sends it in the `Origin` header.
    pub fn parse(text: &str) -> Result<Self, OriginError> {
        let invalid = || OriginError::Invalid(text.chars().take(80).collect());
        if text.len() > MAX_ORIGIN_LEN {
            return Err(invalid());
        }
        let lower = text.to_ascii_lowercase();
        let (scheme, authority) = lower.split_once("://").ok_or_else(invalid)?;
        if scheme != "http" && scheme != "https" {
            return Err(invalid());
        }
        let (host, port) = split_port(authority).ok_or_else(invalid)?;
        if let Some(port) = port
            && (port.is_empty()
                || port.len() > 5
                || !port.bytes().all(|b| b.is_ascii_digit())
                || port.parse::<u32>().map_or(true, |p| p == 0 || p > 65_535))
        {
            return Err(invalid());
        }
        let ipv6 = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .is_some_and(|h| {
                !h.is_empty()
                    && h.bytes()
                        .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
            });
        let name = !host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
        if !ipv6 && !name {
            return Err(invalid());
        }
        let default_port = if scheme == "https" { "443" } else { "80" };
        Ok(Self(match port {
            Some(port) if port != default_port => format!("{scheme}://{host}:{port}"),
            _ => format!("{scheme}://{host}"),
        }))
    }

    /// The origin as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for WebOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A network's `allowed_origins`: any origin (`*`), or those listed; empty
/// (the default) allows none but the network's own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct AllowedOrigins {
    any: bool,
    listed: Vec<WebOrigin>,
}

impl AllowedOrigins {
    /// Every origin (`["*"]`).
    pub fn any() -> Self {
        Self {
            any: true,
            listed: Vec::new(),
        }
    }

    /// Reads a list as given at creation.
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<Self, OriginError> {
        if entries.len() > MAX_ALLOWED_ORIGINS {
            return Err(OriginError::NotAList);
        }
        let mut allowed = Self::default();
        for entry in entries {
            match entry.as_ref() {
                "*" => allowed.any = true,
                origin => {
                    let origin = WebOrigin::parse(origin)?;
                    if !allowed.listed.contains(&origin) {
                        allowed.listed.push(origin);
                    }
                }
            }
        }
        Ok(allowed)
    }

    /// True when no origin but the network's own is allowed.
    pub fn is_empty(&self) -> bool {
        !self.any && self.listed.is_empty()
    }

    /// True when every origin is allowed.
    pub fn allows_any(&self) -> bool {
        self.any
    }

    /// True when a page of `origin` may use the network.
    pub fn allows(&self, origin: &WebOrigin) -> bool {
        self.any || self.listed.contains(origin)
    }
}

/// Splits `host[:port]` (an IPv6 host in brackets); `None` for text after a bracketed host that is not a port.
fn split_port(authority: &str) -> Option<(&str, Option<&str>)> {
    if authority.starts_with('[') {
        let end = authority.find(']')? + 1;
        let (host, rest) = authority.split_at(end);
        return match rest {
            "" => Some((host, None)),
            _ => Some((host, Some(rest.strip_prefix(':')?))),
        };
    }
    Some(match authority.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (authority, None),
    })
}

impl TryFrom<Vec<String>> for AllowedOrigins {
    type Error = OriginError;

    fn try_from(entries: Vec<String>) -> Result<Self, OriginError> {
        Self::parse(&entries)
    }
}

impl From<AllowedOrigins> for Vec<String> {
    fn from(allowed: AllowedOrigins) -> Self {
        let any = allowed.any.then(|| "*".to_owned());
        any.into_iter()
            .chain(allowed.listed.into_iter().map(|o| o.0))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_parse_to_their_canonical_form_or_an_invalid_origin_error() {
        for (text, canonical) in [
            ("https://app.example", "https://app.example"),
            ("HTTPS://App.Example:443", "https://app.example"),
            ("http://127.0.0.1:5173", "http://127.0.0.1:5173"),
            ("http://localhost:80", "http://localhost"),
            ("http://[::1]:8080", "http://[::1]:8080"),
            ("http://[::1]", "http://[::1]"),
        ] {
            assert_eq!(
                WebOrigin::parse(text).map(|o| o.0),
                Ok(canonical.to_owned()),
                "{text}"
            );
        }
        for bad in [
            "",
            "*.example",
            "app.example",
            "ftp://app.example",
            "https://",
            "https://app.example/",
            "https://app.example/path",
            "https://app.example?x",
            "https://a b",
            "https://app.example:0",
            "https://app.example:99999",
            "https://app.example:",
            "https://user@app.example",
            "null",
            "http://[::1]x",
            "http://[]",
        ] {
            let err = WebOrigin::parse(bad).unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidOrigin, "{bad}");
        }
    }

    #[test]
    fn a_list_allows_its_origins_or_any_and_round_trips_through_json() {
        let list = AllowedOrigins::parse(&[
            "https://a.example",
            "HTTP://B.example:8080",
            "https://a.example",
        ])
        .unwrap();
        assert!(list.allows(&WebOrigin::parse("https://a.example").unwrap()));
        assert!(list.allows(&WebOrigin::parse("http://b.example:8080").unwrap()));
        assert!(!list.allows(&WebOrigin::parse("https://c.example").unwrap()));
        assert!(!list.allows_any() && !list.is_empty());
        let json = serde_json::to_value(&list).unwrap();
        assert_eq!(
            json,
            serde_json::json!(["https://a.example", "http://b.example:8080"])
        );
        assert_eq!(
            serde_json::from_value::<AllowedOrigins>(json).unwrap(),
            list
        );

        let any = AllowedOrigins::parse(&["*"]).unwrap();
        assert!(any.allows(&WebOrigin::parse("https://anything.example").unwrap()));
        assert_eq!(any, AllowedOrigins::any());
        assert!(AllowedOrigins::default().is_empty());

        let too_many: Vec<String> = (0..=MAX_ALLOWED_ORIGINS)
            .map(|i| format!("https://a{i}.example"))
            .collect();
        assert_eq!(AllowedOrigins::parse(&too_many), Err(OriginError::NotAList));
        assert!(
            serde_json::from_value::<AllowedOrigins>(serde_json::json!([
                "https://ok.example",
                "nope"
            ]))
            .is_err()
        );
    }
}
