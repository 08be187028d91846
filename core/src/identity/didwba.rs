//! DIDWba HTTP authentication (did:wba method spec §3): parsing the
//! `Authorization: DIDWba …` header, what its signature covers, and the
//! window and its constants; the server's checks are
//! [`super::didwba_verify`]'s.
//!
//! The signature covers SHA-256 of the JCS text of `{nonce, timestamp,
//! service, did}` — or, when the header says `v="1.1"`, of `{nonce,
//! timestamp, aud, did}` — where `service`/`aud` is the server's domain (its
//! host name without port). Ed25519 signs the 32-byte hash; secp256k1 signs
//! SHA-256 of it (see [`super::keys`]). Signatures are base64url.

use super::encoding::b64url;
use super::error::IdentityError;
use super::jcs::canonicalize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// Seconds a timestamp may lie in the past (the ANP SDK's 5 minutes).
pub const MAX_AGE_SECS: u64 = 300;
/// Seconds a timestamp may lie in the future (clock skew).
pub const MAX_AHEAD_SECS: u64 = 60;

/// The fields of a DIDWba header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DidWbaHeader {
    /// The client's DID.
    pub did: String,
    /// The client's nonce.
    pub nonce: String,
    /// ISO 8601 UTC time of the request.
    pub timestamp: String,
    /// The verification method's fragment (`key-1`).
    pub verification_method: String,
    /// base64url signature.
    pub signature: String,
    /// `v` (`1.1` for the `aud` form), if given.
    pub version: Option<String>,
    /// `aud`, if given.
    pub aud: Option<String>,
}

fn header_error(detail: impl Into<String>) -> IdentityError {
    IdentityError::malformed("header", detail)
}

/// The `name="value"` pairs after the scheme (names case-insensitive).
fn params(text: &str) -> Result<Vec<(String, String)>, IdentityError> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let (name, after) = rest
            .split_once('=')
            .ok_or_else(|| header_error("parameters are name=\"value\""))?;
        let after = after
            .trim_start()
            .strip_prefix('"')
            .ok_or_else(|| header_error("parameter values are quoted"))?;
        let (value, tail) = after
            .split_once('"')
            .ok_or_else(|| header_error("unterminated quoted value"))?;
        out.push((name.trim().to_ascii_lowercase(), value.to_owned()));
        rest = tail.trim_start().trim_start_matches(',').trim_start();
    }
    Ok(out)
}

impl DidWbaHeader {
    /// Reads `DIDWba did="…", nonce="…", timestamp="…", verification_method="…", signature="…"`.
    pub fn parse(header: &str) -> Result<Self, IdentityError> {
        let rest = header
            .trim()
            .strip_prefix("DIDWba")
            .filter(|r| r.starts_with(char::is_whitespace))
            .ok_or_else(|| header_error("the scheme is DIDWba"))?;
        let pairs = params(rest)?;
        let get = |name: &str| {
            pairs
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let need = |name: &'static str| {
            get(name)
                .filter(|v| !v.is_empty())
                .ok_or_else(|| header_error(format!("missing {name}")))
        };
        Ok(Self {
            did: need("did")?,
            nonce: need("nonce")?,
            timestamp: need("timestamp")?,
            verification_method: need("verification_method")?,
            signature: need("signature")?,
            version: get("v"),
            aud: get("aud"),
        })
    }

    /// The object the client signed, for a server whose domain is `domain`.
    pub fn signed_object(&self, domain: &str) -> Value {
        if self.version.as_deref() == Some("1.1") {
            let aud = self.aud.clone().unwrap_or_else(|| domain.to_owned());
            json!({"nonce": self.nonce, "timestamp": self.timestamp, "aud": aud, "did": self.did})
        } else {
            json!({"nonce": self.nonce, "timestamp": self.timestamp, "service": domain, "did": self.did})
        }
    }

    /// SHA-256 of the canonical signed object: the bytes the key signs.
    pub fn digest(&self, domain: &str) -> [u8; 32] {
        Sha256::digest(canonicalize(&self.signed_object(domain)).as_bytes()).into()
    }

    /// The header's text.
    pub fn to_header(&self) -> String {
        let mut text = format!(
            "DIDWba did=\"{}\", nonce=\"{}\", timestamp=\"{}\", verification_method=\"{}\", signature=\"{}\"",
            self.did, self.nonce, self.timestamp, self.verification_method, self.signature
        );
        if let Some(v) = &self.version {
            text.push_str(&format!(", v=\"{v}\""));
        }
        if let Some(aud) = &self.aud {
            text.push_str(&format!(", aud=\"{aud}\""));
        }
        text
    }
}

/// A client's header for `domain`: `sign` gets the digest and returns the raw signature.
#[allow(clippy::too_many_arguments)]
pub fn client_header(
    did: &str,
    method: &str,
    nonce: &str,
    timestamp: &str,
    domain: &str,
    v1_1: bool,
    sign: impl FnOnce(&[u8; 32]) -> Vec<u8>,
) -> String {
    let mut header = DidWbaHeader {
        did: did.to_owned(),
        nonce: nonce.to_owned(),
        timestamp: timestamp.to_owned(),
        verification_method: method.to_owned(),
        signature: String::new(),
        version: v1_1.then(|| "1.1".to_owned()),
        aud: v1_1.then(|| domain.to_owned()),
    };
    header.signature = b64url(&sign(&header.digest(domain)));
    header.to_header()
}

/// [`client_header`] signed with an Ed25519 secret key (the npm package's `KeyPair`).
pub fn ed25519_client_header(
    secret: &[u8; 32],
    did: &str,
    method: &str,
    (nonce, timestamp): (&str, &str),
    domain: &str,
    v1_1: bool,
) -> String {
    use ed25519_dalek::{Signer, SigningKey};
    let key = SigningKey::from_bytes(secret);
    client_header(did, method, nonce, timestamp, domain, v1_1, |digest| {
        key.sign(digest).to_bytes().to_vec()
    })
}

#[cfg(test)]
#[path = "didwba_tests.rs"]
mod tests;
