//! The server's checks of a DID proof ([`DidProof`]: a DIDWba header or an
//! HTTP Message Signature) — time window, single-use nonce, audience,
//! document id, key (the one an `e1_`/`k1_` DID binds), an `e1_` document's
//! Data Integrity proof ([`super::data_integrity`]), signature — and the
//! nonces it accepted, remembered past the window.

use super::data_integrity::check_e1_document;
use super::did::{Did, document_key};
use super::didwba::{MAX_AGE_SECS, MAX_AHEAD_SECS};
use super::didwba_proof::{DidProof, check_binding};
use super::encoding::from_b64url;
use super::error::IdentityError;
use super::nonces::NonceCache;
use crate::ids::time::Timestamp;
use serde_json::Value;

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
        now: Timestamp,
    ) -> Result<Did, IdentityError> {
        let did: Did = proof.did().parse()?;
        let at = proof.at()?;
        let now_s = now.as_secs();
        let expired = match proof {
            DidProof::Signed(signed) => signed.expires.is_some_and(|e| e < now_s),
            DidProof::Header(_) => false,
        };
        if expired
            || at.saturating_add(MAX_AGE_SECS) < now_s
            || at > now_s.saturating_add(MAX_AHEAD_SECS)
        {
            return Err(IdentityError::StaleTimestamp {
                window_secs: MAX_AGE_SECS,
            });
        }
        if proof.nonce().is_empty() {
            return Err(IdentityError::malformed("signature", "a nonce is required"));
        }
        if self.nonces.seen(&nonce_key(proof), now) {
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
    /// an `e1_`/`k1_` DID binds), an `e1_` document's proof, signature; the
    /// nonce is spent only by a request that passes every check.
    pub fn verify(
        &mut self,
        proof: &DidProof,
        doc: &Value,
        domain: &str,
        now: Timestamp,
    ) -> Result<Did, IdentityError> {
        let did = self.precheck(proof, domain, now)?;
        let at = proof.at()?;
        let key = document_key(doc, &did, proof.method())?;
        check_binding(proof.did(), &key)?;
        check_e1_document(doc, proof.did())?;
        match proof {
            DidProof::Header(header) => key.verify(
                &header.digest(domain),
                &from_b64url(&header.signature, "header")?,
            )?,
            DidProof::Signed(signed) => key.verify(signed.base.as_bytes(), &signed.signature)?,
        }
        let keep_until = Timestamp::from_millis(
            at.saturating_add(MAX_AGE_SECS + MAX_AHEAD_SECS)
                .saturating_mul(1000),
        );
        self.nonces.insert(nonce_key(proof), keep_until, now);
        Ok(did)
    }
}

/// The key a proof's nonce is remembered under, one per DID and nonce.
fn nonce_key(proof: &DidProof) -> String {
    format!("{}\n{}", proof.did(), proof.nonce())
}
