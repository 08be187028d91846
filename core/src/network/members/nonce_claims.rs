//! The network's part in deployment-wide DIDWba nonces
//! ([`crate::bindings::access::nonce_claims`]): which header's nonce the host must
//! claim before the network sees the request ([`Network::didwba_claim`]),
//! and the nonces the deployment refused, which the network then refuses as
//! reused ([`Network::didwba_claim_refused`]).

use crate::bindings::access::nonce_claims::NonceClaim;
use crate::identity::did::Did;
use crate::identity::didwba_proof::DidProof;
use crate::identity::didwba_verify::DidWbaVerifier;
use crate::identity::error::IdentityError;
use crate::ids::time::Timestamp;
use crate::network::engine::Network;

impl Network {
    /// The nonce the host must claim for the deployment before handing the
    /// network a request with this DIDWba `header` for `domain`: `None` when
    /// the header would be refused anyway (unreadable, stale, unresolved,
    /// badly signed, or its nonce already spent here), so only a header that
    /// could be accepted spends a nonce. Call it after the header's
    /// document is provided ([`Network::didwba_lookups`]).
    pub fn didwba_claim(&self, header: &str, domain: &str, now: Timestamp) -> Option<NonceClaim> {
        let header = DidProof::parse(header).ok()?;
        let did: Did = header.did().parse().ok()?;
        let doc = self.document(&did, now).ok()?;
        // Every check but this network's memory of nonces (which the join itself makes).
        DidWbaVerifier::default()
            .verify(&header, doc, domain, now)
            .ok()?;
        let claim = NonceClaim::of(&header, header.at().ok()?);
        (!self.spent_elsewhere.seen(&claim.key(), now)).then_some(claim)
    }

    /// The deployment refused `claim` (its nonce was used before, or the
    /// claim could not be made): this network refuses the header as a reused
    /// nonce until the claim would have expired.
    pub fn didwba_claim_refused(&mut self, claim: &NonceClaim, now: Timestamp) {
        self.spent_elsewhere
            .insert(claim.key(), claim.until_ms, now);
    }

    /// Refuses a header whose nonce the deployment refused.
    pub(crate) fn check_not_spent_elsewhere(
        &self,
        header: &DidProof,
        now: Timestamp,
    ) -> Result<(), IdentityError> {
        let key = NonceClaim::of(header, 0).key();
        if self.spent_elsewhere.seen(&key, now) {
            return Err(IdentityError::NonceReused);
        }
        Ok(())
    }
}
