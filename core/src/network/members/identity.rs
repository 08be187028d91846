//! Verification levels 2 and 3 at join (ONM §5; docs/identity.md).
//!
//! * Level 2 — `credentials.jwt`: an EdDSA JWT from an issuer in
//!   `access.trusted_issuers`, for this network (`aud` = its id), unexpired,
//!   whose `sub` is the joining address; signature checked with the issuer's
//!   JWKS. A token naming a `did` also needs that DID's document to resolve
//!   (so a revoked agent's tokens stop working).
//! * Level 3 — `credentials: {did, nonce, signature, verification_method?}`:
//!   the nonce of a `network.agent.challenge` that named the `did`, signed
//!   (base64url; Ed25519, or secp256k1 ECDSA-SHA256 R‖S) over
//!   [`crate::verification::challenge_message`] with a key of the DID's
//!   document. `did:openagents:{name}` joins only as `openagents:{name}`.
//!
//! The core does no I/O: before a join reaches it, the host asks
//! [`Network::identity_lookups`] what to fetch (JWKS, DID documents), fetches
//! them and hands them over ([`Network::provide_jwks`],
//! [`Network::provide_document`]). Only URLs the network's outbound policy
//! lets through are asked for ([`crate::outbound`]: a did:wba or issuer on a
//! host that is not public is refused, not fetched), and a DIDWba header is
//! checked for what needs no document (window, nonce, audience) before its
//! DID is asked for. Answers are kept [`IDENTITY_TTL_MS`], so
//! a rotated or revoked key stops verifying within that time.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::identity::did::{Did, document_key};
use crate::identity::didwba_proof::DidProof;
use crate::identity::encoding::from_b64url;
use crate::identity::error::IdentityError;
use crate::identity::jwt::{self, Expectations, Jwks};
use crate::ids::address::Address;
use crate::ids::standing::Verification;
use crate::ids::time::Timestamp;
use crate::model::requests::field::{nested, read};
use crate::model::requests::members::{Credentials, WithCredentials};
use crate::network::engine::Network;
pub use crate::network::members::identity_cache::{IDENTITY_TTL_MS, IdentityCache, Lookup};
use crate::network::members::identity_cache::{bounded, fresh};
use crate::network::members::shield::Inbound;
use serde_json::Value;

/// True when a frame or body may carry an identity proof (`jwt` or `did`):
/// only those need [`Network::identity_lookups_in`].
pub fn mentions_identity(text: &str) -> bool {
    text.contains("\"jwt\"") || text.contains("\"did\"")
}

fn refused(error: &IdentityError) -> Rejection {
    error.rejection()
}

/// The unverified claims of a JWT (to learn its issuer and DID before fetching).
fn peek_claims(token: &str) -> Option<Value> {
    let payload = token.split('.').nth(1)?;
    serde_json::from_slice(&from_b64url(payload, "jwt").ok()?).ok()
}

impl Network {
    /// What the host must fetch before `event` (a join, or a challenge naming
    /// a DID) can be verified; empty when nothing is missing or stale.
    pub fn identity_lookups(&self, event: &Event, now: Timestamp) -> Vec<Lookup> {
        self.lookups_for(&event.payload, now)
    }

    /// [`Network::identity_lookups`] for a frame or request body as text: a
    /// WebSocket event (`payload.credentials`) or an HTTP join body
    /// (`credentials`). Cheap when the text names no `jwt` or `did`.
    pub fn identity_lookups_in(&self, text: &str, now: Timestamp) -> Vec<Lookup> {
        if !mentions_identity(text) {
            return Vec::new();
        }
        let Ok(body) = serde_json::from_str::<Value>(text) else {
            return Vec::new();
        };
        match body.get("payload") {
            Some(payload) if payload.is_object() => self.lookups_for(payload, now),
            _ => self.lookups_for(&body, now),
        }
    }

