//! DIDWba HTTP authentication (did:wba method spec §3): parsing the
//! `Authorization: DIDWba …` header, what its signature covers, and the
//! server's checks — timestamp window, single-use nonces, document id and
//! key, signature.
//!
//! The signature covers SHA-256 of the JCS text of `{nonce, timestamp,
//! service, did}` — or, when the header says `v="1.1"`, of `{nonce,
//! timestamp, aud, did}` — where `service`/`aud` is the server's domain (its
//! host name without port). Ed25519 signs the 32-byte hash; secp256k1 signs
//! SHA-256 of it (see [`super::keys`]). Signatures are base64url.

use super::did::{Did, document_key};
use super::didwba_proof::{DidProof, check_binding};
use super::encoding::{b64url, from_b64url};
use super::error::IdentityError;
use super::jcs::canonicalize;
use super::nonces::NonceCache;
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

/// The server's side: accepted nonces, remembered past the timestamp window.
#[derive(Debug, Clone, Default)]
pub struct DidWbaVerifier {
    nonces: NonceCache,
}

impl DidWbaVerifier {
    /// The checks that need no document, made before anything is fetched:
    /// the DID parses, the time is in the window (a signature's `expires`
    /// not past), the nonce is given and unused, the audience is this server
    /// (a signature names it in its covered `@authority`). A proof that
    /// fails one of them could never be valid, so its DID is not resolved
    /// (no outbound request).
    pub fn precheck(
        &self,
        proof: &DidProof,
        domain: &str,
        now_ms: u64,
    ) -> Result<Did, IdentityError> {
        let did: Did = proof.did().parse()?;
        let at = proof.at()?;
        let now = now_ms / 1000;
        let expired = match proof {
            DidProof::Signed(signed) => signed.expires.is_some_and(|e| e < now),
            DidProof::Header(_) => false,
        };
        if expired
            || at.saturating_add(MAX_AGE_SECS) < now
            || at > now.saturating_add(MAX_AHEAD_SECS)
        {
            return Err(IdentityError::StaleTimestamp {
                window_secs: MAX_AGE_SECS,
            });
        }
        if proof.nonce().is_empty() {
            return Err(IdentityError::malformed("signature", "a nonce is required"));
        }
        if self.nonces.seen(&nonce_key(proof), now_ms) {
            return Err(IdentityError::NonceReused);
        }
        if let DidProof::Header(header) = proof
            && let Some(aud) = &header.aud
            && aud != domain
        {
            return Err(IdentityError::WrongAudience(domain.to_owned()));
        }
        Ok(did)
    }

    /// Checks `proof` against `doc` (the resolved document of its DID) for
    /// a server at `domain`; returns the authenticated DID. Order: window,
    /// replay, audience ([`Self::precheck`]), document id, key (and the key
    /// an `e1_`/`k1_` DID binds), signature; the nonce is spent only by a
    /// request that passes every check.
    pub fn verify(
        &mut self,
        proof: &DidProof,
        doc: &Value,
        domain: &str,
        now_ms: u64,
    ) -> Result<Did, IdentityError> {
        let did = self.precheck(proof, domain, now_ms)?;
        let at = proof.at()?;
        let key = document_key(doc, &did, proof.method())?;
        check_binding(proof.did(), &key)?;
        match proof {
            DidProof::Header(header) => key.verify(
                &header.digest(domain),
                &from_b64url(&header.signature, "header")?,
            )?,
            DidProof::Signed(signed) => key.verify(signed.base.as_bytes(), &signed.signature)?,
        }
        let keep_until = at
            .saturating_add(MAX_AGE_SECS + MAX_AHEAD_SECS)
            .saturating_mul(1000);
        self.nonces.insert(nonce_key(proof), keep_until, now_ms);
        Ok(did)
    }
}

/// The key a proof's nonce is remembered under, one per DID and nonce.
fn nonce_key(proof: &DidProof) -> String {
    format!("{}\n{}", proof.did(), proof.nonce())
}

#[cfg(test)]
#[path = "didwba_tests.rs"]
mod tests;
