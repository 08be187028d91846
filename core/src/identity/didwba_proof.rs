//! A request's DID proof, either form ANP clients send: the legacy
//! `Authorization: DIDWba …` header ([`super::didwba::DidWbaHeader`]) or
//! ANP 1.2's HTTP Message Signature ([`super::http_signature::SignedRequest`],
//! the `anp` SDK's default). Both name a DID, a verification method, a nonce
//! and a time, and both are checked by [`super::didwba_verify::DidWbaVerifier`]
//! under the same window and single-use nonce rules.
//!
//! A proof travels from the binding (which reads the request) to the network
//! (which checks it) as text ([`DidProof::to_text`], [`DidProof::parse`]): the
//! header as sent, or `HTTPSig {json}` holding the signature and the base
//! the binding rebuilt from the request it received — never text a client
//! supplies (`crate::bindings::access::didwba::proof_of`).
//!
//! A did:wba whose last segment binds its key (`e1_<thumbprint>` for
//! Ed25519, `k1_<thumbprint>` for secp256k1: RFC 7638 JWK thumbprints, the
//! `anp` SDK's `e1` and `k1` profiles) authenticates only with that key, so
//! whoever serves the document cannot swap it ([`check_binding`]).

use super::didwba::DidWbaHeader;
use super::encoding::{b64url, from_b64url};
use super::error::IdentityError;
use super::http_signature::SignedRequest;
use super::jcs::canonicalize;
use super::keys::PublicKey;
use super::time::parse_rfc3339;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// What the text form of a signed request starts with.
const SIGNED_PREFIX: &str = "HTTPSig ";
/// What the text form of an unreadable signature starts with.
const REFUSED_PREFIX: &str = "HTTPSig-Refused ";

/// A DID proof a request carried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DidProof {
    /// `Authorization: DIDWba …`.
    Header(DidWbaHeader),
    /// `Signature-Input` / `Signature` (RFC 9421).
    Signed(SignedRequest),
}

impl DidProof {
    /// Reads a proof's text form.
    pub fn parse(text: &str) -> Result<Self, IdentityError> {
        if let Some(reason) = text.strip_prefix(REFUSED_PREFIX) {
            return Err(IdentityError::malformed("signature", reason));
        }
        let Some(json) = text.strip_prefix(SIGNED_PREFIX) else {
            return DidWbaHeader::parse(text).map(Self::Header);
        };
        let bad = || IdentityError::malformed("signature", "unreadable signed request");
        let value: Value = serde_json::from_str(json).map_err(|_| bad())?;
        let text = |k: &str| value.get(k).and_then(Value::as_str).map(str::to_owned);
        Ok(Self::Signed(SignedRequest {
            keyid: text("keyid").ok_or_else(bad)?,
            nonce: text("nonce"),
            created: value
                .get("created")
                .and_then(Value::as_u64)
                .ok_or_else(bad)?,
            expires: value.get("expires").and_then(Value::as_u64),
            base: text("base").ok_or_else(bad)?,
            signature: from_b64url(&text("signature").ok_or_else(bad)?, "signature")?,
        }))
    }

    /// The text form of a signature read from a request (or why it could not be).
    pub fn signed_text(read: Result<SignedRequest, IdentityError>) -> String {
        match read {
            Ok(signed) => format!(
                "{SIGNED_PREFIX}{}",
                json!({"keyid": signed.keyid, "nonce": signed.nonce, "created": signed.created,
                    "expires": signed.expires, "base": signed.base,
                    "signature": b64url(&signed.signature)})
            ),
            Err(IdentityError::Malformed { detail, .. }) => format!("{REFUSED_PREFIX}{detail}"),
            Err(other) => format!("{REFUSED_PREFIX}{other}"),
        }
    }

    /// The text form.
    pub fn to_text(&self) -> String {
        match self {
            Self::Header(header) => header.to_header(),
            Self::Signed(signed) => Self::signed_text(Ok(signed.clone())),
        }
    }

    /// The DID it proves.
    pub fn did(&self) -> &str {
        match self {
            Self::Header(header) => &header.did,
            Self::Signed(signed) => signed.did(),
        }
    }

    /// Its nonce (a signature without one is refused when checked).
    pub fn nonce(&self) -> &str {
        match self {
            Self::Header(header) => &header.nonce,
            Self::Signed(signed) => signed.nonce.as_deref().unwrap_or(""),
        }
    }

    /// When it was made (unix seconds).
    pub fn at(&self) -> Result<u64, IdentityError> {
        match self {
            Self::Header(header) => parse_rfc3339(&header.timestamp),
            Self::Signed(signed) => Ok(signed.created),
        }
    }

    /// The verification method it names (a fragment or a full id).
    pub fn method(&self) -> &str {
        match self {
            Self::Header(header) => &header.verification_method,
            Self::Signed(signed) => &signed.keyid,
        }
    }
}

/// RFC 7638 thumbprint of `key` (base64url SHA-256 of its canonical JWK).
pub fn thumbprint(key: &PublicKey) -> String {
    b64url(&Sha256::digest(canonicalize(&key.to_jwk()).as_bytes()))
}

/// A DID whose last segment is `e1_…` or `k1_…` authenticates only with
/// the key of that thumbprint (Ed25519 for `e1_`, secp256k1 for `k1_`).
pub fn check_binding(did: &str, key: &PublicKey) -> Result<(), IdentityError> {
    let last = did.rsplit(':').next().unwrap_or("");
    let bound = match (last.split_at_checked(3), key) {
        (Some(("e1_", print)), PublicKey::Ed25519(_)) => Some(print),
        (Some(("k1_", print)), PublicKey::Secp256k1(_)) => Some(print),
        (Some(("e1_" | "k1_", _)), _) => {
            return Err(IdentityError::UnknownKey(format!(
                "{did} binds a key of another type"
            )));
        }
        _ => None,
    };
    match bound {
        Some(print) if print != thumbprint(key) => Err(IdentityError::UnknownKey(format!(
            "{did} binds another key than the one that signed"
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
#[path = "didwba_proof_tests.rs"]
mod tests;
