//! DIDWba nonces are single use across the deployment, not only within one
//! network: a header's signature covers the host, which every network of a
//! deployment shares, so a header accepted by network A would otherwise join
//! network B too. Before a network accepts a header, its object claims the
//! header's nonce at the deployment's registry object
//! (`POST /internal/didwba-nonces`, [`NonceClaim`]); a nonce claimed before,
//! and not yet past the timestamp window, is refused there, and the network
//! then refuses the header as a reused nonce
//! (`crate::network::Network::didwba_claim_refused`).
//!
//! Only a header that passes every other check is claimed
//! (`crate::network::Network::didwba_claim`), so a stranger cannot spend
//! someone's nonce with a forged one. The internal path is not a registry
//! path: the Worker never forwards an outside request to it.

use crate::ErrorCode;
use crate::bindings::message::Response;
use crate::identity::didwba::{MAX_AGE_SECS, MAX_AHEAD_SECS};
use crate::identity::didwba_proof::DidProof;
use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Where network objects claim nonces.
pub const CLAIM_PATH: &str = "/internal/didwba-nonces";

/// Longest DID and nonce a claim carries (a header's are far shorter).
const MAX_PART_BYTES: usize = 2_048;

/// One header's nonce, held until a replay could no longer pass the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NonceClaim {
    /// The header's DID.
    pub did: String,
    /// The header's nonce.
    pub nonce: String,
    /// Until when it is held (written as milliseconds since the epoch).
    pub until_ms: Timestamp,
}

/// What the registry decided of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claimed {
    /// The nonce is this claimant's: store it until the claim's `until_ms`.
    Granted,
    /// The nonce was claimed before and is still held.
    Refused,
}

impl NonceClaim {
    /// The claim for `proof`, made at `at` (unix seconds).
    pub fn of(proof: &DidProof, at: u64) -> Self {
        Self {
            did: proof.did().to_owned(),
            nonce: proof.nonce().to_owned(),
            until_ms: Timestamp::from_millis(
                at.saturating_add(MAX_AGE_SECS + MAX_AHEAD_SECS)
                    .saturating_mul(1000),
            ),
        }
    }

    /// The key it is held under, one per DID and nonce.
    pub fn key(&self) -> String {
        format!("{}\n{}", self.did, self.nonce)
    }

    /// The claim as the registry reads it at `now`: a refusal for one that is
    /// not a claim, has over-long parts, or would hold past the window.
    pub fn parse(body: &str, now: Timestamp) -> Result<Self, Response> {
        let claim: Self = serde_json::from_str(body).map_err(|_| {
            Response::error(
                ErrorCode::InvalidRequest,
                "a claim is {did, nonce, until_ms}",
            )
        })?;
        let longest = (MAX_AGE_SECS + 2 * MAX_AHEAD_SECS) * 1000;
        if claim.did.is_empty()
            || claim.nonce.is_empty()
            || claim.did.len() > MAX_PART_BYTES
            || claim.nonce.len() > MAX_PART_BYTES
            || claim.until_ms > now.plus_millis(longest)
        {
            return Err(Response::error(
                ErrorCode::InvalidRequest,
                "a claim names a DID and a nonce, held no longer than the window",
            ));
        }
        Ok(claim)
    }

    /// The registry's decision at `now`, given until when its key is
    /// already held (`None`: not held).
    pub fn decide(&self, held_until: Option<Timestamp>, now: Timestamp) -> Claimed {
        match held_until {
            Some(until) if until > now => Claimed::Refused,
            _ => Claimed::Granted,
        }
    }
}

/// The registry's answer: 200 for a granted claim, 409 for a refused one.
pub fn answer(claimed: Claimed) -> Response {
    match claimed {
        Claimed::Granted => Response::json(json!({"claimed": true})),
        Claimed::Refused => Response::error(
            ErrorCode::VerificationFailed,
            "this DIDWba nonce was used before in this deployment",
        )
        .with_status(409),
    }
}

/// Whether the registry granted a claim, from its answer's status. Anything
/// but a grant — a refusal, or no answer at all — keeps the nonce from being
/// accepted: a header that cannot be proved unused is refused.
pub fn granted(status: u16) -> bool {
    status == 200
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(until_ms: u64) -> NonceClaim {
        NonceClaim {
            did: "did:wba:example.com:alice".into(),
            nonce: "n-1".into(),
            until_ms: Timestamp::from_millis(until_ms),
        }
    }

    #[test]
    fn a_nonce_is_granted_once_until_it_expires() {
        let first = claim(10_000);
        assert_eq!(first.decide(None, Timestamp::from(1_000)), Claimed::Granted);
        assert_eq!(
            first.decide(Some(Timestamp::from(10_000)), Timestamp::from(1_000)),
            Claimed::Refused
        );
        assert_eq!(
            first.decide(Some(Timestamp::from(10_000)), Timestamp::from(10_000)),
            Claimed::Granted
        );
        assert_eq!(answer(Claimed::Granted).status, 200);
        assert_eq!(answer(Claimed::Refused).status, 409);
        assert!(granted(200));
        assert!(!granted(409) && !granted(500) && !granted(503));
    }

    #[test]
    fn a_claim_is_bounded_in_size_and_time() {
        let now = 1_000_000;
        let ok = claim(now + MAX_AGE_SECS * 1000);
        assert_eq!(
            NonceClaim::parse(&serde_json::to_string(&ok).unwrap(), Timestamp::from(now)),
            Ok(ok)
        );
        for bad in [
            json!({"did": "d", "nonce": "n"}),
            json!({"did": "", "nonce": "n", "until_ms": now}),
            json!({"did": "d", "nonce": "x".repeat(MAX_PART_BYTES + 1), "until_ms": now}),
            json!({"did": "d", "nonce": "n", "until_ms": now + 3_600_000}),
        ] {
            let refused = NonceClaim::parse(&bad.to_string(), Timestamp::from(now)).unwrap_err();
            assert_eq!(refused.status, 400, "{bad}");
        }
    }

    #[test]
    fn one_key_per_did_and_nonce() {
        let mut other = claim(1);
        assert_eq!(other.key(), claim(2).key());
        other.did = "did:wba:example.com:bob".into();
        assert_ne!(other.key(), claim(1).key());
    }
}
