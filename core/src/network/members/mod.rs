//! Members coming and going: admission and key proofs at join, verification
//! levels 2 and 3 and the identities fetched for them, presence and the alarm,
//! the throttles on strangers, and DIDWba nonces.

pub(super) mod admission;
pub mod identity;
pub(super) mod identity_cache;
pub(super) mod nonce_claims;
pub(super) mod presence;
pub(super) mod shield;
