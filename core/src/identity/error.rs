//! Identity errors: one enum for every way an identity check fails, each
//! with a stable reason (`IdentityError::reason`, e.g. `nonce_reused`) and
//! the protocol's [`ErrorCode`] it travels under.

use crate::error::{Coded, ErrorCode, Rejection};

/// Why an identity, token or signature was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// Text that should be an AIC, DID, JWT, header or key does not parse.
    #[error("malformed {what}: {detail}")]
    Malformed {
        /// What was being read (`aic`, `did`, `jwt`, `header`, `key`, …).
        what: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// An AIC whose check digits do not match its body.
    #[error("the AIC's check digits do not match (a typo?)")]
    AicCheck,
    /// A JWT whose `alg` is not `EdDSA` (`none` included).
    #[error("JWT algorithm {0:?} is not accepted: only EdDSA")]
    AlgNotAllowed(String),
    /// A JWT from an issuer the verifier does not trust.
    #[error("JWT issuer {0:?} is not trusted here")]
    WrongIssuer(String),
    /// A JWT for another audience.
    #[error("JWT audience does not include {0:?}")]
    WrongAudience(String),
    /// A JWT past its `exp` (or before its `nbf`).
    #[error("the JWT has expired or is not yet valid")]
    Expired,
    /// No key with that id (JWKS `kid`, DID verification method, registered key).
    #[error("unknown key: {0}")]
    UnknownKey(String),
    /// The signature does not verify with the key.
    #[error("the signature does not match the key")]
    BadSignature,
    /// A DID document whose `id` is not the DID it was fetched for.
    #[error("the DID document's id {found:?} is not {expected:?}")]
    DidMismatch {
        /// The DID resolved.
        expected: String,
        /// The document's `id`.
        found: String,
    },
    /// A DIDWba timestamp outside the accepted window.
    #[error("the timestamp is outside the accepted window of {window_secs} s")]
    StaleTimestamp {
        /// The window, seconds either side of now.
        window_secs: u64,
    },
    /// A DIDWba nonce seen before.
    #[error("the nonce has been used already")]
    NonceReused,
    /// A registered key or agent that was revoked (or a key replaced by rotation).
    #[error("{0} has been revoked")]
    Revoked(String),
    /// A registry name someone else holds.
    #[error("{0} is taken")]
    NameTaken(String),
    /// No agent of that name is registered.
    #[error("{0} is not registered")]
    NotRegistered(String),
    /// A challenge nonce that is unknown, used, expired or for another name.
    #[error("the challenge nonce is unknown, used, expired or for someone else: ask for a new one")]
    BadChallenge,
    /// A DID document could not be fetched.
    #[error("the DID document could not be resolved: {0}")]
    Unresolvable(String),
    /// An `e1_` did:wba document whose Data Integrity proof is missing or wrong.
    #[error("the DID document's proof is missing or wrong: {0}")]
    DocumentProof(String),
}

impl IdentityError {
    /// A [`IdentityError::Malformed`] with its detail.
    pub fn malformed(what: &'static str, detail: impl Into<String>) -> Self {
        Self::Malformed {
            what,
            detail: detail.into(),
        }
    }

    /// The stable reason, as HTTP bodies and `WWW-Authenticate` carry it.
    pub const fn reason(&self) -> &'static str {
        match self {
            Self::Malformed { .. } => "malformed",
            Self::AicCheck => "aic_check_failed",
            Self::AlgNotAllowed(_) => "alg_not_allowed",
            Self::WrongIssuer(_) => "wrong_issuer",
            Self::WrongAudience(_) => "wrong_audience",
            Self::Expired => "expired",
            Self::UnknownKey(_) => "unknown_key",
            Self::BadSignature => "bad_signature",
            Self::DidMismatch { .. } => "did_mismatch",
            Self::StaleTimestamp { .. } => "invalid_timestamp",
            Self::NonceReused => "invalid_nonce",
            Self::Revoked(_) => "revoked",
            Self::NameTaken(_) => "name_taken",
            Self::NotRegistered(_) => "not_registered",
            Self::BadChallenge => "invalid_challenge",
            Self::Unresolvable(_) => "unresolvable",
            Self::DocumentProof(_) => "invalid_document_proof",
        }
    }

    /// This error as a protocol rejection: `<reason>: <message>`.
    pub fn rejection(&self) -> Rejection {
        Rejection::new(self.code(), format!("{}: {self}", self.reason()))
    }
}

impl Coded for IdentityError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::Malformed { .. } => ErrorCode::InvalidRequest,
            Self::NameTaken(_) => ErrorCode::AlreadyExists,
            Self::NotRegistered(_) => ErrorCode::NotFound,
            _ => ErrorCode::VerificationFailed,
        }
    }
}
