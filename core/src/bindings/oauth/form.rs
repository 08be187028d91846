//! OAuth parameters: `application/x-www-form-urlencoded` text (a query
//! string, a form body) read as OAuth reads it, and written for redirects.
//!
//! * A name sent twice is an error (RFC 6749 §3.1): the caller answers
//!   `invalid_request` rather than pick one of the values.
//! * A parameter sent without a value counts as omitted (RFC 6749 §3.1).
//! * [`encode`] percent-encodes everything but the unreserved characters
//!   (RFC 3986 §2.3), so [`parse`] gives back exactly what was encoded.

use crate::bindings::message::percent_decode;
use std::collections::BTreeMap;

/// Parameters by name, each at most once, none empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(BTreeMap<String, String>);

/// A parameter named more than once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the parameter {0} is sent more than once")]
pub struct Repeated(pub String);

impl Params {
    /// The value of `name`, if it was sent with one.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }
}

/// Reads `name=value&…` text.
pub fn parse(text: &str) -> Result<Params, Repeated> {
    let mut params = BTreeMap::new();
    let mut seen = std::collections::BTreeSet::new();
    for pair in text.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let name = percent_decode(name);
        if !seen.insert(name.clone()) {
            return Err(Repeated(name));
        }
        let value = percent_decode(value);
        if !value.is_empty() {
            params.insert(name, value);
        }
    }
    Ok(Params(params))
}

/// The query string of `url` (empty without one), without its fragment.
pub fn query_of(url: &str) -> &str {
    let query = url.split_once('?').map_or("", |(_, query)| query);
    query.split('#').next().unwrap_or("")
}

/// `text` percent-encoded but for the unreserved characters.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `name=value&…` for `pairs`, each side escaped.
pub fn encode<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    pairs
        .into_iter()
        .map(|(name, value)| format!("{}={}", escape(name), escape(value)))
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parameters_are_decoded_and_each_is_sent_once() {
        let params = parse("a=1&b=x%20y+z&c=&d").unwrap();
        assert_eq!(params.get("a"), Some("1"));
        assert_eq!(params.get("b"), Some("x y z"));
        // Sent without a value: omitted.
        assert_eq!(params.get("c"), None);
        assert_eq!(params.get("d"), None);
        assert_eq!(parse("a=1&a=2"), Err(Repeated("a".into())));
        assert_eq!(parse("a=&a=2"), Err(Repeated("a".into())));
        assert_eq!(parse(""), Ok(Params::default()));
        assert_eq!(query_of("https://h/p?x=1#frag"), "x=1");
        assert_eq!(query_of("https://h/p"), "");
        assert_eq!(
            encode([("redirect_uri", "http://l/cb?a=b"), ("s", "~._-")]),
            "redirect_uri=http%3A%2F%2Fl%2Fcb%3Fa%3Db&s=~._-"
        );
    }

    proptest! {
        #[test]
        fn what_is_encoded_parses_back(
            pairs in proptest::collection::btree_map("[a-z_]{1,8}", "\\PC{1,16}", 0..6)
        ) {
            let text = encode(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            let params = parse(&text).unwrap();
            for (name, value) in &pairs {
                prop_assert_eq!(params.get(name), Some(value.as_str()));
            }
        }

        #[test]
        fn any_text_parses_or_names_a_repeat(text in "\\PC{0,64}") {
            // Never a panic, whatever the bytes.
            let _ = parse(&text);
        }
    }
}
