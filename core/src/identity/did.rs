//! DIDs agentnet knows: `did:openagents:{name}` (resolved by the registry)
//! and `did:wba:{host}[:{path}…]` (resolved over HTTPS), their documents,
//! and finding a document's key by verification method.
//!
//! did:wba → URL (did:wba method spec §2.3): the host is percent-decoded
//! (`example.com%3A3000` → `example.com:3000`); with no path the document is
//! at `https://{host}/.well-known/did.json`, otherwise each `:`-separated
//! segment becomes a path segment and `/did.json` follows. The host
//! `localhost` resolves over plain `http://` so tests can serve documents
//! locally; IP-address hosts are refused as the spec requires.

use super::error::IdentityError;
use super::keys::PublicKey;
use serde_json::{Value, json};
use std::fmt;
use std::str::FromStr;

/// The JSON-LD contexts every document names.
const CONTEXTS: [&str; 3] = [
    "https://www.w3.org/ns/did/v1",
    "https://w3id.org/security/suites/ed25519-2020/v1",
    "https://w3id.org/security/suites/secp256k1-2019/v1",
];

/// A parsed DID of a method agentnet resolves.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Did {
    /// `did:openagents:{name}`, the registry's agents.
    OpenAgents(String),
    /// `did:wba:{host}[:{segment}…]`; `host` is decoded (may carry `:port`).
    Wba {
        /// Host and optional port, decoded.
        host: String,
        /// Path segments (empty for the `.well-known` form).
        path: Vec<String>,
    },
}

fn did_error(detail: impl Into<String>) -> IdentityError {
    IdentityError::malformed("did", detail)
}

fn valid_segment(segment: &str) -> bool {
    !segment.is_empty()
        && segment
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b'~'))
}

impl Did {
    /// The did:wba of `name` served by a deployment at `host` (path form `agents/{name}`).
    pub fn wba_for_agent(host: &str, name: &str) -> Self {
        Self::Wba {
            host: host.to_owned(),
            path: vec!["agents".to_owned(), name.to_owned()],
        }
    }

    /// Where a did:wba document lives; `None` for other methods.
    pub fn document_url(&self) -> Option<String> {
        let Self::Wba { host, path } = self else {
            return None;
        };
        let hostname = host.split(':').next().unwrap_or("");
        let scheme = if hostname == "localhost" {
            "http"
        } else {
            "https"
        };
        Some(if path.is_empty() {
            format!("{scheme}://{host}/.well-known/did.json")
        } else {
            format!("{scheme}://{host}/{}/did.json", path.join("/"))
        })
    }

    /// The `#fragment` id of one of this DID's verification methods.
    pub fn method_id(&self, fragment: &str) -> String {
        format!("{self}#{fragment}")
    }
}

impl FromStr for Did {
    type Err = IdentityError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.len() > 512 {
            return Err(did_error("a DID here is at most 512 characters"));
        }
        if let Some(name) = text.strip_prefix("did:openagents:") {
            return crate::ids::address::Address::from_did(text)
                .map(|_| Self::OpenAgents(name.to_owned()))
                .map_err(|_| did_error(format!("{name:?} is not an agent name")));
        }
        let rest = text
            .strip_prefix("did:wba:")
            .ok_or_else(|| did_error("only did:openagents and did:wba are supported"))?;
        let mut parts = rest.split(':');
        let encoded_host = parts.next().unwrap_or("");
        let host = encoded_host.replace("%3A", ":").replace("%3a", ":");
        let (hostname, port) = host.split_once(':').unwrap_or((&host, ""));
        let hostname_ok = !hostname.is_empty()
            && hostname
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.');
        if !hostname_ok || (!port.is_empty() && port.parse::<u16>().is_err()) {
            return Err(did_error(format!(
                "{encoded_host:?} is not a host[%3Aport]"
            )));
        }
        if hostname.parse::<std::net::Ipv4Addr>().is_ok() {
            return Err(did_error(
                "did:wba hosts are domain names, not IP addresses",
            ));
        }
        let path: Vec<String> = parts.map(str::to_owned).collect();
        if !path.iter().all(|s| valid_segment(s)) {
            return Err(did_error(
                "did:wba path segments are unreserved URL characters",
            ));
        }
        Ok(Self::Wba { host, path })
    }
}

impl fmt::Display for Did {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OpenAgents(name) => write!(f, "did:openagents:{name}"),
            Self::Wba { host, path } => {
                write!(f, "did:wba:{}", host.replace(':', "%3A"))?;
                path.iter().try_for_each(|segment| write!(f, ":{segment}"))
            }
        }
    }
}

/// A DID document for `did` with `keys` (fragment, key), all usable for
/// authentication, and `services` (each `{id, type, serviceEndpoint}`).
pub fn document(did: &Did, keys: &[(String, PublicKey)], services: Vec<Value>) -> Value {
    let methods: Vec<Value> = keys
        .iter()
        .map(|(fragment, key)| {
            let mut method = json!({"id": did.method_id(fragment), "type": key.method_type(),
                "controller": did.to_string()});
            if let Value::Object(map) = &mut method {
                match key {
                    PublicKey::Ed25519(_) => {
                        map.insert("publicKeyMultibase".into(), json!(key.to_multibase()))
                    }
                    PublicKey::Secp256k1(_) | PublicKey::P256(_) => {
                        map.insert("publicKeyJwk".into(), key.to_jwk())
                    }
                };
            }
            method
        })
        .collect();
    let authentication: Vec<String> = keys.iter().map(|(f, _)| did.method_id(f)).collect();
    let mut doc = json!({"@context": CONTEXTS, "id": did.to_string(),
        "verificationMethod": methods, "authentication": authentication});
    if !services.is_empty()
        && let Value::Object(map) = &mut doc
    {
        map.insert("service".into(), Value::Array(services));
    }
    doc
}

/// Checks that `doc` is the document of `did` (its `id`).
pub fn check_document_id(doc: &Value, did: &Did) -> Result<(), IdentityError> {
    let found = doc.get("id").and_then(Value::as_str).unwrap_or("");
    let expected = did.to_string();
    if found == expected {
        Ok(())
    } else {
        Err(IdentityError::DidMismatch {
            expected,
            found: found.to_owned(),
        })
    }
}

/// The key of verification method `method` (a fragment such as `key-1`, or
/// the full `did#key-1`) in `did`'s document: looked up among
/// `verificationMethod` and the methods embedded in `authentication`.
pub fn document_key(doc: &Value, did: &Did, method: &str) -> Result<PublicKey, IdentityError> {
    check_document_id(doc, did)?;
    let full = if method.contains('#') {
        method.to_owned()
    } else {
        did.method_id(method)
    };
    let list = |name: &str| {
        doc.get(name)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    list("verificationMethod")
        .iter()
        .chain(list("authentication").iter())
        .find(|m| m.get("id").and_then(Value::as_str) == Some(full.as_str()))
        .ok_or_else(|| IdentityError::UnknownKey(full.clone()))
        .and_then(PublicKey::from_verification_method)
}

#[cfg(test)]
#[path = "did_tests.rs"]
mod tests;
