//! Identity beyond level 1 (ONM §4–§5, ACPs, ANP: docs/protocols.md): ACPs
//! Agent Identity Codes, EdDSA JWTs and JWKS (level 2), DIDs and their
//! documents — `did:openagents` and `did:wba` — and DIDWba header (or ANP
//! 1.2 HTTP Message Signature)
//! authentication (level 3), and the registry that issues them.
//!
//! Everything here is pure: time comes in as arguments, documents and JWKS
//! are fetched by the host.

pub mod aic;
pub mod data_integrity;
pub mod did;
pub mod didwba;
pub mod didwba_proof;
pub mod didwba_verify;
pub mod encoding;
pub mod error;
pub mod http_signature;
pub mod jcs;
pub mod jwt;
pub mod keys;
pub mod nonces;
pub mod records;
pub mod registry;
pub mod time;

pub use aic::{Aic, AicIssuer};
pub use did::Did;
pub use error::IdentityError;
pub use keys::PublicKey;