    fn lookups_for(&self, payload: &Value, now: Timestamp) -> Vec<Lookup> {
        let mut wanted = Vec::new();
        let sent = read::<WithCredentials>(payload);
        let credentials = nested(sent.credentials);
        if let Some(token) = credentials.jwt.as_text()
            && let Some(claims) = peek_claims(token)
        {
            if let Some(issuer) = claims.get("iss").and_then(Value::as_str)
                && self
                    .config
                    .access
                    .trusted_issuers
                    .iter()
                    .any(|i| i == issuer)
                && fresh(self.identity.jwks.get(issuer), now).is_none()
                && self.outbound.check(&Lookup::jwks_url(issuer)).is_ok()
            {
                wanted.push(Lookup::Jwks {
                    issuer: issuer.to_owned(),
                });
            }
            if let Some(did) = claims.get("did").and_then(Value::as_str) {
                wanted.extend(self.document_lookup(did, now));
            }
        }
        if let Some(did) = credentials.did.as_text().or_else(|| sent.did.as_text()) {
            wanted.extend(self.document_lookup(did, now));
        }
        wanted
    }

    fn document_lookup(&self, did: &str, now: Timestamp) -> Option<Lookup> {
        let parsed: Did = did.parse().ok()?;
        let key = parsed.to_string();
        (fresh(self.identity.documents.get(&key), now).is_none()
            && self.outbound_refusal(&parsed).is_none())
        .then_some(Lookup::Document { did: parsed })
    }

    /// Why the document of `did` is not fetched, when the outbound policy
    /// refuses its URL (a did:wba of a host that is not public).
    fn outbound_refusal(&self, did: &Did) -> Option<IdentityError> {
        let url = match did {
            Did::Wba { .. } => did.document_url()?,
            Did::OpenAgents(_) => return None,
        };
        let refused = self.outbound.check(&url).err()?;
        Some(IdentityError::Unresolvable(format!(
            "{did}: {}",
            refused.described()
        )))
    }

    /// The JWKS (`{keys: […]}`) fetched for `issuer`, or why it could not be.
    pub fn provide_jwks(&mut self, issuer: &str, fetched: Result<Value, String>, now: Timestamp) {
        let jwks = fetched
            .map_err(IdentityError::Unresolvable)
            .and_then(|v| Jwks::from_json(&v));
        bounded(&mut self.identity.jwks);
        self.identity.jwks.insert(issuer.to_owned(), (jwks, now));
    }

    /// The document fetched for `did`, or why it could not be (`Revoked` for a revoked agent).
    pub fn provide_document(
        &mut self,
        did: &Did,
        fetched: Result<Value, IdentityError>,
        now: Timestamp,
    ) {
        bounded(&mut self.identity.documents);
        self.identity
            .documents
            .insert(did.to_string(), (fetched, now));
    }

    pub(crate) fn document(&self, did: &Did, now: Timestamp) -> Result<&Value, Rejection> {
        if let Some(error) = self.outbound_refusal(did) {
            return Err(refused(&error));
        }
        match fresh(self.identity.documents.get(&did.to_string()), now) {
            Some(Ok(doc)) => Ok(doc),
            Some(Err(error)) => Err(refused(error)),
            None => Err(refused(&IdentityError::Unresolvable(format!(
                "{did}: the host did not resolve it"
            )))),
        }
    }

