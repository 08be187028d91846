//! Who may use a binding, and how: the caller resolved once (origin, then
//! credentials), HTTP sessions and tickets and how long they live, CORS, the
//! host names a deployment answers for, DID authentication and its single-use
//! nonces.

pub mod caller;
pub mod cors;
pub mod didwba;
pub mod hosts;
pub mod nonce_claims;
pub mod policy;
pub mod session;