    /// Level 2: a JWT from a trusted issuer; returns the DID it names.
    pub(crate) fn verify_jwt(
        &self,
        event: &Event,
        token: &str,
        now: Timestamp,
    ) -> Result<Option<String>, Rejection> {
        let issuer = peek_claims(token)
            .and_then(|c| c.get("iss").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        let trusted = &self.config.access.trusted_issuers;
        if !trusted.contains(&issuer) {
            return Err(refused(&IdentityError::WrongIssuer(issuer)));
        }
        let jwks = match fresh(self.identity.jwks.get(&issuer), now) {
            Some(Ok(jwks)) => jwks,
            Some(Err(error)) => return Err(refused(error)),
            None => {
                return Err(refused(&IdentityError::Unresolvable(format!(
                    "the keys of {issuer}"
                ))));
            }
        };
        let audience = self.config.id.to_string();
        let expect = Expectations {
            issuers: trusted,
            audience: &audience,
            now_secs: now.as_secs(),
        };
        let claims = jwt::verify(token, jwks, expect).map_err(|e| refused(&e))?;
        if claims.sub != event.source.to_string() {
            return Err(Rejection::new(
                ErrorCode::VerificationFailed,
                format!("the token is for {}, not {}", claims.sub, event.source),
            ));
        }
        if let Some(did) = &claims.did {
            let did: Did = did.parse().map_err(|e| refused(&e))?;
            self.document(&did, now)?;
        }
        Ok(claims.did)
    }

    /// Level 3: a challenge signed with a key of the DID's document.
    pub(crate) fn verify_did(
        &mut self,
        inbound: &Inbound<'_>,
        event: &Event,
        did: &str,
        now: Timestamp,
    ) -> Result<String, Rejection> {
        let did: Did = did.parse().map_err(|e| refused(&e))?;
        if let Did::OpenAgents(name) = &did
            && Address::from_did(&did.to_string()).ok().as_ref() != Some(&event.source)
        {
            return Err(Rejection::new(
                ErrorCode::VerificationFailed,
                format!("did:openagents:{name} joins as openagents:{name}"),
            ));
        }
        let credentials = Credentials::of(&event.payload);
        let (Some(nonce), Some(signature)) =
            (credentials.nonce.as_text(), credentials.signature.as_text())
        else {
            return Err(Rejection::new(
                ErrorCode::VerificationFailed,
                "a DID proof needs credentials.nonce and credentials.signature",
            ));
        };
        self.challenges
            .consume(&event.source, &inbound.holder(&event.source), nonce, now)?;
        let method = credentials.verification_method.as_text().unwrap_or("key-1");
        let key = document_key(self.document(&did, now)?, &did, method).map_err(|e| refused(&e))?;
        let signature = from_b64url(signature, "signature").map_err(|e| refused(&e))?;
        let message = crate::verification::challenge_message(&self.config.id, &event.source, nonce);
        key.verify(&message, &signature).map_err(|e| refused(&e))?;
        Ok(did.to_string())
    }

    /// What the host must fetch before a request with this DIDWba header,
    /// reaching this server at `domain` ([`crate::bindings::access::didwba::domain_of`]),
    /// can be checked: nothing for a header that fails a check that needs no
    /// document (malformed, timestamp out of the window, nonce used, another
    /// audience: [`crate::identity::didwba_verify::DidWbaVerifier::precheck`]).
    pub fn didwba_lookups(&self, header: &str, domain: &str, now: Timestamp) -> Vec<Lookup> {
        DidProof::parse(header)
            .ok()
            .filter(|h| self.didwba.precheck(h, domain, now).is_ok())
            .and_then(|h| self.document_lookup(h.did(), now))
            .into_iter()
            .collect()
    }

    /// A join that came with a DIDWba header: the header's DID, checked.
    fn verify_didwba(
        &mut self,
        event: &Event,
        header: &str,
        domain: &str,
        now: Timestamp,
    ) -> Result<String, Rejection> {
        let header = DidProof::parse(header).map_err(|e| refused(&e))?;
        // The cheap checks first: a stale or replayed header is refused as such.
        let did = self
            .didwba
            .precheck(&header, domain, now)
            .map_err(|e| refused(&e))?;
        if let Did::OpenAgents(name) = &did
            && Address::from_did(&did.to_string()).ok().as_ref() != Some(&event.source)
        {
            return Err(Rejection::new(
                ErrorCode::VerificationFailed,
                format!("did:openagents:{name} joins as openagents:{name}"),
            ));
        }
        self.check_not_spent_elsewhere(&header, now)
            .map_err(|e| refused(&e))?;
        let doc = self.document(&did, now)?.clone();
        let proved = self
            .didwba
            .verify(&header, &doc, domain, now)
            .map_err(|e| refused(&e))?;
        Ok(proved.to_string())
    }

    /// The level a join's credentials prove beyond level 1, with its DID;
    /// `None` when it presents neither a JWT nor a DID.
    pub(crate) fn verify_identity(
        &mut self,
        inbound: &Inbound<'_>,
        event: &Event,
        now: Timestamp,
    ) -> Option<Result<(Verification, Option<String>), Rejection>> {
        if let Some((header, domain)) = inbound.didwba {
            return Some(
                self.verify_didwba(event, header, domain, now)
                    .map(|d| (Verification::DID, Some(d))),
            );
        }
        let credentials = Credentials::of(&event.payload);
        if let Some(did) = credentials.did.given() {
            return Some(
                self.verify_did(inbound, event, &did, now)
                    .map(|d| (Verification::DID, Some(d))),
            );
        }
        let token = credentials.jwt.given()?;
        Some(
            self.verify_jwt(event, &token, now)
                .map(|did| (Verification::TOKEN, did)),
        )
    }
}

#[cfg(test)]
#[path = "identity_tests.rs"]
mod tests;
